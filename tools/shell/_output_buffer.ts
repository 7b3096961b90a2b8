// Bounded command output: keeps the first and last bytes in memory, streams
// everything to a log file once the limit is passed, and renders the text the
// model sees (head, one marker naming what was omitted, tail). Memory stays at
// about `limit` plus one chunk, however much a command prints.
import { dirname } from "node:path";
import { concatBytes } from "../../internal/concat_bytes.ts";
import { LOG_PREFIX, LOG_SUFFIX, sweepOldLogs } from "./_log_sweep.ts";
import { AnsiStripper } from "./_ansi.ts";
import {
  countNewlines,
  countNewlinesUnless,
} from "../../internal/scan_buffer.ts";
import {
  boundaryAfter,
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
  #pending = new GrowableBytes(); // everything, until the limit is passed
  #head: Uint8Array | undefined; // set once the limit is passed
  #tail: TailRing | undefined;
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
    if (this.#tail === undefined) {
      this.#pending.append(chunk);
      if (this.#total > this.#limit) this.#overflow();
      return;
    }
    this.#writeLog(chunk);
    this.#tail.push(chunk);
  }

  /** Closes the log and renders the output. */
  finish(): RenderedOutput {
    if (this.#tail === undefined) {
      const text = decode(this.#pending.bytes());
      if (byteLength(text) <= this.#limit) {
        return { output: text, truncated: false, totalBytes: this.#total };
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
    const all = this.#pending.bytes();
    this.#pending = new GrowableBytes();
    // Three bytes more tell whether a cut at #headSize would split a character.
    this.#head = all.slice(0, this.#headSize + 3);
    this.#tail = new TailRing(this.#tailSize);
    this.#tail.push(all);
    this.#openLog();
    this.#writeLog(all);
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
    const head = this.#head ?? new Uint8Array();
    const tail = this.#tail?.bytes() ?? new Uint8Array();
    const markerRoom = marker(this.#total, this.#lines).length + 1;
    // A limit too small to hold the marker and some text keeps `limit` bytes of
    // text and puts the marker on top, so output still starts with the
    // command's first bytes.
    const tiny = this.#limit - markerRoom < MIN_TEXT_BYTES;
    let budget = tiny ? this.#limit : this.#limit - markerRoom;
    // (+1: the newline put after a head that does not end with one)
    const cap = tiny ? this.#limit + markerRoom + 1 : this.#limit;
    let output = "";
    // Replacement characters can make the decoded text longer than its bytes;
    // shrink the budget by the excess and cut again.
    for (let attempt = 0; attempt < 4; attempt++) {
      output = this.#join(head, tail, Math.max(0, budget));
      const excess = byteLength(output) - cap;
      if (excess <= 0 || budget <= 0) break;
      budget -= excess;
    }
    return output;
  }

  #join(head: Uint8Array, tail: Uint8Array, budget: number): string {
    // At least one byte of head: output starts with the command's first bytes.
    const headWanted = Math.min(
      budget,
      Math.max(1, Math.floor(budget * HEAD_SHARE)),
    );
    let headEnd = cutHead(head, Math.min(head.length, headWanted));
    // A first character longer than the head's share still leads when it fits.
    if (headEnd === 0 && head.length > 0) {
      const first = boundaryAfter(head, 1);
      if (first <= budget) headEnd = first;
    }
    const tailStart = cutTail(
      tail,
      tail.length - Math.min(tail.length, budget - headEnd),
    );
    const kept = [head.subarray(0, headEnd), tail.subarray(tailStart)];
    const omittedBytes = this.#total - kept[0].length - kept[1].length;
    const omittedLines = this.#lines - countNewlines(kept[0]) -
      countNewlines(kept[1]);
    const headText = decode(kept[0]);
    const separator = headText === "" || headText.endsWith("\n") ? "" : "\n";
    return `${headText}${separator}${marker(omittedBytes, omittedLines)}\n${
      decode(kept[1])
    }`;
  }
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
function cutHead(head: Uint8Array, length: number): number {
  const newline = head.subarray(0, length).lastIndexOf(0x0a);
  if (newline >= 0 && newline + 1 >= length / 2) return newline + 1;
  return boundaryBefore(head, length);
}

// Starts the tail after its first newline when that keeps at least half of it.
function cutTail(tail: Uint8Array, start: number): number {
  const newline = tail.indexOf(0x0a, start);
  const kept = tail.length - start;
  if (newline >= 0 && tail.length - (newline + 1) >= kept / 2) {
    return newline + 1;
  }
  return boundaryAfter(tail, start);
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

function decode(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

function byteLength(text: string): number {
  // Most output is ASCII: skip the encoding when length already decides.
  return !/[\u0080-\uffff]/.test(text)
    ? text.length
    : encoder.encode(text).length;
}

// A byte buffer that doubles as it fills.
class GrowableBytes {
  #buffer = new Uint8Array(4096);
  #length = 0;

  append(bytes: Uint8Array): void {
    if (this.#length + bytes.length > this.#buffer.length) {
      let size = this.#buffer.length * 2;
      while (size < this.#length + bytes.length) size *= 2;
      const grown = new Uint8Array(size);
      grown.set(this.#buffer.subarray(0, this.#length));
      this.#buffer = grown;
    }
    this.#buffer.set(bytes, this.#length);
    this.#length += bytes.length;
  }

  bytes(): Uint8Array {
    return this.#buffer.subarray(0, this.#length);
  }
}

// The last `size` bytes written, in a fixed buffer.
class TailRing {
  #buffer: Uint8Array;
  #end = 0; // where the next byte goes
  #filled = 0;

  constructor(size: number) {
    this.#buffer = new Uint8Array(size);
  }

  push(bytes: Uint8Array): void {
    const size = this.#buffer.length;
    if (size === 0) return;
    const kept = bytes.length > size
      ? bytes.subarray(bytes.length - size)
      : bytes;
    const first = Math.min(kept.length, size - this.#end);
    this.#buffer.set(kept.subarray(0, first), this.#end);
    this.#buffer.set(kept.subarray(first), 0);
    this.#end = (this.#end + kept.length) % size;
    this.#filled = Math.min(size, this.#filled + kept.length);
  }

  bytes(): Uint8Array {
    if (this.#filled < this.#buffer.length) {
      return this.#buffer.slice(0, this.#filled);
    }
    return concatBytes([
      this.#buffer.subarray(this.#end),
      this.#buffer.subarray(0, this.#end),
    ]);
  }
}
