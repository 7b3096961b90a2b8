// Byte-level helpers for the split-point scanners (_pieces.ts, _nesting.ts),
// which read a file's UTF-8 bytes without decoding them: every byte they look
// for is ASCII.

export const TAB = 9;
export const NEWLINE = 10;
export const RETURN = 13;
export const SPACE = 32;
export const HASH = 35;
export const STAR = 42;
export const SLASH = 47;
export const AT = 64;
export const BACKSLASH = 92;

/** The index of the newline ending the line at `at`, or the length. */
export function lineEnd(bytes: Uint8Array, at: number): number {
  const newline = bytes.indexOf(NEWLINE, at);
  return newline === -1 ? bytes.length : newline;
}

/** The index of the two bytes `first` `second` from `from`, or -1. */
export function indexOfPair(
  bytes: Uint8Array,
  from: number,
  first: number,
  second: number,
): number {
  for (let at = bytes.indexOf(first, from); at !== -1;) {
    if (bytes[at + 1] === second) return at;
    at = bytes.indexOf(first, at + 1);
  }
  return -1;
}

/** Past the spaces and tabs at `at`. */
export function skipSpaces(bytes: Uint8Array, at: number): number {
  while (bytes[at] === SPACE || bytes[at] === TAB) at++;
  return at;
}

/** An ASCII letter. */
export function isLetter(byte: number | undefined): boolean {
  return byte !== undefined &&
    ((byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122));
}

/** A byte that may start a name: a letter, `_` or `$`. */
export function isNameStart(byte: number | undefined): boolean {
  return isLetter(byte) || byte === 95 || byte === 36;
}

/** A byte that may go on in a name: those, or a digit. */
export function isNameByte(byte: number | undefined): boolean {
  return isNameStart(byte) || (byte !== undefined && byte >= 48 && byte <= 57);
}
