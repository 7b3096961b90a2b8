// Tool outputs too big for the model's context, through createAgent against
// the scripted OpenAI-compatible server (real HTTP, the real AI SDK client).
import assert from "node:assert/strict";
import { type AgentMessage, createAgent } from "../mod.ts";
import { startScriptedServer } from "./support/scripted_server.ts";
import { withWorkspace } from "./support/workspace.ts";

Deno.test("agent recovers a saved conversation whose unanswered output is many times contextTokens", async () => {
  await withWorkspace(async (dir) => {
    const rows: string[] = [];
    for (let i = 1; i <= 60_000; i++) rows.push(`${i}\trow ${i} of the log`);
    const history = [
      { role: "user", content: "Read the log" },
      {
        role: "assistant",
        content: [{
          type: "tool-call",
          toolCallId: "c1",
          toolName: "ReadFile",
          input: { path: "big.log", force: true },
        }],
      },
      {
        role: "tool",
        content: [{
          type: "tool-result",
          toolCallId: "c1",
          toolName: "ReadFile",
          output: { type: "text", value: rows.join("\n") },
        }],
      },
    ] as unknown as AgentMessage[];
    await using server = startScriptedServer([{
      match: "Read the log",
      // Replies go by the assistant messages a request holds: one already.
      replies: [{ text: "unused" }, { text: "went on" }, { text: "again" }],
    }]);
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      contextTokens: 20_000,
      history,
    });
    assert.equal((await agent.run("Go on")).text, "went on");
    assert.equal((await agent.run("Go on again")).text, "again");
    for (const request of server.requests) {
      const body = JSON.stringify(request.body);
      assert.ok(body.length < 120_000, `a request of ${body.length} bytes`);
      assert.match(body, /Lines \d+-\d+ of \\"big.log\\" are left out/);
    }
    assert.ok(JSON.stringify(agent.history).length < 120_000);
  });
});

Deno.test("agent cuts a tool call whose arguments never end, keeping no empty message", async () => {
  let stop = false;
  const encoder = new TextEncoder();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      await request.text();
      let first = true;
      const call = (args: string) => ({
        tool_calls: [{
          index: 0,
          id: "c1",
          type: "function",
          function: first ? { name: "WriteFile", arguments: args } : {
            arguments: args,
          },
        }],
      });
      return new Response(
        new ReadableStream({
          async pull(controller) {
            await new Promise((resolve) => setTimeout(resolve, 1));
            if (stop) return controller.close();
            const delta = first
              ? { role: "assistant", ...call('{"path":"a.txt","content":"') }
              : call("all work and no play. ".repeat(40));
            first = false;
            const chunk = {
              id: "x",
              object: "chat.completion.chunk",
              created: 0,
              model: "m",
              choices: [{ index: 0, delta }],
            };
            controller.enqueue(
              encoder.encode(`data: ${JSON.stringify(chunk)}\n\n`),
            );
          },
        }),
        { headers: { "content-type": "text/event-stream" } },
      );
    },
  );
  try {
    await withWorkspace(async (dir) => {
      const { port } = server.addr as Deno.NetAddr;
      const agent = createAgent({
        baseURL: `http://127.0.0.1:${port}/v1`,
        model: "m",
        cwd: dir,
        contextTokens: 2_000,
      });
      const result = await agent.run("hi", {
        signal: AbortSignal.timeout(10_000),
      });
      assert.equal(result.finishReason, "length");
      assert.deepEqual(result.toolCalls, []);
      assert.deepEqual(agent.history, []);
    });
  } finally {
    stop = true;
    await server.shutdown();
  }
});
