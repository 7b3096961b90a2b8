// The start of a file, and what it says about the rest: git's rule for a
// binary file, and the byte order mark of UTF-16 text.

import { runtime } from "./runtime/runtime.ts";
/** How many leading bytes tell a binary file: a NUL among them (git's rule). */
export const BINARY_PROBE_BYTES = 8000;

/** Whether the first {@linkcode BINARY_PROBE_BYTES} bytes hold a NUL. */
export function looksBinary(bytes: Uint8Array): boolean {
  // `indexOf` on a typed array beats `includes`.
  return bytes.subarray(0, BINARY_PROBE_BYTES).indexOf(0) !== -1;
}

/**
 * The encoding a UTF-16 byte order mark at the start of `bytes` names, if any.
 * Such text is full of NUL bytes, yet it is text (ReadFile decodes it).
 */
export function utf16Bom(
  bytes: Uint8Array,
): "utf-16le" | "utf-16be" | undefined {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/**
 * The text of `bytes` (UTF-8, or UTF-16 behind its byte order mark), without
 * a BOM; invalid bytes become U+FFFD.
 */
export function decodeHead(bytes: Uint8Array): string {
  return new TextDecoder(utf16Bom(bytes) ?? "utf-8").decode(bytes);
}

/**
 * The first `bytes` bytes of the file at `path` (fewer when it is shorter),
 * read without loading the rest. Throws what Deno.open and read throw.
 */
export async function readHead(
  path: string,
  bytes: number,
): Promise<Uint8Array> {
  const file = await runtime.open(path);
  try {
    const buffer = new Uint8Array(bytes);
    let filled = 0;
    while (filled < buffer.length) {
      const read = await file.read(buffer.subarray(filled));
      if (read === null) break;
      filled += read;
    }
    return buffer.subarray(0, filled);
  } finally {
    file.close();
  }
}
