// Finding and counting "\n" bytes, for ReadFile's line scanner and Shell's
// output. Both are dominated by this, so the work runs in a small SIMD wasm
// module (_newline_scan.wat) at several GB/s: file chunks are read straight
// into its memory; a command's output chunks (which arrive in buffers a
// stream owns) are copied in, which costs far less than a JavaScript loop.
// Where wasm SIMD is missing, native Uint8Array#indexOf serves instead;
// neither loops over bytes in JavaScript.
import { NEWLINE_WASM_BASE64 } from "./_newline_scan_wasm.ts";

/** A reusable read buffer with fast newline search over its bytes. */
export interface ScanBuffer {
  /** The bytes; read file chunks into (a prefix of) this. */
  readonly bytes: Uint8Array;
  /**
   * The position of the `n`-th (n >= 1) newline in `bytes[from, to)`; when
   * there are fewer, `-1 - count` (so the result is negative).
   */
  find(from: number, to: number, n: number): number;
  /** The number of newlines in `bytes[from, to)`. */
  count(from: number, to: number): number;
  /** Returns the buffer to the pool. */
  release(): void;
}

/** The capacity of a scan buffer (the wasm module's whole memory). */
export const SCAN_BUFFER_BYTES = 1 << 20;

/** Idle buffers kept for reuse. */
const POOL_SIZE = 4;

interface WasmScanner {
  memory: WebAssembly.Memory;
  count(from: number, to: number): number;
  find(from: number, to: number, n: number): number;
  count_unless(from: number, to: number, stop: number): number;
}

let module: WebAssembly.Module | null | undefined;
const idle: ScanBuffer[] = [];

/**
 * Takes a scan buffer of {@linkcode SCAN_BUFFER_BYTES}; release it when done.
 * Each buffer owns its wasm instance (memory never grows, so views stay valid
 * while reads into them are in flight).
 */
export function acquireScanBuffer(
  options: { wasm?: boolean } = {},
): ScanBuffer {
  if (options.wasm === false) return jsBuffer();
  const pooled = idle.pop();
  if (pooled) return pooled;
  const compiled = wasmModule();
  return compiled ? wasmBuffer(compiled) : jsBuffer();
}

function wasmModule(): WebAssembly.Module | null {
  if (module !== undefined) return module;
  const bytes = Uint8Array.from(
    atob(NEWLINE_WASM_BASE64),
    (c) => c.charCodeAt(0),
  );
  module = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
  return module;
}

/**
 * The number of `\n` bytes in `bytes`, a chunk of any length in any buffer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(countNewlines(new TextEncoder().encode("a\nb\n")), 2);
 * ```
 */
export function countNewlines(bytes: Uint8Array): number {
  const scanner = chunkScanner();
  if (scanner === null) return countIn(bytes, 0, bytes.length);
  return scanChunks(bytes, (end) => scanner.count(0, end));
}

/**
 * Like {@linkcode countNewlines}, or -1 as soon as the byte `stop` shows up:
 * one pass tells Shell a chunk's lines and whether it holds an ESC.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(countNewlinesUnless(new TextEncoder().encode("a\n\x1b[0m"), 0x1b), -1);
 * ```
 */
export function countNewlinesUnless(bytes: Uint8Array, stop: number): number {
  const scanner = chunkScanner();
  if (scanner === null) {
    return bytes.indexOf(stop) === -1 ? countIn(bytes, 0, bytes.length) : -1;
  }
  return scanChunks(
    bytes,
    (end) => scanner.count_unless(0, end, stop),
  );
}

// One instance for chunk scans, apart from the pool: ReadFile's buffers may be
// in the middle of an asynchronous read, while a chunk scan is synchronous.
let chunkInstance: WasmScanner | null | undefined;
let chunkMemory: Uint8Array | undefined;

function chunkScanner(): WasmScanner | null {
  if (chunkInstance !== undefined) return chunkInstance;
  const compiled = wasmModule();
  chunkInstance = compiled ? instantiate(compiled) : null;
  if (chunkInstance) {
    chunkMemory = new Uint8Array(
      chunkInstance.memory.buffer,
      0,
      SCAN_BUFFER_BYTES,
    );
  }
  return chunkInstance;
}

// Copies `bytes` into the scanner's memory a buffer at a time and sums the
// counts; -1 from any piece (a stop byte) is the answer.
function scanChunks(
  bytes: Uint8Array,
  scan: (end: number) => number,
): number {
  const memory = chunkMemory!;
  let total = 0;
  for (let at = 0; at < bytes.length; at += SCAN_BUFFER_BYTES) {
    const piece = bytes.subarray(at, at + SCAN_BUFFER_BYTES);
    memory.set(piece);
    const count = scan(piece.length);
    if (count < 0) return -1;
    total += count;
  }
  return total;
}

function instantiate(compiled: WebAssembly.Module): WasmScanner {
  return new WebAssembly.Instance(compiled).exports as unknown as WasmScanner;
}

function wasmBuffer(compiled: WebAssembly.Module): ScanBuffer {
  const exports = instantiate(compiled);
  const buffer: ScanBuffer = {
    bytes: new Uint8Array(exports.memory.buffer, 0, SCAN_BUFFER_BYTES),
    find: (from, to, n) => exports.find(from, to, n),
    count: (from, to) => exports.count(from, to),
    release() {
      if (idle.length < POOL_SIZE && !idle.includes(buffer)) idle.push(buffer);
    },
  };
  return buffer;
}

function jsBuffer(): ScanBuffer {
  const bytes = new Uint8Array(SCAN_BUFFER_BYTES);
  return {
    bytes,
    find: (from, to, n) => findNewline(bytes, from, to, n),
    count: (from, to) => countIn(bytes, from, to),
    release() {},
  };
}

function findNewline(
  bytes: Uint8Array,
  from: number,
  to: number,
  n: number,
): number {
  const view = bytes.subarray(0, to);
  let found = 0;
  let at = view.indexOf(10, from);
  while (at !== -1) {
    if (++found === n) return at;
    at = view.indexOf(10, at + 1);
  }
  return -1 - found;
}

function countIn(bytes: Uint8Array, from: number, to: number): number {
  const view = bytes.subarray(0, to);
  let found = 0;
  let at = view.indexOf(10, from);
  while (at !== -1) {
    found++;
    at = view.indexOf(10, at + 1);
  }
  return found;
}
