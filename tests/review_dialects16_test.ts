// Review of createAgent() against the streaming dialects of real
// OpenAI-compatible servers (session 16): Ollama, vLLM, llama.cpp's server,
// LM Studio, OpenRouter, DeepSeek, Groq. Each test replays a raw SSE stream
// the way that server writes it and checks the text the user gets, the tool
// calls run with their arguments, and the history sent on the next turn.
import assert from "node:assert/strict";
import { createAgent } from "../mod.ts";
import type { AgentEvent } from "../mod.ts";
import { withWorkspace } from "./support/workspace.ts";

interface Delta {
  role?: string | null;
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: unknown[];
}

/** One Chat Completions chunk as a JSON object (not yet framed). */
function chunk(
  delta: Delta | null,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: "chatcmpl-dialect",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: delta === null ? [] : [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

/** Frames chunks as SSE events (`eol` "\r\n" for CRLF servers). */
function frames(
  items: (Record<string, unknown> | string)[],
  { done = true, eol = "\n" }: { done?: boolean; eol?: string } = {},
): string {
  const lines = items.map((item) =>
    typeof item === "string"
      ? `${item}${eol}${eol}` // an SSE comment or raw line, as is
      : `data: ${JSON.stringify(item)}${eol}${eol}`
  );
  if (done) lines.push(`data: [DONE]${eol}${eol}`);
  return lines.join("");
}

/** A plain closing answer with this text. */
function answer(text: string): string {
  return frames([
    chunk({ role: "assistant", content: "" }),
    chunk({ content: text }),
    chunk({}, "stop"),
  ]);
}

interface ChatBody {
  messages: {
    role: string;
    content?: unknown;
    reasoning_content?: string;
    tool_calls?: {
      id: string;
      function: { name: string; arguments: string };
    }[];
    tool_call_id?: string;
  }[];
}

interface RawServer extends AsyncDisposable {
  baseURL: string;
  bodies: ChatBody[];
}

/**
 * An endpoint on 127.0.0.1 whose n-th chat request gets the SSE `replies[n]`;
 * `pieceBytes` sends the body in pieces that long, one per tick, the way a
 * slow server's TCP segments split lines and UTF-8 characters.
 */
function rawServer(replies: string[], pieceBytes?: number): RawServer {
  const bodies: ChatBody[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      bodies.push(await request.json());
      const body = replies[bodies.length - 1] ?? answer("(no more replies)");
      return new Response(pieceBytes ? dribble(body, pieceBytes) : body, {
        headers: { "content-type": "text/event-stream" },
      });
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    bodies,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

function dribble(text: string, size: number): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/** A search tool that records its inputs; `ping` takes no argument. */
function recordingTools(): {
  calls: { name: string; input: unknown }[];
  tools: NonNullable<Parameters<typeof createAgent>[0]["extraTools"]>;
} {
  const calls: { name: string; input: unknown }[] = [];
  const make = (name: string, schema: Record<string, unknown>) => ({
    name,
    kind: "search" as const,
    description: `The ${name} tool.`,
    inputSchema: schema,
    execute(input: unknown): Promise<unknown> {
      calls.push({ name, input });
      return Promise.resolve({ text: `${name} said ${JSON.stringify(input)}` });
    },
    toModelText: (output: unknown) => (output as { text: string }).text,
  });
  return {
    calls,
    tools: [
      make("lookup", {
        type: "object",
        properties: { topic: { type: "string" } },
        required: ["topic"],
        additionalProperties: false,
      }),
      make("ping", { type: "object", properties: {} }),
    ],
  };
}

/** Runs one prompt against `replies`, collecting events and bodies. */
async function runDialect(replies: string[], pieceBytes?: number): Promise<{
  events: AgentEvent[];
  calls: { name: string; input: unknown }[];
  bodies: ChatBody[];
  text: string;
  usage: Record<string, unknown>;
  history: unknown[];
}> {
  let out: Awaited<ReturnType<typeof runDialect>> | undefined;
  await withWorkspace(async (dir) => {
    await using server = rawServer(replies, pieceBytes);
    const { calls, tools } = recordingTools();
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      extraTools: tools,
      maxRetries: 0,
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream("go")) events.push(event);
    const finish = events.at(-1);
    assert.ok(finish?.type === "finish", `last event: ${finish?.type}`);
    out = {
      events,
      calls,
      bodies: server.bodies,
      text: finish.result.text,
      usage: finish.result.usage as Record<string, unknown>,
      history: [...agent.history],
    };
  });
  return out!;
}

/** The tool errors of a run: a well-formed call should cause none. */
function errorsOf(events: AgentEvent[]): string[] {
  return events.flatMap((e) => e.type === "tool-error" ? [e.error] : []);
}

/** The assistant tool calls and tool results the second request sent back. */
function sentBack(body: ChatBody): {
  calls: { id: string; name: string; args: unknown }[];
  results: { id: string; text: string }[];
} {
  const calls = body.messages.flatMap((m) =>
    (m.tool_calls ?? []).map((c) => ({
      id: c.id,
      name: c.function.name,
      args: JSON.parse(c.function.arguments),
    }))
  );
  const results = body.messages.filter((m) => m.role === "tool").map((m) => ({
    id: m.tool_call_id!,
    text: typeof m.content === "string" ? m.content : JSON.stringify(m.content),
  }));
  return { calls, results };
}

function assertPairedUp(body: ChatBody, count: number): void {
  const { calls, results } = sentBack(body);
  assert.equal(calls.length, count, JSON.stringify(body.messages));
  assert.equal(results.length, count);
  assert.deepEqual(
    results.map((r) => r.id).sort(),
    calls.map((c) => c.id).sort(),
  );
  assert.equal(new Set(calls.map((c) => c.id)).size, count, "ids are unique");
}

// Ollama's /v1 writes each tool call whole in one chunk, with its id, and the
// finish reason on a later chunk; older versions say "stop" for tool calls.
Deno.test("agent runs Ollama's whole-chunk tool calls even when finish_reason is stop", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      content: "",
      tool_calls: [{
        id: "call_abc123",
        index: 0,
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"streams"}' },
      }],
    }),
    chunk({ role: "assistant", content: "" }, "stop"),
    chunk({ role: "assistant", content: "" }, null, {
      usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
    }),
  ]);
  const run = await runDialect([toolTurn, answer("streams explained")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls, [{
    name: "lookup",
    input: { topic: "streams" },
  }]);
  assert.equal(run.text, "streams explained");
  assert.equal(run.bodies.length, 2);
  assertPairedUp(run.bodies[1], 1);
  assert.equal(sentBack(run.bodies[1]).calls[0].id, "call_abc123");
  assert.equal(run.usage.inputTokens, 10);
  assert.equal(run.usage.outputTokens, 5);
});

