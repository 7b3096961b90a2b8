// Finding and counting "\n" bytes in a read buffer. The scan over a big file is
// dominated by this, so it leans on native code (Uint8Array#indexOf) and never
// loops over bytes in JavaScript.

/** A reusable read buffer with fast newline search over its bytes. */
export interface ScanBuffer {
  /** The bytes; read file chunks into (a prefix of) this. */
  readonly bytes: Uint8Array;
  /**
   * The position of the `n`-th (1-based) newline in `bytes[from, to)`; when
   * there are fewer, `-1 - count` (so the result is negative).
   */
  find(from: number, to: number, n: number): number;
  /** The number of newlines in `bytes[from, to)`. */
  count(from: number, to: number): number;
  /** Returns the buffer to the pool. */
  release(): void;
}

/** The capacity of a scan buffer. */
export const SCAN_BUFFER_BYTES = 1 << 20;

/** Takes a scan buffer of {@linkcode SCAN_BUFFER_BYTES}; release it when done. */
export function acquireScanBuffer(): ScanBuffer {
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
