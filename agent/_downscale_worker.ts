// The worker that downscales one image, off the main thread: decoding a large
// image with jimp's pure-JS codecs takes seconds, which must neither hold up
// the process's other work nor outlast a cancelled run (the worker is
// terminated then).
import { threadPort } from "../internal/thread_port.ts";
import { downscaleImage } from "./_downscale.ts";

const port = await threadPort();
port.onMessage(async (data) => {
  const request = data as DownscaleRequest;
  try {
    const image = await downscaleImage(request.bytes, request.limits);
    port.post({ image }, [image.data.buffer as ArrayBuffer]);
  } catch (error) {
    port.post({
      error: error instanceof Error ? error.message : String(error),
    }, []);
  }
});

/** What the worker is asked. */
export interface DownscaleRequest {
  bytes: Uint8Array;
  limits: { maxSide: number; maxBytes: number };
}
