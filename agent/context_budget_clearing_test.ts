// ContextBudget clearing old tool outputs: its own cases, and through the
// agent over real HTTP (the scripted OpenAI-compatible server).
import assert from "node:assert/strict";
import { createAgent } from "./agent.ts";
import {
  CLEARED_OUTPUT,
  ContextBudget,
  type ContextMessage,
} from "./context_budget.ts";
import {
  callsTool,
  contentText,
  type RecordedRequest,
  startScriptedServer,
} from "../tests/support/scripted_server.ts";
import { assertAllValid, logTool } from "../tests/support/log_tool.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

/** Each call and each tool message of a request, in order, as short strings. */
function transcript(request: RecordedRequest): string[] {
  const out: string[] = [];
  for (const message of request.body.messages) {
    for (const call of message.tool_calls ?? []) {
      out.push(`call ${call.id} ${call.function.arguments}`);
    }
    if (message.role !== "tool") continue;
    const text = typeof message.content === "string"
      ? message.content
      : contentText(message.content);
    out.push(
      `result ${message.tool_call_id} ${
        text.startsWith("[Output cleared") ? "cleared" : text.slice(0, 2)
      }`,
    );
  }
  return out;
}

/** An assistant call with `input` and its result, `chars` x's long. */
function pair(id: string, input: unknown, chars: number): ContextMessage[] {
  return [
    {
      role: "assistant",
      content: [
        { type: "text", text: `calling ${id}` },
        { type: "tool-call", toolCallId: id, toolName: "T", input },
      ],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: id,
        toolName: "T",
        output: { type: "text", value: "x".repeat(chars) },
      }],
    },
  ];
}

Deno.test("agent keeps cleared calls' arguments valid JSON and every call paired, invalid calls included", async () => {
  await withWorkspace(async (dir) => {
    const note = "n".repeat(500);
    await using server = startScriptedServer([{
      match: "Go",
      replies: [
        {
          toolCalls: [
            // Invalid JSON: the SDK answers with an error result.
            { name: "fetch_log", arguments: `{"label": "b${"y".repeat(900)}` },
            {
              name: "fetch_log",
              arguments: { label: "v1", size: 30_000, note },
            },
          ],
        },
        {
          toolCalls: [
            { name: "no_such_tool", arguments: { big: "z".repeat(8000) } },
            { name: "fetch_log", arguments: { label: "v2", size: 30_000 } },
          ],
        },
        callsTool("fetch_log", { label: "v3", size: 30_000, note }),
        { text: "done" },
      ],
    }]);
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      extraTools: [logTool()],
      contextTokens: 20_000,
    });
    assert.equal((await agent.run("Go")).text, "done");
    assertAllValid(server.requests);
    for (const request of server.requests) {
      for (const message of request.body.messages) {
        for (const call of message.tool_calls ?? []) {
          const args = JSON.parse(call.function.arguments);
          assert.equal(typeof args, "object");
        }
      }
    }
    const last = transcript(server.requests.at(-1)!);
    // Five calls, five results, in order; the oldest four cleared, the long
    // strings of their inputs replaced by a mark; the newest sent whole.
    assert.equal(last.length, 10);
    assert.match(last[0], /^call \S+ \{\}$/);
    assert.match(
      last[1],
      /^call \S+ \{"label":"v1","size":30000,"note":"\[cleared: 500 characters\]"\}$/,
    );
    assert.match(
      last[4],
      /^call \S+ \{"big":"\[cleared: 8000 characters\]"\}$/,
    );
    assert.match(last[5], /^call \S+ \{"label":"v2","size":30000\}$/);
    for (const i of [2, 3, 6, 7]) assert.match(last[i], /^result \S+ cleared$/);
    assert.match(last[9], /^result \S+ v3$/);
    assert.ok(last.at(-2)!.includes(note), "the newest call's input is whole");
  });
});

Deno.test("ContextBudget leaves inputs that are not objects or arrays as they are, clears their outputs, and starts over on reset()", () => {
  const long = "s".repeat(1000);
  const messages: ContextMessage[] = [
    { role: "user", content: "go" },
    ...pair("str", long, 4000),
    ...pair("arr", [long, long], 4000),
    ...pair("nul", null, 4000),
    ...pair("num", 7, 4000),
    // Not answered yet: the next request's.
    ...pair("last", { path: long }, 4000),
  ];
  const before = JSON.stringify(messages);
  const budget = new ContextBudget(3000);
  const fitted = budget.fit(messages);
  assert.equal(JSON.stringify(messages), before, "the input is not modified");
  assert.equal(fitted.length, messages.length);
  const calls = fitted.flatMap((m) =>
    Array.isArray(m.content)
      ? m.content.filter((p) => p.type === "tool-call")
      : []
  );
  // Long strings inside arrays are cleared like those inside objects.
  const mark = "[cleared: 1000 characters]";
  assert.deepEqual(calls.slice(0, 4).map((c) => c.input), [
    long,
    [mark, mark],
    null,
    7,
  ]);
  const outputs = fitted.filter((m) => m.role === "tool").map((m) =>
    (m.content as { output: { value: string } }[])[0].output.value
  );
  assert.equal(budget.clearedCalls, 4);
  assert.deepEqual(outputs.slice(0, 4), Array(4).fill(CLEARED_OUTPUT));
  assert.equal(outputs[4], "x".repeat(4000));
  // The text beside a cleared call stays.
  assert.deepEqual((fitted[1].content as unknown[])[0], {
    type: "text",
    text: "calling str",
  });
  // Put back to no cleared calls, the same conversation clears exactly as a
  // new budget does.
  budget.restore(0);
  assert.equal(budget.clearedCalls, 0);
  assert.deepEqual(budget.fit(messages), new ContextBudget(3000).fit(messages));
});

Deno.test("ContextBudget never clears the newest outputs of a long conversation", () => {
  const messages: ContextMessage[] = [{ role: "user", content: "go" }];
  const budget = new ContextBudget(50_000);
  for (let i = 0; i < 300; i++) {
    messages.push(...pair(`c${i}`, { path: `f${i}` }, 4000));
    const fitted = budget.fit(messages);
    const last = fitted.at(-1)!.content as { output: { value: string } }[];
    assert.equal(last[0].output.value.length, 4000, `step ${i}`);
  }
  assert.ok(budget.clearedCalls >= 290, `${budget.clearedCalls} cleared`);
});
