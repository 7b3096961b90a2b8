import { concatBytes } from "../internal/concat_bytes.ts";
import type { RandomAccessFile } from "./types.ts";

/** Reads until `buffer` is full or the file ends; resolves to the bytes read. */
export async function readAt(
  file: RandomAccessFile,
  buffer: Uint8Array,
  position: number,
): Promise<number> {
  let filled = 0;
  while (filled < buffer.length) {
    const n = await file.read(buffer.subarray(filled), position + filled);
    if (n === 0) break;
    filled += n;
  }
  return filled;
}

/** Reads `size` bytes from the start (fewer if the file is shorter now). */
export async function readWhole(
  file: RandomAccessFile,
  size: number,
): Promise<Uint8Array> {
  const bytes = new Uint8Array(size);
  const n = await readAt(file, bytes, 0);
  return n === size ? bytes : bytes.subarray(0, n);
}

/** Options of readUnsized(). */
export interface UnsizedOptions {
  /**
   * Sees the first `headBytes` bytes (all of them, for a shorter file) before
   * more is read, and may throw to stop there: a binary file is refused
   * without reading on.
   */
  checkHead?: (head: Uint8Array) => void;
  /** How many bytes `checkHead` gets. */
  headBytes?: number;
}

/**
 * Reads a file that reports size 0 but may hold text (Linux's /proc and
 * /sys files) to its end, at most `max` bytes and one more (which tells it
 * was longer): its bytes, and a file that serves them from memory.
 */
export async function readUnsized(
  file: RandomAccessFile,
  max: number,
  options: UnsizedOptions = {},
): Promise<{ bytes: Uint8Array; file: RandomAccessFile }> {
  const { checkHead, headBytes = 8192 } = options;
  const chunks: Uint8Array[] = [];
  let total = 0;
  let checked = checkHead === undefined;
  while (total <= max) {
    const chunk = new Uint8Array(Math.min(64 * 1024, max + 1 - total));
    const n = await file.read(chunk, total);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
    if (!checked && total >= headBytes) {
      checkHead!(joined(chunks, total).subarray(0, headBytes));
      checked = true;
    }
  }
  const bytes = joined(chunks, total);
  if (!checked) checkHead!(bytes);
  return { bytes, file: memoryFile(bytes) };
}

function joined(chunks: Uint8Array[], total: number): Uint8Array {
  const bytes = concatBytes(chunks, total);
  chunks.splice(0, chunks.length, bytes);
  return bytes;
}

/** A file whose bytes are in memory: positioned reads of `bytes`. */
export function memoryFile(bytes: Uint8Array): RandomAccessFile {
  return {
    read(buffer: Uint8Array, position: number): Promise<number> {
      const slice = bytes.subarray(position, position + buffer.length);
      buffer.set(slice);
      return Promise.resolve(slice.length);
    },
    close(): void {},
  };
}
