// How much of a file an outline reads, and how: never past a cap, never past
// the end the caller saw (a file that keeps growing is not read to its new
// end), and a binary file told from its first bytes, before the rest is
// read (an MPEG transport stream is a `.ts` file of gigabytes).
import {
  BINARY_PROBE_BYTES,
  looksBinary,
  readHead,
  utf16Bom,
} from "../internal/read_head.ts";
import {
  openedFileSize,
  openedFileSizeSync,
} from "../internal/open_file_size.ts";
import { runtime } from "../internal/runtime/runtime.ts";

export { looksBinary };

/** The most an outline reads: parsing more takes minutes and gigabytes. */
export const MAX_OUTLINE_BYTES = 64 * 1024 * 1024;

/** Why a file over the cap is not outlined, and what to do instead. */
export const TOO_BIG_REASON = `it is over the ${
  MAX_OUTLINE_BYTES / 1024 / 1024
} MB an outline reads; search it, or read it by line ranges`;

/** Thrown when a file holds more than the bytes a read may take. */
export class TooBig extends Error {
  constructor(readonly limit: number) {
    super(`the file holds over ${limit} bytes`);
  }
}

/**
 * Whether the file at `path` starts with binary bytes (UTF-16 text behind its
 * byte order mark is text).
 */
export async function startsBinary(path: string): Promise<boolean> {
  const head = await readHead(path, BINARY_PROBE_BYTES);
  return utf16Bom(head) === undefined && looksBinary(head);
}

/**
 * A file's bytes as UTF-8: UTF-16 text (told by its byte order mark, as
 * ReadFile tells it) is re-encoded, so that offsets, pieces and the parsers
 * all see UTF-8; other bytes are returned as they are.
 */
export function asUtf8(
  bytes: Uint8Array<ArrayBuffer>,
): Uint8Array<ArrayBuffer> {
  const utf16 = utf16Bom(bytes);
  if (utf16 === undefined) return bytes;
  return new TextEncoder().encode(new TextDecoder(utf16).decode(bytes));
}

/**
 * The file's bytes as far as its size when opened (a file of size 0, as
 * /proc reports, up to `limit`); TooBig when that is over `limit`.
 */
export function readUpTo(
  path: string,
  limit: number,
): Uint8Array<ArrayBuffer> {
  using file = runtime.openSync(path);
  const fill = _filling(openedFileSizeSync(file, path), limit);
  let step = fill.next();
  while (!step.done) step = fill.next(file.readSync(step.value));
  return step.value;
}

/** {@linkcode readUpTo}, without blocking the thread. */
export async function readUpToAsync(
  path: string,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  using file = await runtime.open(path);
  const fill = _filling(await openedFileSize(file, path), limit);
  let step = fill.next();
  while (!step.done) step = fill.next(await file.read(step.value));
  return step.value;
}

// The reading plan both reads share: it yields the space to read into, is
// given back how many bytes came (null at the end of the file), and returns
// the bytes read. Written once for the blocking and the async read.
function* _filling(
  size: number,
  limit: number,
): Generator<Uint8Array, Uint8Array<ArrayBuffer>, number | null> {
  if (size > limit) throw new TooBig(limit);
  const end = size === 0 ? limit + 1 : size;
  let buffer = new Uint8Array(size === 0 ? 64 * 1024 : size);
  let filled = 0;
  while (filled < end) {
    if (filled === buffer.length) {
      const grown = new Uint8Array(Math.min(buffer.length * 2, end));
      grown.set(buffer);
      buffer = grown;
    }
    const read = yield buffer.subarray(filled);
    if (read === null) break;
    filled += read;
  }
  if (filled > limit) throw new TooBig(limit);
  return buffer.subarray(0, filled);
}
