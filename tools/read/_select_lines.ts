// Finds a range of lines in a file by streaming it in chunks: memory stays at
// one scan buffer whatever the file size, the scan stops as soon as it has what
// it needs, and newlines are found by native code. A line index remembers where
// every CHECKPOINT_EVERY-th line starts, so later deep reads start close by.
import { CHECKPOINT_EVERY, type LineIndex } from "../../internal/line_index.ts";
import {
  acquireScanBuffer,
  type ScanBuffer,
} from "../../internal/scan_buffer.ts";
import { readAt } from "../read_at.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { RandomAccessFile } from "../types.ts";

/** Which lines to select and how far to keep counting. */
export interface SelectOptions {
  /** The first line wanted (1-based). */
  startLine: number;
  /** At most this many lines. */
  maxLines: number;
  /** At most this many bytes of selected text (cut at a line end). */
  maxBytes: number;
  /** Count every line (for `totalLines`) when the file is at most this big. */
  countAllUpTo: number;
  /** Aborts the scan between chunks. */
  signal?: AbortSignal;
}

/** Where the selected lines are: bytes `[startByte, endByte)` of the file. */
export interface LineSelection {
  startLine: number;
  endLine: number;
  startByte: number;
  endByte: number;
  totalLines?: number;
}

/** Thrown (as a ToolError) when `startLine` lies past the end of the file. */
export class PastEndError extends ToolError {
  /** The file's line count. */
  readonly totalLines: number;
  constructor(totalLines: number) {
    super(`the file has ${totalLines} lines`);
    this.totalLines = totalLines;
  }
}

/** Thrown (as a ToolError) when one selected line alone exceeds `maxBytes`. */
export class LineTooLongError extends ToolError {
  /** The line that is too long. */
  readonly line: number;
  constructor(line: number) {
    super(`line ${line} is too long to return`);
    this.line = line;
  }
}

/** Keep counting to the end when no more than this is left after the selection. */
const CHEAP_TAIL_BYTES = 1 << 20;
const FIRST_CHUNK_BYTES = 1 << 16;

/**
 * Selects lines of a UTF-8 (or any ASCII-compatible) file of `size` bytes whose
 * first line starts at `index.checkpoints[0]` (after a BOM). Updates `index`.
 */
export async function selectLines(
  file: RandomAccessFile,
  index: LineIndex,
  options: SelectOptions,
): Promise<LineSelection> {
  const scan = new Scan(file, index, options);
  const buffer = acquireScanBuffer();
  try {
    return await scan.run(buffer);
  } finally {
    buffer.release();
  }
}

type Phase = "start" | "end" | "count" | "done";

class Scan {
  #file: RandomAccessFile;
  #index: LineIndex;
  #options: SelectOptions;
  #size: number;
  /** The line that contains the scan position. */
  #line: number;
  #pos: number;
  /** Where line `#line` starts (kept exact while selecting). */
  #lineStart: number;
  #phase: Phase = "start";
  #startByte = -1;
  #endByte = -1;
  #endLine = -1;
  #lastByte = -1;

  constructor(
    file: RandomAccessFile,
    index: LineIndex,
    options: SelectOptions,
  ) {
    this.#file = file;
    this.#index = index;
    this.#options = options;
    this.#size = index.size;
    const { checkpoints } = index;
    const j = Math.min(
      Math.floor((options.startLine - 1) / CHECKPOINT_EVERY),
      checkpoints.length - 1,
    );
    this.#line = j * CHECKPOINT_EVERY + 1;
    this.#pos = checkpoints[j];
    this.#lineStart = this.#pos;
  }

