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

/**
 * Reads a file that reports size 0 but may hold text (Linux's /proc and
 * /sys files) to its end, at most `max` bytes (a chunk more tells it was
 * longer): its bytes, and a file that serves them from memory.
 */
export async function readUnsized(
  file: RandomAccessFile,
  max: number,
): Promise<{ bytes: Uint8Array; file: RandomAccessFile }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  while (total <= max) {
    const chunk = new Uint8Array(64 * 1024);
    const n = await file.read(chunk, total);
    if (n === 0) break;
    chunks.push(chunk.subarray(0, n));
    total += n;
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, file: memoryFile(bytes) };
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
