// withFinishReason() and the agent on streams that reach [DONE] without ever
// setting finish_reason (minimal gateways and proxies): the answer is kept,
// while a stream cut before [DONE] still fails.
import assert from "node:assert/strict";
import { createAgent } from "../mod.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import { withFinishReason } from "./_sse_finish.ts";

/** SSE events of chat completion chunks whose choices never set finish_reason. */
function frames(deltas: Record<string, unknown>[], done = true): string {
  const events = deltas.map((delta) =>
    `data: ${
      JSON.stringify({
        id: "c",
        object: "chat.completion.chunk",
        model: "m",
        choices: [{ index: 0, delta, finish_reason: null }],
      })
    }\n\n`
  );
  if (done) events.push("data: [DONE]\n\n");
  return events.join("");
}

const TOOL_CALL = {
  tool_calls: [{
    index: 0,
    id: "call_1",
    type: "function",
    function: { name: "lookup", arguments: '{"topic":"x"}' },
  }],
};

/** The finish reasons of the chunks `body` reads as after withFinishReason(). */
async function finishReasons(
  body: string,
  pieceLength = 7,
): Promise<unknown[]> {
  const pieces: string[] = [];
  for (let at = 0; at < body.length; at += pieceLength) {
    pieces.push(body.slice(at, at + pieceLength));
  }
  const stream = ReadableStream.from(pieces).pipeThrough(
    new TextEncoderStream(),
  );
  const text = await withFinishReason(new Response(stream)).text();
  assert.ok(text.endsWith("data: [DONE]\n\n") || !body.includes("[DONE]"));
  return text.split("\n").filter((line) => line.startsWith("data: {"))
    .map((line) => JSON.parse(line.slice(6)).choices[0].finish_reason);
}

Deno.test("withFinishReason() adds stop, or tool_calls after a tool call, before [DONE]", async () => {
  assert.deepEqual(
    await finishReasons(frames([{ content: "All " }, { content: "there." }])),
    [null, null, "stop"],
  );
  assert.deepEqual(
    await finishReasons(frames([{ content: "" }, TOOL_CALL])),
    [null, null, "tool_calls"],
  );
});

Deno.test("withFinishReason() leaves a stream alone that set a finish reason or never reached [DONE]", async () => {
  const set = frames([{ content: "a" }]).replace(
    '"finish_reason":null',
    '"finish_reason":"length"',
  );
  assert.deepEqual(await finishReasons(set), ["length"]);
  const cut = frames([{ content: "a" }], false);
  assert.deepEqual(await finishReasons(cut), [null]);
  const text = await withFinishReason(new Response(cut)).text();
  assert.equal(text, cut);
});

/** Runs one prompt against an endpoint that answers each request with the next body. */
async function runAgainst(bodies: string[]): Promise<{
  text: string;
  finishReason: string;
  calls: unknown[];
}> {
  let out: Awaited<ReturnType<typeof runAgainst>> | undefined;
  await withWorkspace(async (dir) => {
    let request = 0;
    await using server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      async (req) => {
        await req.body?.cancel();
        return new Response(bodies[request++] ?? frames([{ content: "?" }]), {
          headers: { "content-type": "text/event-stream" },
        });
      },
    );
    const calls: unknown[] = [];
    const agent = createAgent({
      baseURL: `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/v1`,
      model: "m",
      cwd: dir,
      maxRetries: 0,
      extraTools: [{
        name: "lookup",
        kind: "search",
        description: "Looks a topic up.",
        inputSchema: {
          type: "object",
          properties: { topic: { type: "string" } },
          required: ["topic"],
        },
        execute(input: unknown): Promise<unknown> {
          calls.push(input);
          return Promise.resolve({ text: "found" });
        },
        toModelText: (output: unknown) => (output as { text: string }).text,
      }],
    });
    const result = await agent.run("go");
    out = { text: result.text, finishReason: result.finishReason, calls };
  });
  return out!;
}

Deno.test("agent accepts a complete answer whose stream never sets finish_reason", async () => {
  const run = await runAgainst([
    frames([{ role: "assistant", content: "All " }, { content: "there." }]),
  ]);
  assert.equal(run.text, "All there.");
  assert.equal(run.finishReason, "stop");
});

Deno.test("agent runs the tool calls of a stream that never sets finish_reason", async () => {
  const run = await runAgainst([
    frames([{ role: "assistant", content: "" }, TOOL_CALL]),
    frames([{ role: "assistant", content: "Done." }]),
  ]);
  assert.deepEqual(run.calls, [{ topic: "x" }]);
  assert.equal(run.text, "Done.");
});

Deno.test("agent still fails a stream cut before [DONE] without a finish reason", async () => {
  await assert.rejects(
    runAgainst([frames([{ role: "assistant", content: "Half" }], false)]),
    /without a finish reason/,
  );
});
