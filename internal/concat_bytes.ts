/**
 * The chunks as one array (`size`: their total length, when known); a single
 * chunk is returned as it is.
 */
export function concatBytes(
  chunks: readonly Uint8Array[],
  size: number = chunks.reduce((sum, chunk) => sum + chunk.length, 0),
): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
