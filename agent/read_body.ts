// Reads the start of a response body. A server that streams without end (a
// wrong base URL, a proxy's endless page) kept fello reading for ever, growing
// by about 20 MB/s, wherever an answer was read whole.

/** A body's start as text, and whether more was left unread. */
export interface BodyStart {
  text: string;
  cut: boolean;
}

/**
 * At most `maxBytes` of a response body as text; the rest is cancelled
 * unread.
 */
export async function readBodyStart(
  response: Response,
  maxBytes: number,
): Promise<BodyStart> {
  if (!response.body) return { text: "", cut: false };
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let cut = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) break;
      if (bytes + value.byteLength > maxBytes) {
        chunks.push(value.subarray(0, maxBytes - bytes));
        cut = true;
        break;
      }
      chunks.push(value);
      bytes += value.byteLength;
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const decoder = new TextDecoder();
  const text = chunks.map((chunk) => decoder.decode(chunk, { stream: true }))
    .join("") + decoder.decode();
  return { text, cut };
}