// vLLM and OpenAI-style servers interleave two parallel calls' argument
// fragments by index; Groq sends each whole with the id repeated.
Deno.test("agent runs two interleaved parallel tool calls with the right arguments (vLLM)", async () => {
  const call = (index: number, fn: Record<string, string>, id?: string) => ({
    index,
    ...(id ? { id, type: "function" } : {}),
    function: fn,
  });
  const toolTurn = frames([
    chunk({ role: "assistant", content: null }),
    chunk({
      content: null,
      tool_calls: [
        call(0, { name: "lookup", arguments: "" }, "chatcmpl-tool-a"),
      ],
    }),
    chunk({
      tool_calls: [
        call(1, { name: "lookup", arguments: "" }, "chatcmpl-tool-b"),
      ],
    }),
    chunk({ tool_calls: [call(0, { arguments: '{"topic":' })] }),
    chunk({ tool_calls: [call(1, { arguments: '{"topic":"b' })] }),
    chunk({ tool_calls: [call(0, { arguments: '"a"}' })] }),
    chunk({ tool_calls: [call(1, { arguments: 'eta"}' })] }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answer("both done")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(
    run.calls.map((c) => c.input).sort((a, b) =>
      JSON.stringify(a) < JSON.stringify(b) ? -1 : 1
    ),
    [{ topic: "a" }, { topic: "beta" }],
  );
  assertPairedUp(run.bodies[1], 2);
  const back = sentBack(run.bodies[1]);
  const byId = Object.fromEntries(back.calls.map((c) => [c.id, c.args]));
  assert.deepEqual(byId["chatcmpl-tool-a"], { topic: "a" });
  assert.deepEqual(byId["chatcmpl-tool-b"], { topic: "beta" });
  for (const result of back.results) {
    const topic = (byId[result.id] as { topic: string }).topic;
    assert.match(result.text, new RegExp(`"topic":"${topic}"`));
  }
  assert.equal(run.text, "both done");
});

// Some servers (LM Studio, Gemini's OpenAI layer, proxies) send parallel calls
// without `index`, each whole with its own id.
Deno.test("agent runs parallel tool calls sent without index", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        id: "call_1",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"one"}' },
      }],
    }),
    chunk({
      tool_calls: [{
        id: "call_2",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"two"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answer("ok")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls.map((c) => c.input), [
    { topic: "one" },
    { topic: "two" },
  ]);
  assertPairedUp(run.bodies[1], 2);
});

// Some servers number tool calls after the content parts (index 1, 2).
Deno.test("agent runs tool calls whose index does not start at 0", async () => {
  const toolTurn = frames([
    chunk({ role: "assistant", content: "Let me check." }),
    chunk({
      tool_calls: [{
        index: 1,
        id: "t1",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":' },
      }],
    }),
    chunk({ tool_calls: [{ index: 1, function: { arguments: '"x"}' } }] }),
    chunk({
      tool_calls: [{
        index: 2,
        id: "t2",
        type: "function",
        function: { name: "ping", arguments: "{}" },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answer("checked")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls, [
    { name: "lookup", input: { topic: "x" } },
    { name: "ping", input: {} },
  ]);
  assertPairedUp(run.bodies[1], 2);
  // result.text is the last model call's text (documented); the first
  // call's text still reaches the user as text-delta events.
  const streamed = run.events.flatMap((e) =>
    e.type === "text-delta" ? [e.text] : []
  ).join("");
  assert.equal(streamed, "Let me check.checked");
  assert.equal(run.text, "checked");
});

// vLLM and llama.cpp send `""` as the arguments of a tool without parameters.
Deno.test("agent runs a no-argument tool whose arguments are empty", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        index: 0,
        id: "p1",
        type: "function",
        function: { name: "ping", arguments: "" },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answer("pong")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls, [{ name: "ping", input: {} }]);
  assertPairedUp(run.bodies[1], 1);
  // The history the next request carries is valid JSON for the server.
  assert.deepEqual(sentBack(run.bodies[1]).calls[0].args, {});
});

// Servers that omit tool call ids (older LM Studio / MLX) or send "" for them.
Deno.test("agent pairs tool calls and results when the server sends no ids", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        index: 0,
        id: "",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"p"}' },
      }],
    }),
    chunk({
      tool_calls: [{
        index: 1,
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"q"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const run = await runDialect([toolTurn, answer("ok")]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.equal(run.calls.length, 2);
  assertPairedUp(run.bodies[1], 2);
});

// OpenRouter: SSE comments while it waits, CRLF from some proxies, a
// keep-alive chunk with no choices, usage only in a final `choices: []` chunk.
Deno.test("agent reads OpenRouter's comments, CRLF, empty-choices chunks and usage-only last chunk", async () => {
  const stream = frames([
    ": OPENROUTER PROCESSING",
    ": OPENROUTER PROCESSING",
    chunk(null),
    chunk({ role: "assistant", content: "Hel" }),
    chunk({ content: null }),
    chunk({ content: "lo" }),
    chunk({ content: "" }, "stop"),
    chunk(null, null, {
      usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
    }),
  ], { eol: "\r\n" });
  const run = await runDialect([stream]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.equal(run.text, "Hello");
  assert.equal(run.usage.inputTokens, 12);
  assert.equal(run.usage.outputTokens, 3);
});

// llama.cpp's server and some proxies end the stream without `data: [DONE]`.
Deno.test("agent accepts a stream that ends without [DONE], and one without usage", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        index: 0,
        id: "c",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"z"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ], { done: false });
  const closing = frames([
    chunk({ role: "assistant", content: "fin" }),
    chunk({}, "stop"),
  ], { done: false });
  const run = await runDialect([toolTurn, closing]);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls.map((c) => c.input), [{ topic: "z" }]);
  assert.equal(run.text, "fin");
  assertPairedUp(run.bodies[1], 1);
});

