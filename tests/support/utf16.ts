// UTF-16 files as editors on Windows save them: a byte order mark, then the
// text's code units.

/** `text` as UTF-16 bytes behind a byte order mark (little-endian by default). */
export function utf16WithBom(
  text: string,
  { littleEndian = true }: { littleEndian?: boolean } = {},
): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(2 + text.length * 2);
  const view = new DataView(bytes.buffer);
  view.setUint16(0, 0xfeff, littleEndian);
  for (let i = 0; i < text.length; i++) {
    view.setUint16(2 + i * 2, text.charCodeAt(i), littleEndian);
  }
  return bytes;
}
