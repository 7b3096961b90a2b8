// ImageAnalysis: reads an image through the read permission and the file
// backend, checks by its bytes that it is PNG, JPEG, GIF or WebP, sends it as it
// is when within the limits (downscaled otherwise) to a vision model, and
// returns the model's answer.
import { z } from "zod";
import type { ToolContext } from "../tools/context.ts";
import { defineTool } from "../tools/define.ts";
import { displayPath } from "../internal/display_path.ts";
import { fileSystemError, statFile } from "../tools/file_errors.ts";
import { ToolError } from "../internal/tool_error.ts";
import type { ExecuteOptions, FileBackend, Tool } from "../tools/types.ts";
import { downscaleInWorker } from "./_downscale.ts";
import { type ImageInfo, sniffImage } from "./_image_format.ts";
import DESCRIPTION from "./image_analysis.txt" with { type: "text" };

/**
 * Input of ImageAnalysis.
 *
 * Executing ImageAnalysis requires `--allow-read` for the image and `--allow-net` for the endpoint.
 *
 * @example Ask about a screenshot
 * ```ts
 * import type { ImageAnalysisInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const input: ImageAnalysisInput = {
 *   path: "docs/screenshot.png",
 *   prompt: "Which error message does the dialog show?",
 * };
 * assert.equal(input.path.endsWith(".png"), true);
 * ```
 */
export interface ImageAnalysisInput {
  /** The image file, relative to the workspace or absolute. */
  path: string;
  /** What to ask about the image; defaults to a general description. */
  prompt?: string;
}

/**
 * Result of ImageAnalysis.
 *
 * A type only: needs no permission.
 *
 * @example Say whether the image was shrunk before sending
 * ```ts
 * import type { ImageAnalysisResult } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function note(result: ImageAnalysisResult): string {
 *   const { width, height } = result.sent;
 *   return result.resized
 *     ? `${result.width}x${result.height} sent as ${width}x${height}`
 *     : `sent as is (${width}x${height})`;
 * }
 * const result = {
 *   resized: true,
 *   width: 4000,
 *   height: 3000,
 *   sent: { width: 2000, height: 1500 },
 * } as ImageAnalysisResult;
 * assert.equal(note(result), "4000x3000 sent as 2000x1500");
 * ```
 */
export interface ImageAnalysisResult {
  /** The path as given. */
  path: string;
  /** The detected type of the file, e.g. `"image/png"`. */
  mediaType: string;
  /** The image's width in pixels, from its header (0 when unknown). */
  width: number;
  /** The image's height in pixels, from its header (0 when unknown). */
  height: number;
  /** Whether it was downscaled before sending. */
  resized: boolean;
  /** What was sent: its type, size and byte count. */
  sent: { mediaType: string; width: number; height: number; bytes: number };
  /** The vision model's answer. */
  answer: string;
}

/** Asks the vision model about one image. */
export type AskVision = (question: {
  data: Uint8Array;
  mediaType: string;
  prompt: string;
  signal?: AbortSignal;
}) => Promise<string>;

/** Files larger than this are refused outright. */
export const MAX_IMAGE_FILE_BYTES = 20 * 1024 * 1024;
/** Images up to this many bytes and pixels per side are sent as they are. */
export const SEND_LIMITS: { maxBytes: number; maxSide: number } = {
  maxBytes: 4 * 1024 * 1024,
  maxSide: 2048,
};
/** Decoding more pixels than this to downscale would take too much memory. */
const MAX_DECODE_PIXELS = 100_000_000;
const DEFAULT_PROMPT =
  "Describe this image in detail: its content, any text in it (verbatim), and anything notable.";

const schema = z.object({
  path: z.string().min(1, "give the image's path"),
  prompt: z.string().optional(),
});

/** Creates the ImageAnalysis tool over a tools context and a vision model. */
export function createImageAnalysis(
  context: ToolContext,
  ask: AskVision,
): Tool<ImageAnalysisInput, ImageAnalysisResult> {
  return defineTool({
    name: "ImageAnalysis",
    kind: "read",
    description: DESCRIPTION,
    schema,
    run: (input, options) => analyze({ context, ask }, input, options),
    toModelText: renderResult,
  });
}

