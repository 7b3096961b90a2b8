// Line selection for UTF-16 files: their newlines are two bytes wide, so the
// byte scanner does not apply. This path decodes chunk by chunk (memory stays
// bounded) and finds newlines in the decoded text. UTF-16 files are rare and
// small in practice, so it keeps no line index.
import { readAt } from "../read_at.ts";
import {
  type LineSelection,
  LineTooLongError,
  PastEndError,
  type SelectOptions,
} from "./_select_lines.ts";
import type { TextFormat } from "../../internal/decode.ts";
import type { RandomAccessFile } from "../types.ts";

const CHUNK_BYTES = 1 << 20;

/** Selects lines of a decoded text stream and returns them with their text. */
export async function selectDecodedLines(
  file: RandomAccessFile,
  size: number,
  format: TextFormat,
  options: SelectOptions,
): Promise<{ selection: LineSelection; content: string }> {
  const state = new DecodedScan(options);
  const decoder = new TextDecoder(format.encoding, { ignoreBOM: true });
  const buffer = new Uint8Array(CHUNK_BYTES);
  let pos = format.bomLength;
  while (pos < size && state.phase !== "done") {
    options.signal?.throwIfAborted();
    const n = await readAt(
      file,
      buffer.subarray(0, Math.min(CHUNK_BYTES, size - pos)),
      pos,
    );
    if (n === 0) break;
    pos += n;
    state.feed(
      decoder.decode(buffer.subarray(0, n), { stream: true }),
      size <= options.countAllUpTo,
    );
  }
  if (state.phase !== "done") state.feed(decoder.decode(), true);
  return state.finish(pos >= size);
}

class DecodedScan {
  phase: "start" | "end" | "count" | "done" = "start";
  #options: SelectOptions;
  #line = 1;
  #parts: string[] = [];
  #chars = 0;
  #lineParts = 0;
  #lineChars = 0;
  #endLine = -1;
  #lastChar = "";
  #sawText = false;

  constructor(options: SelectOptions) {
    this.#options = options;
  }

  feed(text: string, countAll: boolean): void {
    if (text.length === 0) return;
    this.#sawText = true;
    this.#lastChar = text[text.length - 1];
    const { startLine, maxLines, maxBytes } = this.#options;
    let i = 0;
    while (i < text.length && this.phase !== "done") {
      if (this.phase === "start" && this.#line === startLine) {
        this.phase = "end";
      }
      if (this.phase === "end" && this.#line === startLine + maxLines) {
        this.#endAt(this.#line - 1, countAll);
        continue;
      }
      const nl = text.indexOf("\n", i);
      const end = nl === -1 ? text.length : nl + 1;
      if (this.phase === "end") {
        this.#parts.push(text.slice(i, end));
        this.#chars += end - i;
        if (this.#chars > maxBytes / 2) {
          if (this.#line === startLine) throw new LineTooLongError(startLine);
          this.#parts.length = this.#lineParts;
          this.#chars = this.#lineChars;
          this.#endAt(this.#line - 1, countAll);
          i = end;
          if (nl !== -1) this.#line++;
          continue;
        }
      }
      if (nl === -1) break;
      this.#line++;
      if (this.phase === "end") {
        this.#lineParts = this.#parts.length;
        this.#lineChars = this.#chars;
      }
      i = end;
    }
  }

  #endAt(endLine: number, countAll: boolean): void {
    this.#endLine = endLine;
    this.phase = countAll ? "count" : "done";
  }

  finish(reachedEnd: boolean): { selection: LineSelection; content: string } {
    const { startLine } = this.#options;
    if (this.phase === "start" && this.#line === startLine) this.phase = "end";
    let totalLines: number | undefined;
    if (reachedEnd && this.phase !== "done") {
      totalLines = !this.#sawText
        ? 0
        : this.#lastChar === "\n"
        ? this.#line - 1
        : this.#line;
    }
    if (
      this.phase === "start" ||
      (startLine > 1 && startLine > (totalLines ?? Infinity))
    ) {
      throw new PastEndError(totalLines ?? 0);
    }
    if (this.phase === "end") this.#endLine = totalLines ?? this.#line;
    const selection: LineSelection = {
      startLine,
      endLine: this.#endLine,
      startByte: -1,
      endByte: -1,
    };
    if (totalLines !== undefined) selection.totalLines = totalLines;
    return { selection, content: this.#parts.join("") };
  }
}
