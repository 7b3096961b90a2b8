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
