// UTF-8 boundaries: where a byte buffer may be cut without splitting a character.
import { isUtf8 } from "node:buffer";

/**
 * Whether `bytes` are valid UTF-8, so that decoding them replaces nothing
 * and the text takes as many UTF-8 bytes as they do (a native scan, no string).
 */
export function isValidUtf8(bytes: Uint8Array): boolean {
  return isUtf8(bytes);
}

/** Whether `byte` continues a multi-byte character. */
export function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** How many bytes a character starting with `lead` takes (1 for invalid leads). */
export function sequenceLength(lead: number): number {
  if (lead >= 0xf0 && lead <= 0xf7) return 4;
  if (lead >= 0xe0) return lead <= 0xef ? 3 : 1;
  if (lead >= 0xc0) return 2;
  return 1;
}

/**
 * How many bytes at the end of `bytes` start a character that is not complete
 * yet (0 to 3): they belong with the next chunk of the same stream.
 */
export function incompleteTail(bytes: Uint8Array): number {
  const last = bytes.length - 1;
  if (last < 0 || bytes[last] < 0x80) return 0;
  for (let i = last; i >= 0 && i >= last - 2; i--) {
    if (isContinuation(bytes[i])) continue;
    const needed = sequenceLength(bytes[i]);
    return needed > 1 && i + needed > bytes.length ? bytes.length - i : 0;
  }
  return 0;
}

/** The largest index <= `end` that does not split a character. */
export function boundaryBefore(bytes: Uint8Array, end: number): number {
  let i = Math.min(end, bytes.length);
  for (
    let k = 0;
    k < 3 && i > 0 && i < bytes.length && isContinuation(bytes[i]);
    k++
  ) i--;
  return i;
}

/** The smallest index >= `start` that does not split a character. */
export function boundaryAfter(bytes: Uint8Array, start: number): number {
  let i = Math.max(start, 0);
  for (let k = 0; k < 3 && i < bytes.length && isContinuation(bytes[i]); k++) {
    i++;
  }
  return i;
}
