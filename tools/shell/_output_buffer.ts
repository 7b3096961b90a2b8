// Bounded command output: keeps the first and last bytes in memory, streams
// everything to a log file once the limit is passed, and renders the text the
// model sees (head, one marker naming what was omitted, tail). Memory stays at
// about `limit` plus a block, however much a command prints; rendering frees
// the bytes as it decodes them, so the text takes their place.
import { dirname } from "node:path";
import { ByteBlocks, type ByteRange } from "./_byte_blocks.ts";
import { LOG_PREFIX, LOG_SUFFIX, sweepOldLogs } from "./_log_sweep.ts";
import { AnsiStripper } from "./_ansi.ts";
import {
  countNewlines,
  countNewlinesUnless,
} from "../../internal/scan_buffer.ts";
import {
  boundaryBefore,
  incompleteTail,
  isContinuation,
  sequenceLength,
} from "../../internal/utf8.ts";
import { runtime } from "../../internal/runtime/runtime.ts";
import type {
  FsFile,
  MakeTempOptions,
} from "../../internal/runtime/runtime.ts";

/** Options for {@linkcode OutputBuffer}. */
export interface OutputBufferOptions {
  /** Bytes of output kept in the rendered text, marker included. */
  limit: number;
  /** Folder for the full-output log; defaults to the system temp folder. */
  logDir?: string;
  /** Bytes of output the log keeps at most (LOG_LIMIT by default). */
  logLimit?: number;
  /** Sees each cleaned chunk as it is pushed (it is not kept). */
  onChunk?: (chunk: Uint8Array) => void;
}

/** The rendered output of a finished command. */
export interface RenderedOutput {
  /** Head and tail joined by one marker when truncated, else everything. */
  output: string;
  /** Whether bytes were omitted from `output`. */
  truncated: boolean;
  /** The full output, when truncated and the log could be written. */
  logPath?: string;
  /** Whether the log holds only the first `logLimit` bytes of the output. */
  logTruncated?: boolean;
  /** Bytes the command printed (after stripping escape sequences). */
  totalBytes: number;
}

// The head gets a quarter of the budget: failures and summaries print last.
const HEAD_SHARE = 0.25;
const LOG_BATCH = 1024 * 1024;
/**
 * The most output a log keeps (its first bytes, then a line saying it was
 * cut): a command printing without end (`yes`) writes some 400 MB/s and would
 * fill the temp folder's disk in minutes.
 */
export const LOG_LIMIT = 256 * 1024 * 1024;
const ESC = 0x1b;
// Below this many bytes of text beside the marker, the marker goes on top of the limit.
const MIN_TEXT_BYTES = 8;

/**
 * Collects the output of one command from any number of streams. It copies
 * what it keeps, so callers may reuse their read buffers (no garbage per chunk).
 */
export class OutputBuffer {
  #limit: number;
  #headSize: number;
  #tailSize: number;
  #logDir: string | undefined;
  // Everything until the limit is passed; then the first #head bytes and
  // the last #tailSize (each with up to a block more).
  #kept = new ByteBlocks();
  #head = 0; // set once the limit is passed
  #truncated = false;
  #total = 0;
  #lines = 0;
  #log: FsFile | undefined;
  #logBatch: Uint8Array | undefined;
  #logBuffered = 0;
  #logPath: string | undefined;
  #logLimit: number;
  #logged = 0; // output bytes given to the log
  #logCut = false;
  #onChunk: ((chunk: Uint8Array) => void) | undefined;

  constructor(options: OutputBufferOptions) {
    this.#onChunk = options.onChunk;
    this.#limit = options.limit;
    this.#headSize = Math.max(1, Math.floor(options.limit * HEAD_SHARE));
    this.#tailSize = options.limit - this.#headSize;
    this.#logDir = options.logDir;
    this.#logLimit = options.logLimit ?? LOG_LIMIT;
  }

  /** A stream feeding this buffer (e.g. stdout): strips ANSI, keeps characters whole. */
  source(): OutputSource {
    return new OutputSource((chunk, newlines) => this.push(chunk, newlines));
  }

