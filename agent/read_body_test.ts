import assert from "node:assert/strict";
import { readBodyStart } from "./read_body.ts";

Deno.test("readBodyStart() reads a short body whole", async () => {
  const start = await readBodyStart(new Response("héllo"), 1024);
  assert.deepEqual(start, { text: "héllo", cut: false });
});

Deno.test("readBodyStart() stops a body that never ends and cancels it", async () => {
  let cancelled = false;
  const chunk = new TextEncoder().encode("x".repeat(1000));
  const body = new ReadableStream<Uint8Array>({
    pull: (controller) => controller.enqueue(chunk),
    cancel: () => void (cancelled = true),
  });
  const start = await readBodyStart(new Response(body), 2_500);
  assert.equal(start.text.length, 2_500);
  assert.equal(start.cut, true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.ok(cancelled);
});
