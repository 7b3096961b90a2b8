// A PNG image wider than ImageAnalysis sends as it is, for downscale tests.

/** A 2600x40 red PNG: wider than the 2048 px ImageAnalysis sends as is. */
export async function widePng(): Promise<Uint8Array> {
  const { createJimp } = await import("@jimp/core");
  const png = (await import("@jimp/js-png")).default;
  const Jimp = createJimp({ formats: [png] });
  const image = new Jimp({ width: 2600, height: 40, color: 0xff0000ff });
  const data = await image.getBuffer("image/png");
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}
