// How much of a file an outline reads, and how: never past a cap, never past
// the end the caller saw (a file that keeps growing is not read to its new
// end), and a binary file told from its first bytes, before the rest is
// read (an MPEG transport stream is a `.ts` file of gigabytes).

/** The most an outline reads: parsing more takes minutes and gigabytes. */
export const MAX_OUTLINE_BYTES = 64 * 1024 * 1024;
/** How many leading bytes tell a binary file: a NUL among them. */
export const BINARY_PROBE_BYTES = 8000;

/** Thrown when a file holds more than the bytes a read may take. */
export class TooBig extends Error {
  constructor(readonly size: number) {
    super(`the file holds over ${size} bytes`);
  }
}

/** Why a file over the cap is not outlined, and what to do instead. */
export function tooBigReason(): string {
  return `it is over the ${
    MAX_OUTLINE_BYTES / 1024 / 1024
  } MB an outline reads; search it, or read it by line ranges`;
}

/** Whether the first bytes hold a NUL (a binary file). */
export function looksBinary(bytes: Uint8Array): boolean {
  return bytes.subarray(0, BINARY_PROBE_BYTES).includes(0);
}

/** Whether the file at `path` starts with binary bytes. */
export async function startsBinary(path: string): Promise<boolean> {
  using file = await Deno.open(path);
  const head = new Uint8Array(BINARY_PROBE_BYTES);
  let filled = 0;
  while (filled < head.length) {
    const read = await file.read(head.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  return looksBinary(head.subarray(0, filled));
}

/**
 * The file's bytes as far as its size when opened (a file of size 0, as
 * /proc reports, up to `limit`); TooBig when that is over `limit`.
 */
export function readUpTo(
  path: string,
  limit: number,
): Uint8Array<ArrayBuffer> {
  using file = Deno.openSync(path);
  const size = file.statSync().size;
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
    const read = file.readSync(buffer.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  if (filled > limit) throw new TooBig(limit);
  return buffer.subarray(0, filled);
}

/** {@linkcode readUpTo}, without blocking the thread. */
export async function readUpToAsync(
  path: string,
  limit: number,
): Promise<Uint8Array<ArrayBuffer>> {
  using file = await Deno.open(path);
  const size = (await file.stat()).size;
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
    const read = await file.read(buffer.subarray(filled));
    if (read === null) break;
    filled += read;
  }
  if (filled > limit) throw new TooBig(limit);
  return buffer.subarray(0, filled);
}
