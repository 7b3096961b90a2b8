import assert from "node:assert/strict";
import { sniffImage } from "./_image_format.ts";

async function encode(
  mime: string,
  width: number,
  height: number,
): Promise<Uint8Array> {
  const { createJimp } = await import("@jimp/core");
  const formats = await Promise.all([
    import("@jimp/js-png"),
    import("@jimp/js-jpeg"),
    import("@jimp/js-gif"),
    import("@jimp/wasm-webp"),
  ]);
  const Jimp = createJimp({ formats: formats.map((f) => f.default) });
  const image = new Jimp({ width, height, color: 0x336699ff });
  // deno-lint-ignore no-explicit-any
  const data = await image.getBuffer(mime as any);
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

Deno.test("sniffImage() reads the format and size of PNG, JPEG, GIF and WebP from their bytes", async () => {
  for (
    const [mime, format] of [
      ["image/png", "PNG"],
      ["image/jpeg", "JPEG"],
      ["image/gif", "GIF"],
      ["image/webp", "WebP"],
    ] as const
  ) {
    const bytes = await encode(mime, 321, 123);
    assert.deepEqual(sniffImage(bytes), {
      mediaType: mime,
      format,
      width: 321,
      height: 123,
    }, mime);
  }
});

Deno.test("sniffImage() finds a JPEG's size past a large metadata segment", () => {
  const app1 = new Uint8Array(4 + 40_000);
  app1.set([0xff, 0xe1, 0x9c, 0x42]); // APP1 of 0x9c42 = 40002 bytes (length counts itself)
  const sof = [0xff, 0xc2, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80]; // progressive, 640x480
  const bytes = new Uint8Array([0xff, 0xd8, ...app1, ...sof, 0, 0, 0, 0]);
  assert.deepEqual(sniffImage(bytes), {
    mediaType: "image/jpeg",
    format: "JPEG",
    width: 640,
    height: 480,
  });
});

Deno.test("sniffImage() answers undefined for text, empty and look-alike files", () => {
  const encoder = new TextEncoder();
  assert.equal(sniffImage(encoder.encode("just some text")), undefined);
  assert.equal(sniffImage(new Uint8Array()), undefined);
  assert.equal(sniffImage(encoder.encode("RIFF\0\0\0\0WAVEfmt ")), undefined); // a WAV file
  assert.equal(sniffImage(encoder.encode("GIF90a")), undefined);
});
