// The worker that downscales one image, off the main thread: decoding a large
// image with jimp's pure-JS codecs takes seconds, which must neither hold up
// the process's other work nor outlast a cancelled run (the worker is
// terminated then).
import { parentPort } from "node:worker_threads";
import { downscaleImage } from "./_downscale.ts";

parentPort!.once("message", async (request: DownscaleRequest) => {
  try {
    const image = await downscaleImage(request.bytes, request.limits);
    parentPort!.postMessage({ image }, [image.data.buffer as ArrayBuffer]);
  } catch (error) {
    parentPort!.postMessage({
      error: error instanceof Error ? error.message : String(error),
    });
  }
});

/** What the worker is asked. */
export interface DownscaleRequest {
  bytes: Uint8Array;
  limits: { maxSide: number; maxBytes: number };
}
