// Shrinks an image that is too large to send, with jimp (pure JS codecs, WASM
// for WebP). Loaded lazily: most images go out as they are, and jimp costs
// startup time. Opaque images become JPEG, images with transparency PNG.
import { importPackage } from "../internal/lazy_import.ts";
import { startThread } from "../internal/thread.ts";
import { requireWorkerFolders, workerUrl } from "../internal/worker_url.ts";

/** An image ready to send. */
export interface EncodedImage {
  data: Uint8Array;
  mediaType: "image/png" | "image/jpeg";
  width: number;
  height: number;
}

type JimpFactory = Awaited<ReturnType<typeof loadJimp>>;
let jimp: Promise<JimpFactory> | undefined;

// By computed specifiers, so that Deno fetches jimp only when an image first
// needs shrinking, not whenever the library or the CLI starts.
async function loadJimp() {
  const [{ createJimp }, png, jpeg, gif, webp, resize] = await Promise.all([
    importPackage<typeof import("@jimp/core")>("@jimp/core"),
    importPackage<typeof import("@jimp/js-png")>("@jimp/js-png"),
    importPackage<typeof import("@jimp/js-jpeg")>("@jimp/js-jpeg"),
    importPackage<typeof import("@jimp/js-gif")>("@jimp/js-gif"),
    importPackage<typeof import("@jimp/wasm-webp")>("@jimp/wasm-webp"),
    importPackage<typeof import("@jimp/plugin-resize")>("@jimp/plugin-resize"),
  ]);
  return createJimp({
    formats: [png.default, jpeg.default, gif.default, webp.default],
    plugins: [resize.methods],
  });
}

/**
 * Decodes `bytes` and re-encodes it with its longest side at most `maxSide`,
 * halving further until it fits in `maxBytes`.
 */
export async function downscaleImage(
  bytes: Uint8Array,
  limits: { maxSide: number; maxBytes: number },
): Promise<EncodedImage> {
  jimp ??= loadJimp();
  const Jimp = await jimp;
  const image = await Jimp.fromBuffer(
    bytes.buffer.slice(
      bytes.byteOffset,
      bytes.byteOffset + bytes.byteLength,
    ) as ArrayBuffer,
  );
  const transparent = hasTransparency(image.bitmap.data);
  let side = Math.min(limits.maxSide, Math.max(image.width, image.height, 1));
  for (let round = 0;; round++) {
    if (Math.max(image.width, image.height) > side) {
      image.scaleToFit({ w: side, h: side });
    }
    const data = transparent
      ? await image.getBuffer("image/png")
      : await image.getBuffer("image/jpeg", { quality: 85 });
    if (data.length <= limits.maxBytes || round >= 5) {
      return {
        data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
        mediaType: transparent ? "image/png" : "image/jpeg",
        width: image.width,
        height: image.height,
      };
    }
    side = Math.max(1, Math.floor(Math.max(image.width, image.height) / 2));
  }
}

function hasTransparency(rgba: ArrayLike<number>): boolean {
  for (let i = 3; i < rgba.length; i += 4) if (rgba[i] !== 255) return true;
  return false;
}

const WORKER_URL = workerUrl(
  new URL("./_downscale_worker.ts", import.meta.url),
);
/**
 * The folders of the worker's own modules, and deno.json, which holds the
 * pinned jimp versions it imports (a test keeps them in step).
 */
export const DOWNSCALE_WORKER_FOLDERS: readonly URL[] = [
  new URL("./", import.meta.url),
  new URL("../internal/", import.meta.url),
  new URL("../deno.json", import.meta.url),
];

/**
 * {@linkcode downscaleImage} in a worker of its own, so that a long decode
 * blocks nothing else and `signal` stops it at once.
 */
export async function downscaleInWorker(
  bytes: Uint8Array,
  limits: { maxSide: number; maxBytes: number },
  signal?: AbortSignal,
): Promise<EncodedImage> {
  signal?.throwIfAborted();
  // A ToolError naming the grant, rather than a worker failing to start.
  await requireWorkerFolders(DOWNSCALE_WORKER_FOLDERS);
  const answer = Promise.withResolvers<EncodedImage>();
  // A node thread: it gets an empty environment, where jimp's `debug`
  // dependency reads every variable (a web Worker would need --allow-env).
  const worker = startThread(WORKER_URL, {
    message(data) {
      const reply = data as { image?: EncodedImage; error?: string };
      if (reply.image) answer.resolve(reply.image);
      else answer.reject(new Error(reply.error));
    },
    error: answer.reject,
  }, "node");
  const onAbort = () => answer.reject(signal!.reason);
  signal?.addEventListener("abort", onAbort, { once: true });
  try {
    worker.ref();
    worker.post({ bytes, limits }, []);
    return await answer.promise;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    await worker.stop();
  }
}
