import { EndpointError } from "./endpoint_error.ts";
import assert from "node:assert/strict";
import { asksForStream, jsonToSse } from "./_json_to_sse.ts";

Deno.test("jsonToSse() replays a completion with text, tool calls and usage as SSE chunks", async () => {
  const completion = {
    id: "c1",
    created: 1,
    model: "m",
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: "Reading.",
        tool_calls: [
          {
            id: "t1",
            type: "function",
            function: { name: "ReadFile", arguments: '{"path":"a"}' },
          },
          {
            id: "t2",
            type: "function",
            function: { name: "Plan", arguments: { entries: [] } },
          },
        ],
      },
      finish_reason: "tool_calls",
    }],
    usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
  };
  const response = await jsonToSse(
    Response.json(completion),
    "http://x/v1/chat/completions",
  );
  assert.equal(response.headers.get("content-type"), "text/event-stream");
  const events = (await response.text()).trim().split("\n\n").map((e) =>
    e.replace(/^data: /, "")
  );
  assert.equal(events.at(-1), "[DONE]");
  const [first, second, usage] = events.slice(0, -1).map((e) => JSON.parse(e));
  assert.equal(first.object, "chat.completion.chunk");
  assert.equal(first.choices[0].delta.content, "Reading.");
  assert.deepEqual(
    first.choices[0].delta.tool_calls.map((
      c: { index: number; function: unknown },
    ) => [c.index, c.function]),
    [
      [0, { name: "ReadFile", arguments: '{"path":"a"}' }],
      [1, { name: "Plan", arguments: '{"entries":[]}' }],
    ],
  );
  assert.equal(second.choices[0].finish_reason, "tool_calls");
  assert.deepEqual(usage.usage, completion.usage);
});

Deno.test("asksForStream() reads the stream flag of a JSON request body", () => {
  const bodies: [string | undefined, boolean][] = [
    ['{"model":"m","stream":true,"messages":[]}', true],
    ['{"model":"m","stream": false}', false],
    ['{"model":"m"}', false],
    [undefined, false],
  ];
  for (const [body, streams] of bodies) {
    assert.equal(asksForStream(body), streams, body);
  }
});

Deno.test("jsonToSse() fails with the server's message for a JSON error sent with 200", async () => {
  const url = "http://x/v1/chat/completions";
  await assert.rejects(
    jsonToSse(Response.json({ error: { message: "still loading" } }), url),
    (error: unknown) =>
      error instanceof EndpointError &&
      error.message.includes(url) && error.message.includes("still loading"),
  );
});
