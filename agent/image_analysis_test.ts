import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../tools/create_tools.ts";
import { contextOf } from "../tools/context_of.ts";
import type { PermissionRequest } from "../tools/types.ts";
import {
  type AskVision,
  createImageAnalysis,
  MAX_IMAGE_FILE_BYTES,
} from "./image_analysis.ts";

// The smallest valid PNG: 1x1, one grey pixel.
const PNG_1X1 = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNoAAAAggCBd81ytgAAAABJRU5ErkJggg==",
  ),
  (c) => c.charCodeAt(0),
);

async function withDirs(
  fn: (workspace: string, outside: string) => Promise<void>,
): Promise<void> {
  const root = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "fello_image_test_" }),
  );
  try {
    await Deno.mkdir(join(root, "ws"));
    await Deno.mkdir(join(root, "outside"));
    await fn(join(root, "ws"), join(root, "outside"));
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

function setup(workspace: string, answer: boolean) {
  const requests: PermissionRequest[] = [];
  const questions: Parameters<AskVision>[0][] = [];
  const tools = createTools({
    cwd: workspace,
    permissionMode: "ask",
    approve: (request) => (requests.push(request), answer),
  });
  const tool = createImageAnalysis(contextOf(tools)!, (question) => {
    questions.push(question);
    return Promise.resolve("a grey dot");
  });
  return { tool, requests, questions };
}

Deno.test("ImageAnalysis sends a small image as it is, with the prompt", async () => {
  await withDirs(async (workspace) => {
    await Deno.writeFile(join(workspace, "dot.png"), PNG_1X1);
    const { tool, requests, questions } = setup(workspace, false);
    const result = await tool.execute({
      path: "dot.png",
      prompt: "What is it?",
    });
    assert.equal(
      requests.length,
      0,
      "reading inside the workspace needs no approval",
    );
    assert.equal(questions.length, 1);
    assert.deepEqual(questions[0].data, PNG_1X1);
    assert.equal(questions[0].mediaType, "image/png");
    assert.equal(questions[0].prompt, "What is it?");
    assert.equal(result.resized, false);
    assert.equal(
      tool.toModelText(result),
      'Image "dot.png" (image/png 1x1, sent as is):\na grey dot',
    );
  });
});

Deno.test("ImageAnalysis asks before reading outside the workspace and stops when refused", async () => {
  await withDirs(async (workspace, outside) => {
    const path = join(outside, "secret.png");
    await Deno.writeFile(path, PNG_1X1);
    const { tool, requests, questions } = setup(workspace, false);
    await assert.rejects(
      tool.execute({ path }),
      /Refused by the user: Read image/,
    );
    assert.deepEqual(
      requests.map((r) => [r.tool, r.action, r.path, r.outsideWorkspace]),
      [
        ["ImageAnalysis", "read", path, true],
      ],
    );
    assert.equal(questions.length, 0);
  });
});

Deno.test("ImageAnalysis refuses missing, oversized and non-image files with clear errors", async () => {
  await withDirs(async (workspace) => {
    const { tool, questions } = setup(workspace, true);
    await assert.rejects(
      tool.execute({ path: "nope.png" }),
      /Cannot analyze "nope\.png": no such file/,
    );
    const big = await Deno.open(join(workspace, "huge.png"), {
      write: true,
      create: true,
    });
    await big.truncate(MAX_IMAGE_FILE_BYTES + 1); // sparse: no disk space used
    big.close();
    await assert.rejects(
      tool.execute({ path: "huge.png" }),
      /Cannot analyze "huge\.png": the file is 20\.0 MB, over the 20\.0 MB limit/,
    );
    await Deno.writeTextFile(join(workspace, "notes.jpg"), "not a picture");
    await assert.rejects(
      tool.execute({ path: "notes.jpg" }),
      /Cannot analyze "notes\.jpg": it is not a PNG, JPEG, GIF or WebP image \(it starts with bytes 6e 6f 74/,
    );
    await assert.rejects(
      tool.execute({ path: "" }),
      /Invalid input for ImageAnalysis: "path"/,
    );
    assert.equal(questions.length, 0);
  });
});
