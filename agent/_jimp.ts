// jimp with the codecs and the plugin that _downscale.ts uses (pure JS codecs,
// WASM for WebP), in a module of its own so that _downscale.ts can import it
// lazily: most images go out as they are.
import { createJimp } from "@jimp/core";
import png from "@jimp/js-png";
import jpeg from "@jimp/js-jpeg";
import gif from "@jimp/js-gif";
import webp from "@jimp/wasm-webp";
import { methods as resize } from "@jimp/plugin-resize";

/** A jimp that reads PNG, JPEG, GIF and WebP and can resize. */
export function createImageJimp() {
  return createJimp({ formats: [png, jpeg, gif, webp], plugins: [resize] });
}