async function analyze(
  { context, ask }: { context: ToolContext; ask: AskVision },
  input: ImageAnalysisInput,
  options: ExecuteOptions,
): Promise<ImageAnalysisResult> {
  const path = context.resolve(input.path, "ImageAnalysis");
  const target = {
    verb: "analyze",
    path,
    display: displayPath(context.workspace, path),
    workspace: context.workspace,
  };
  await context.authorize({
    tool: "ImageAnalysis",
    action: "read",
    path,
    description: `Read image "${target.display}"`,
  }, { signal: options.signal });
  const stat = await statFile(context.files, target);
  if (stat.size > MAX_IMAGE_FILE_BYTES) {
    throw new ToolError(
      `Cannot analyze "${target.display}": the file is ${
        megabytes(stat.size)
      }, over the ${
        megabytes(MAX_IMAGE_FILE_BYTES)
      } limit; make a smaller copy (e.g. with ImageMagick through Shell) and analyze that`,
    );
  }
  const bytes = await readAll(context.files, { ...target, size: stat.size });
  const info = sniffImage(bytes);
  if (!info) {
    throw new ToolError(
      `Cannot analyze "${target.display}": it is not a PNG, JPEG, GIF or WebP image (${
        describeStart(bytes)
      }); use ReadFile for text files`,
    );
  }
  const sent = await prepare(bytes, {
    ...info,
    display: target.display,
    signal: options.signal,
  });
  options.signal?.throwIfAborted();
  const answer = await ask({
    data: sent.data,
    mediaType: sent.mediaType,
    prompt: input.prompt?.trim() || DEFAULT_PROMPT,
    signal: options.signal,
  });
  return {
    path: input.path,
    mediaType: info.mediaType,
    width: info.width,
    height: info.height,
    resized: sent.data !== bytes,
    sent: {
      mediaType: sent.mediaType,
      width: sent.width,
      height: sent.height,
      bytes: sent.data.length,
    },
    answer,
  };
}

/** Sends small images untouched; shrinks the rest. */
async function prepare(
  bytes: Uint8Array,
  info: ImageInfo & { display: string; signal?: AbortSignal },
) {
  const { display, signal } = info;
  const withinLimits = bytes.length <= SEND_LIMITS.maxBytes &&
    Math.max(info.width, info.height) <= SEND_LIMITS.maxSide;
  if (withinLimits) {
    return {
      mediaType: info.mediaType,
      width: info.width,
      height: info.height,
      data: bytes,
    };
  }
  if (info.width * info.height > MAX_DECODE_PIXELS) {
    throw new ToolError(
      `Cannot analyze "${display}": ${info.width}x${info.height} pixels is too large to downscale here; make a smaller copy (e.g. with ImageMagick through Shell) and analyze that`,
    );
  }
  try {
    return await downscaleInWorker(bytes, SEND_LIMITS, signal);
  } catch (error) {
    if (signal?.aborted) throw error;
    // A denied grant: the image is not to blame.
    if (error instanceof ToolError) {
      throw new ToolError(`Cannot analyze "${display}": ${error.message}`);
    }
    throw new ToolError(
      `Cannot analyze "${display}": the ${info.format} image could not be decoded to downscale it (${
        error instanceof Error ? error.message : String(error)
      }); the file may be damaged`,
    );
  }
}

/** Reads a whole file through the backend, in positioned reads. */
async function readAll(
  files: FileBackend,
  target: Parameters<typeof fileSystemError>[0] & { size: number },
): Promise<Uint8Array> {
  const { size } = target;
  try {
    const file = await files.open(target.path);
    try {
      const buffer = new Uint8Array(size);
      let filled = 0;
      while (filled < size) {
        const read = await file.read(buffer.subarray(filled), filled);
        if (read === 0) break;
        filled += read;
      }
      return buffer.subarray(0, filled);
    } finally {
      file.close();
    }
  } catch (error) {
    throw fileSystemError(target, error);
  }
}

function renderResult(result: ImageAnalysisResult): string {
  const original = `${result.mediaType} ${result.width}x${result.height}`;
  const how = result.resized
    ? `downscaled to ${result.sent.mediaType} ${result.sent.width}x${result.sent.height}`
    : "sent as is";
  return `Image "${result.path}" (${original}, ${how}):\n${result.answer}`;
}

function describeStart(bytes: Uint8Array): string {
  if (bytes.length === 0) return "the file is empty";
  const hex = [...bytes.subarray(0, 8)].map((b) =>
    b.toString(16).padStart(2, "0")
  ).join(" ");
  return `it starts with bytes ${hex}`;
}

function megabytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
