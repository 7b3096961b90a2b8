// Counts "\n" bytes four at a time: Shell scans every byte of a command's
// output (to name the omitted lines and to find escape sequences), so this is
// the hot path.

const NEWLINES = 0x0a0a0a0a;

/** The number of `\n` bytes in `bytes`. */
export function countNewlines(bytes: Uint8Array): number {
  let count = 0;
  let i = 0;
  const aligned = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < aligned; i++) if (bytes[i] === 0x0a) count++;
  const words = (bytes.length - i) >> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      // Exact zero-byte detection on word ^ "\n\n\n\n": 0x80 marks each match.
      const x = view[k] ^ NEWLINES;
      const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
      if (zero !== 0) {
        count += Math.imul((zero >>> 7) & 0x01010101, 0x01010101) >>> 24;
      }
    }
    i += words * 4;
  }
  for (; i < bytes.length; i++) if (bytes[i] === 0x0a) count++;
  return count;
}

const ESCAPES = 0x1b1b1b1b;

/**
 * The number of `\n` bytes in `bytes`, or -1 as soon as an ESC byte shows up:
 * one pass answers both questions Shell asks of each chunk.
 */
export function countNewlinesUnlessEscape(bytes: Uint8Array): number {
  let count = 0;
  let i = 0;
  const aligned = Math.min(bytes.length, (4 - (bytes.byteOffset & 3)) & 3);
  for (; i < aligned; i++) {
    if (bytes[i] === 0x1b) return -1;
    if (bytes[i] === 0x0a) count++;
  }
  const words = (bytes.length - i) >> 2;
  if (words > 0) {
    const view = new Uint32Array(bytes.buffer, bytes.byteOffset + i, words);
    for (let k = 0; k < words; k++) {
      const word = view[k];
      const e = word ^ ESCAPES;
      if (((e - 0x01010101) & ~e & 0x80808080) !== 0) return -1;
      const x = word ^ NEWLINES;
      const zero = ~(((x & 0x7f7f7f7f) + 0x7f7f7f7f) | x | 0x7f7f7f7f);
      if (zero !== 0) {
        count += Math.imul((zero >>> 7) & 0x01010101, 0x01010101) >>> 24;
      }
    }
    i += words * 4;
  }
  for (; i < bytes.length; i++) {
    if (bytes[i] === 0x1b) return -1;
    if (bytes[i] === 0x0a) count++;
  }
  return count;
}