// DeepSeek (reasoning_content) and OpenRouter / vLLM >= 0.10 (reasoning):
// the thinking is reasoning, the answer is text, and tool calls after thinking run.
Deno.test("agent separates reasoning_content and reasoning fields from the answer (DeepSeek, OpenRouter)", async () => {
  const toolTurn = frames([
    chunk({ role: "assistant", content: null, reasoning_content: "Need " }),
    chunk({ content: null, reasoning_content: "a lookup." }),
    chunk({
      content: null,
      tool_calls: [{
        index: 0,
        id: "r1",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"r"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ]);
  const closing = frames([
    chunk({ role: "assistant", content: "", reasoning: "Got it." }),
    chunk({ content: "Answer.", reasoning: null }),
    chunk({}, "stop"),
  ]);
  const run = await runDialect([toolTurn, closing]);
  assert.deepEqual(errorsOf(run.events), []);
  const reasoning = run.events.flatMap((e) =>
    e.type === "reasoning-delta" ? [e.text] : []
  ).join("");
  assert.equal(reasoning, "Need a lookup.Got it.");
  // DeepSeek's thinking mode with tools wants the reasoning of a tool-call
  // turn sent back with it; the provider sends it as reasoning_content.
  const assistant = run.bodies[1].messages.find((m) => m.tool_calls);
  assert.equal(assistant?.reasoning_content, "Need a lookup.");
  assert.equal(run.text, "Answer.");
  assert.deepEqual(run.calls.map((c) => c.input), [{ topic: "r" }]);
  assertPairedUp(run.bodies[1], 1);
});

// Fixed fault: Qwen3 / DeepSeek-R1 distills served by llama.cpp without
// --reasoning-format (or LM Studio with "separate reasoning_content" off, or
// Ollama < 0.9) put the thinking inside content as `<think>...</think>`; the
// agent hands it to the user as the answer text. Expected: the think block
// comes out as reasoning-delta events and the result text is only the answer.
Deno.test({
  name:
    "agent turns <think>...</think> inside content into reasoning (Qwen via llama.cpp)",
  fn: async () => {
    const stream = frames([
      chunk({ role: "assistant", content: "<think>" }),
      chunk({ content: "\nThe user greets me.\n" }),
      chunk({ content: "</think>\n\n" }),
      chunk({ content: "Hello!" }),
      chunk({}, "stop"),
    ]);
    const run = await runDialect([stream]);
    assert.deepEqual(errorsOf(run.events), []);
    const reasoning = run.events.flatMap((e) =>
      e.type === "reasoning-delta" ? [e.text] : []
    ).join("");
    assert.match(reasoning, /The user greets me/);
    assert.equal(run.text.trim(), "Hello!");
  },
});

// Left open by decision: the AI SDK's OpenAI-compatible provider reports a
// stream that never set finish_reason as an error, no mainstream server sends
// one, and telling a complete stream from a cut one would mean rewriting the
// provider's stream parts. The fault as the review wrote it:
// FAULT: minimal OpenAI-compatible gateways and proxies that never set
// finish_reason but end properly with `data: [DONE]` make the run throw
// EndpointError "gave an unusable answer: Response stream ended without a
// finish reason" although the whole answer arrived. Expected: a stream that
// reached [DONE] is complete, so it finishes as "stop" (or "tool-calls" when it
// sent tool calls) and the answer is kept; only a stream cut before [DONE]
// without a finish reason is an error.
Deno.test({
  name: "agent accepts a complete answer whose stream never sets finish_reason",
  ignore: true,
  fn: async () => {
    const stream = frames([
      chunk({ role: "assistant", content: "All " }),
      chunk({ content: "there." }),
    ]);
    const run = await runDialect([stream]);
    assert.equal(run.text, "All there.");
  },
});

// Servers that repeat the id (and some the name) in every fragment of a call:
// Ollama's streamed tool calls, Mistral's parser in vLLM, LM Studio.
Deno.test("agent joins argument fragments that repeat the call's id and name", async () => {
  const part = (args: string, name?: string) => ({
    index: 0,
    id: "call_same",
    type: "function",
    function: name ? { name, arguments: args } : { arguments: args },
  });
  const idOnly = frames([
    chunk({ role: "assistant", tool_calls: [part('{"to', "lookup")] }),
    chunk({ tool_calls: [part('pic":"id')] }),
    chunk({ tool_calls: [part('s"}')] }),
    chunk({}, "tool_calls"),
  ]);
  const withName = frames([
    chunk({ role: "assistant", tool_calls: [part('{"topic":', "lookup")] }),
    chunk({ tool_calls: [part('"na', "lookup")] }),
    chunk({ tool_calls: [part('mes"}', "lookup")] }),
    chunk({}, "tool_calls"),
  ]);
  for (const [stream, topic] of [[idOnly, "ids"], [withName, "names"]]) {
    const run = await runDialect([stream, answer("ok")]);
    assert.deepEqual(errorsOf(run.events), [], topic);
    assert.deepEqual(run.calls, [{ name: "lookup", input: { topic } }]);
    assertPairedUp(run.bodies[1], 1);
  }
});

// Any server over a slow link: TCP pieces split SSE lines, CRLF pairs and
// multi-byte UTF-8 characters (CJK text, emoji) at arbitrary bytes.
Deno.test("agent keeps text and arguments whole when bytes arrive split mid-character", async () => {
  const toolTurn = frames([
    chunk({ role: "assistant", content: "查一下 🔍 " }),
    chunk({
      tool_calls: [{
        index: 0,
        id: "u1",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"流式 ✓"}' },
      }],
    }),
    chunk({}, "tool_calls"),
  ], { eol: "\r\n" });
  const run = await runDialect([toolTurn, answer("好的 👍")], 5);
  assert.deepEqual(errorsOf(run.events), []);
  assert.deepEqual(run.calls, [{ name: "lookup", input: { topic: "流式 ✓" } }]);
  const streamed = run.events.flatMap((e) =>
    e.type === "text-delta" ? [e.text] : []
  ).join("");
  assert.equal(streamed, "查一下 🔍 好的 👍");
  assert.deepEqual(sentBack(run.bodies[1]).calls[0].args, { topic: "流式 ✓" });
});

// Gateways written in Go or Java often emit `data:` with no space, and
// `event:` / `id:` / `retry:` fields around it.
Deno.test("agent reads SSE with data: without a space and extra event, id and retry fields", async () => {
  const body = [
    "retry: 3000",
    "",
    "event: message",
    "id: 1",
    `data:${JSON.stringify(chunk({ role: "assistant", content: "Hi" }))}`,
    "",
    "id: 2",
    `data:${JSON.stringify(chunk({ content: " there" }, "stop"))}`,
    "",
    "data:[DONE]",
    "",
    "",
  ].join("\n");
  const run = await runDialect([body]);
  assert.equal(run.text, "Hi there");
});

// Hugging Face TGI's OpenAI layer ends with finish_reason "eos_token"; old
// llama.cpp builds with "eos". Neither is a failure.
Deno.test("agent accepts finish_reason values outside OpenAI's list (TGI eos_token)", async () => {
  const run = await runDialect([
    frames([
      chunk({ role: "assistant", content: "Done here." }),
      chunk({}, "eos_token"),
    ]),
  ]);
  assert.equal(run.text, "Done here.");
});

// A local server's output cap (llama.cpp -n, Ollama num_predict) cuts a tool
// call's arguments: finish_reason "length" with half a JSON object.
Deno.test("agent does not run a tool call cut off at length, and tells the model", async () => {
  const toolTurn = frames([
    chunk({
      role: "assistant",
      tool_calls: [{
        index: 0,
        id: "cut",
        type: "function",
        function: { name: "lookup", arguments: '{"topic":"tr' },
      }],
    }),
    chunk({}, "length"),
  ]);
  const run = await runDialect([toolTurn, answer("retrying later")]);
  assert.deepEqual(run.calls, []);
  assert.equal(errorsOf(run.events).length, 1);
  const back = sentBack(run.bodies[1]); // arguments parse: the server accepts them
  assert.equal(back.calls.length, 1);
  assert.match(back.results[0].text, /lookup[\s\S]*JSON/);
  assert.equal(run.text, "retrying later");
});
