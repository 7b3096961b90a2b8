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