  async run(buffer: ScanBuffer): Promise<LineSelection> {
    const known = this.#index.totalLines;
    if (known !== undefined && this.#options.startLine > Math.max(known, 1)) {
      throw new PastEndError(known);
    }
    this.#checkTarget();
    let want = FIRST_CHUNK_BYTES;
    while (this.#phase !== "done" && this.#pos < this.#size) {
      this.#options.signal?.throwIfAborted();
      const chunkPos = this.#pos;
      const n = await readAt(
        this.#file,
        buffer.bytes.subarray(0, Math.min(want, this.#size - chunkPos)),
        chunkPos,
      );
      if (n === 0) {
        this.#size = chunkPos; // the file shrank under us: stop here
        break;
      }
      this.#lastByte = buffer.bytes[n - 1];
      this.#scanChunk(buffer, chunkPos, n);
      this.#pos = chunkPos + n;
      want = Math.min(want * 2, buffer.bytes.length);
    }
    return this.#finish();
  }

  /** Processes events inside one chunk: `bytes[0, n)` holds file bytes from `chunkPos`. */
  #scanChunk(buffer: ScanBuffer, chunkPos: number, n: number): void {
    let local = this.#pos - chunkPos;
    while (local < n && this.#phase !== "done") {
      const target = this.#nextTarget();
      let to = n;
      if (this.#phase === "end") {
        to = Math.min(n, this.#startByte + this.#options.maxBytes - chunkPos);
      }
      if (target === Infinity) {
        this.#line += buffer.count(local, to);
        local = to;
      } else {
        const found = buffer.find(local, to, target - this.#line);
        if (found >= 0) {
          local = found + 1;
          this.#line = target;
          this.#lineStart = chunkPos + local;
          this.#checkTarget();
          continue;
        }
        const counted = -1 - found;
        if (counted > 0 && this.#phase === "end") {
          const last = buffer.bytes.subarray(local, to).lastIndexOf(10);
          this.#lineStart = chunkPos + local + last + 1;
        }
        this.#line += counted;
        local = to;
      }
      if (this.#phase === "end" && to < n) this.#capReached();
    }
    if (
      this.#phase === "end" &&
      chunkPos + n >= this.#startByte + this.#options.maxBytes &&
      chunkPos + n < this.#size
    ) this.#capReached();
  }

  /** The next line whose start matters: a checkpoint or the selection's edge. */
  #nextTarget(): number {
    const checkpoint = this.#index.checkpoints.length * CHECKPOINT_EVERY + 1;
    const { startLine, maxLines } = this.#options;
    const edge = this.#phase === "start"
      ? startLine
      : this.#phase === "end"
      ? startLine + maxLines
      : Infinity;
    return Math.min(checkpoint, edge);
  }

  /** Called whenever a line start has been reached: records and advances phases. */
  #checkTarget(): void {
    const { checkpoints } = this.#index;
    if (this.#line === checkpoints.length * CHECKPOINT_EVERY + 1) {
      checkpoints.push(this.#lineStart);
    }
    const { startLine, maxLines } = this.#options;
    if (this.#phase === "start" && this.#line === startLine) {
      this.#startByte = this.#lineStart;
      this.#phase = "end";
    }
    if (this.#phase === "end" && this.#line === startLine + maxLines) {
      this.#endSelection(this.#lineStart, this.#line - 1);
    }
  }

  #capReached(): void {
    if (this.#lineStart <= this.#startByte) {
      throw new LineTooLongError(this.#options.startLine);
    }
    this.#endSelection(this.#lineStart, this.#line - 1);
  }

  #endSelection(endByte: number, endLine: number): void {
    this.#endByte = endByte;
    this.#endLine = endLine;
    const { countAllUpTo } = this.#options;
    const keepCounting = this.#index.totalLines === undefined &&
      (this.#size <= countAllUpTo || this.#size - endByte <= CHEAP_TAIL_BYTES);
    this.#phase = keepCounting ? "count" : "done";
  }

  #finish(): LineSelection {
    if (this.#phase !== "done") this.#index.totalLines = this.#countedTotal();
    const totalLines = this.#index.totalLines;
    const { startLine } = this.#options;
    if (this.#phase === "start") throw new PastEndError(totalLines ?? 0);
    if (this.#startByte >= this.#size && startLine > 1) {
      throw new PastEndError(totalLines ?? startLine - 1);
    }
    if (this.#phase === "end") {
      this.#endByte = this.#size;
      this.#endLine = totalLines ?? this.#line;
    }
    const selection: LineSelection = {
      startLine,
      endLine: this.#endLine,
      startByte: this.#startByte,
      endByte: this.#endByte,
    };
    if (totalLines !== undefined) selection.totalLines = totalLines;
    return selection;
  }

  /** The line count after scanning to the end of the file. */
  #countedTotal(): number {
    const firstLineStart = this.#index.checkpoints[0];
    if (this.#size <= firstLineStart) return 0;
    // The "line" begun after a final newline is not a line.
    const endsWithNewline = this.#lastByte === -1
      ? this.#pos === this.#size
      : this.#lastByte === 10;
    return endsWithNewline ? this.#line - 1 : this.#line;
  }
}
