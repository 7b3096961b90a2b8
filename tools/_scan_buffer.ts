// Finding and counting "\n" bytes in a read buffer. A scan over a big file is
// dominated by this, so the buffer lives in the memory of a small SIMD wasm
// module (_newline_scan.wat): file chunks are read straight into it and
// searched at several GB/s. Where wasm SIMD is missing, native
// Uint8Array#indexOf serves instead; neither loops over bytes in JavaScript.
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

function wasmBuffer(compiled: WebAssembly.Module): ScanBuffer {
  const exports = new WebAssembly.Instance(compiled)
    .exports as unknown as WasmScanner;
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
    count: (from, to) => countNewlines(bytes, from, to),
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

function countNewlines(bytes: Uint8Array, from: number, to: number): number {
  const view = bytes.subarray(0, to);
  let found = 0;
  let at = view.indexOf(10, from);
  while (at !== -1) {
    found++;
    at = view.indexOf(10, at + 1);
  }
  return found;
}