  /**
   * Appends cleaned bytes in arrival order; `chunk` is not kept. `newlines`
   * is its count of `\n` when the caller already knows it.
   */
  push(chunk: Uint8Array, newlines?: number): void {
    if (chunk.length === 0) return;
    this.#onChunk?.(chunk);
    this.#total += chunk.length;
    this.#lines += newlines ?? countNewlines(chunk);
    this.#kept.append(chunk);
    if (!this.#truncated) {
      if (this.#total > this.#limit) this.#overflow();
      return;
    }
    this.#writeLog(chunk);
    this.#kept.keepEnds(this.#head, this.#tailSize);
  }

  /** Closes the log and renders the output. */
  finish(): RenderedOutput {
    if (!this.#truncated) {
      const all: ByteRange = [0, this.#kept.length];
      if (this.#kept.textBytes(...all) <= this.#limit) {
        const [output] = this.#kept.texts([all]);
        return { output, truncated: false, totalBytes: this.#total };
      }
      // Replacement characters for invalid bytes made the text longer than the limit.
      this.#overflow();
    }
    this.#flushLog();
    if (this.#logCut) this.#writeAll(encoder.encode(this.#cutLine()));
    this.#closeLog();
    const output = this.#renderTruncated();
    const rendered: RenderedOutput = {
      output,
      truncated: true,
      totalBytes: this.#total,
    };
    if (this.#logPath !== undefined) {
      rendered.logPath = this.#logPath;
      if (this.#logCut) rendered.logTruncated = true;
    }
    return rendered;
  }

  // First time past the limit: everything so far is still in memory, so the
  // head is cut from it and the log starts with it.
  #overflow(): void {
    this.#truncated = true;
    // Three bytes more tell whether a cut at #headSize would split a character.
    this.#head = Math.min(this.#kept.length, this.#headSize + 3);
    this.#openLog();
    for (const view of this.#kept.views()) this.#writeLog(view);
    this.#kept.keepEnds(this.#head, this.#tailSize);
  }
  #openLog(): void {
    try {
      const options: MakeTempOptions = {
        prefix: LOG_PREFIX,
        suffix: LOG_SUFFIX,
      };
      if (this.#logDir !== undefined) options.dir = this.#logDir;
      this.#logPath = runtime.makeTempFileSync(options);
      this.#log = runtime.openSync(this.#logPath, { write: true });
      sweepOldLogs(dirname(this.#logPath));
    } catch {
      // No write access or no space: the result just has no log.
      this.#dropLog();
    }
  }

  // Writes go through a 1 MiB batch: commands often print in 4-8 KiB pieces,
  // and one write call per piece would cost more than the copy. Synchronous
  // writes measured faster than async ones here and keep the order trivially.
  #writeLog(bytes: Uint8Array): void {
    if (this.#log === undefined || this.#logCut) return;
    if (this.#logged + bytes.length > this.#logLimit) {
      // Past the cap: its first bytes (whole characters), then nothing more.
      bytes = bytes.subarray(
        0,
        boundaryBefore(bytes, this.#logLimit - this.#logged),
      );
      this.#logCut = true;
    }
    this.#logged += bytes.length;
    if (this.#logBuffered + bytes.length > LOG_BATCH) this.#flushLog();
    if (bytes.length >= LOG_BATCH) {
      this.#writeAll(bytes);
      return;
    }
    this.#logBatch ??= new Uint8Array(LOG_BATCH);
    this.#logBatch.set(bytes, this.#logBuffered);
    this.#logBuffered += bytes.length;
  }

  #flushLog(): void {
    if (this.#logBatch === undefined || this.#logBuffered === 0) return;
    const batch = this.#logBatch.subarray(0, this.#logBuffered);
    this.#logBuffered = 0;
    this.#writeAll(batch);
  }

  #writeAll(bytes: Uint8Array): void {
    if (this.#log === undefined) return;
    try {
      let written = 0;
      while (written < bytes.length) {
        written += this.#log.writeSync(bytes.subarray(written));
      }
    } catch {
      this.#dropLog();
    }
  }

  // Ends a cut log, so that whoever reads it knows the rest is missing.
  #cutLine(): string {
    return `\n[... the log stops here: it keeps the first ${this.#logged} bytes of the output; the other ${
      this.#total - this.#logged
    } bytes were not saved, the last of them are in the Shell result ...]\n`;
  }

  #closeLog(): void {
    this.#log?.close();
    this.#log = undefined;
  }

  // A partial log would claim to be the full output: remove it instead.
  #dropLog(): void {
    this.#closeLog();
    if (this.#logPath !== undefined) {
      try {
        runtime.removeSync(this.#logPath);
      } catch {
        // Already gone or not removable; nothing refers to it any more.
      }
    }
    this.#logPath = undefined;
  }

  #renderTruncated(): string {
    const markerRoom = marker(this.#total, this.#lines).length + 1;
    // A limit too small to hold the marker and some text keeps `limit` bytes of
    // text and puts the marker on top, so output still starts with the
    // command's first bytes.
    const tiny = this.#limit - markerRoom < MIN_TEXT_BYTES;
    let budget = tiny ? this.#limit : this.#limit - markerRoom;
    // (+1: the newline put after a head that does not end with one)
    const cap = tiny ? this.#limit + markerRoom + 1 : this.#limit;
    // Cuts are measured on the bytes and only the last one is decoded:
    // replacement characters for invalid bytes can make the text longer, and
    // then the budget shrinks by the excess.
    for (let attempt = 0;; attempt++) {
      const cut = this.#cut(Math.max(0, budget));
      const excess = cut.bytes - cap;
      if (excess <= 0 || budget <= 0 || attempt === 3) return this.#text(cut);
      budget -= excess;
    }
  }

  #cut(budget: number): Cut {
    const kept = this.#kept;
    // At least one byte of head: output starts with the command's first bytes.
    const headWanted = Math.min(
      budget,
      Math.max(1, Math.floor(budget * HEAD_SHARE)),
    );
    let headEnd = cutHead(kept, Math.min(this.#head, headWanted));
    // A first character longer than the head's share still leads when it fits.
    if (headEnd === 0 && this.#head > 0) {
      const first = kept.boundaryAfter(1);
      if (first <= budget) headEnd = first;
    }
    const tailStart = cutTail(
      kept,
      kept.length - Math.min(kept.length - this.#head, budget - headEnd),
    );
    const tailBytes = kept.length - tailStart;
    const omitted = marker(
      this.#total - headEnd - tailBytes,
      this.#lines - kept.countNewlines(0, headEnd) -
        kept.countNewlines(tailStart),
    );
    const separator = headEnd === 0 || kept.at(headEnd - 1) === 0x0a
      ? ""
      : "\n";
    return {
      headEnd,
      tailStart,
      marker: omitted,
      separator,
      bytes: kept.textBytes(0, headEnd) + separator.length + omitted.length +
        1 + kept.textBytes(tailStart, kept.length),
    };
  }

  // The bytes are dropped as they become text.
  #text(cut: Cut): string {
    const [head, tail] = this.#kept.texts([[0, cut.headEnd], [
      cut.tailStart,
      this.#kept.length,
    ]]);
    return head + cut.separator + cut.marker + "\n" + tail;
  }
}

/** Where the rendered output cuts the head and the tail, and its length in UTF-8. */
interface Cut {
  headEnd: number;
  tailStart: number;
  marker: string;
  separator: string;
  bytes: number;
}

/** One stream of a command: strips escape sequences and never splits a character between chunks. */
export class OutputSource {
  #ansi = new AnsiStripper();
  #pending: Uint8Array | undefined;
  #sink: (chunk: Uint8Array, newlines?: number) => void;

  constructor(sink: (chunk: Uint8Array, newlines?: number) => void) {
    this.#sink = sink;
  }

  /** Feeds raw bytes; `raw` is not kept, so the caller may reuse it. */
  push(raw: Uint8Array): void {
    // Held-back bytes are parts of characters (>= 0x80), never newlines, so
    // the count of the raw chunk stays right when no escape was stripped.
    let newlines = this.#ansi.idle ? countNewlinesUnless(raw, ESC) : -1;
    let chunk = raw;
    if (newlines < 0) {
      chunk = this.#ansi.strip(raw);
      newlines = countNewlines(chunk);
    }
    if (this.#pending !== undefined) {
      const taken = this.#complete(chunk);
      if (taken < 0) return; // still incomplete: the chunk was all continuation bytes
      chunk = chunk.subarray(taken);
    }
    const held = incompleteTail(chunk);
    if (held > 0) {
      this.#pending = chunk.slice(chunk.length - held);
      chunk = chunk.subarray(0, chunk.length - held);
    }
    this.#sink(chunk, newlines);
  }

  // Finishes the held-back character with the continuation bytes that start
  // `chunk` and emits it; returns how many bytes it took, or -1 when the
  // character is still incomplete. An invalid sequence is emitted as is.
  #complete(chunk: Uint8Array): number {
    const pending = this.#pending!;
    const needed = sequenceLength(pending[0]) - pending.length;
    let taken = 0;
    while (
      taken < needed && taken < chunk.length && isContinuation(chunk[taken])
    ) taken++;
    const joined = new Uint8Array(pending.length + taken);
    joined.set(pending);
    joined.set(chunk.subarray(0, taken), pending.length);
    if (taken < needed && taken === chunk.length) {
      this.#pending = joined;
      return -1;
    }
    this.#pending = undefined;
    this.#sink(joined);
    return taken;
  }

  /** Flushes what is held back; an unfinished character becomes U+FFFD when decoded. */
  end(): void {
    if (this.#pending !== undefined) this.#sink(this.#pending);
    this.#pending = undefined;
  }
}

function marker(bytes: number, lines: number): string {
  return `[... ${bytes} bytes (${lines} lines) omitted ...]`;
}

// Ends the head after its last newline when that keeps at least half of it.
function cutHead(head: ByteBlocks, length: number): number {
  const newline = head.lastIndexOf(0x0a, length);
  if (newline >= 0 && newline + 1 >= length / 2) return newline + 1;
  return head.boundaryBefore(length);
}

// Starts the tail after its first newline when that keeps at least half of it.
function cutTail(tail: ByteBlocks, start: number): number {
  const newline = tail.indexOf(0x0a, start);
  const kept = tail.length - start;
  if (newline >= 0 && tail.length - (newline + 1) >= kept / 2) {
    return newline + 1;
  }
  return tail.boundaryAfter(start);
}

const encoder = new TextEncoder();
