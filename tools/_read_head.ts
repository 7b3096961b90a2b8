// The start of a file, and what it says about the rest: git's rule for a
// binary file.

/** How many leading bytes tell a binary file: a NUL among them (git's rule). */
export const BINARY_PROBE_BYTES = 8000;

/** Whether the first {@linkcode BINARY_PROBE_BYTES} bytes hold a NUL. */
export function looksBinary(bytes: Uint8Array): boolean {
  // `indexOf` on a typed array beats `includes`.
  return bytes.subarray(0, BINARY_PROBE_BYTES).indexOf(0) !== -1;
}

/**
 * The first `bytes` bytes of the file at `path` (fewer when it is shorter),
 * read without loading the rest. Throws what Deno.open and read throw.
 */
export async function readHead(
  path: string,
  bytes: number,
): Promise<Uint8Array> {
  const file = await Deno.open(path);
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
