// Review of contextTokens (clearing old tool outputs) against the scripted
// OpenAI-compatible server: real HTTP, the real AI SDK client. Every request is
// checked to be one an OpenAI-compatible endpoint accepts (each tool call
// answered by a tool message with its id, right after it; no empty content).
import assert from "node:assert/strict";
import { type Agent, createAgent } from "../mod.ts";
import {
  contentText,
  type RecordedRequest,
  type ScriptedReply,
  type ScriptedToolCall,
  startScriptedServer,
  toolMessages,
} from "./support/scripted_server.ts";
import { assertAllValid, type LogInput, logTool } from "./support/log_tool.ts";
import { withWorkspace } from "./support/workspace.ts";

/** An agent in `dir` with the `fetch_log` tool and a context budget. */
function logAgent(
  baseURL: string,
  dir: string,
  contextTokens: number,
  onWait?: () => void,
): Agent {
  return createAgent({
    baseURL,
    model: "m",
    cwd: dir,
    extraTools: [logTool(onWait)],
    contextTokens,
  });
}

function call(
  label: string,
  size: number,
  extra: Partial<LogInput> & { id?: string } = {},
): ScriptedToolCall {
  const { id, ...rest } = extra;
  return {
    name: "fetch_log",
    arguments: { label, size, ...rest },
    ...(id ? { id } : {}),
  };
}

/** Each tool message's output as sent: its label, or "cleared". */
function sent(request: RecordedRequest): string[] {
  return toolMessages(request).map((m) => {
    const text = contentText(m.content) ||
      (typeof m.content === "string" ? m.content : "");
    if (text.startsWith("[Output cleared")) return "cleared";
    return /(\w+):x*$/.exec(text)?.[1] ?? text.slice(0, 60);
  });
}

Deno.test("agent clears a failed call's output like any other and keeps every parallel output of the newest step", async () => {
  await withWorkspace(async (dir) => {
    const replies: ScriptedReply[] = [
      { toolCalls: [call("e1", 30_000, { fail: true, id: "err" })] },
      {
        toolCalls: [
          call("p1", 30_000, { id: "par1" }),
          call("p2", 30_000, { id: "par2" }),
          call("p3", 30_000, { id: "par3" }),
        ],
      },
      { toolCalls: [call("s4", 30_000, { id: "single" })] },
      { text: "done" },
    ];
    await using server = startScriptedServer([{ match: "Fetch", replies }]);
    const agent = logAgent(server.baseURL, dir, 20_000); // 80,000 characters
    const result = await agent.run("Fetch the logs");
    assert.equal(result.text, "done");
    assert.deepEqual(result.toolCalls.map((c) => c.isError), [
      true,
      false,
      false,
      false,
      false,
    ]);
    const requests = server.requests;
    assertAllValid(requests);
    assert.match(contentText(toolMessages(requests[1])[0].content), /e1:x/);
    // Three parallel outputs pass the budget on their own: all are sent, the
    // failed call's long message goes.
    assert.deepEqual(sent(requests[2]), ["cleared", "p1", "p2", "p3"]);
    assert.deepEqual(sent(requests[3]), [
      "cleared",
      "cleared",
      "cleared",
      "cleared",
      "s4",
    ]);
    // Clearing keeps every call's id.
    assert.deepEqual(toolMessages(requests[3]).map((m) => m.tool_call_id), [
      "err",
      "par1",
      "par2",
      "par3",
      "single",
    ]);
  });
});

Deno.test("agent keeps the start of the conversation unchanged between clearings", async () => {
  await withWorkspace(async (dir) => {
    const steps = 12;
    const replies: ScriptedReply[] = [];
    for (let i = 0; i < steps; i++) {
      replies.push({ toolCalls: [call(`r${i}`, 25_000)] });
    }
    replies.push({ text: "done" });
    await using server = startScriptedServer([{ match: "Read on", replies }]);
    const agent = logAgent(server.baseURL, dir, 40_000); // 160,000 characters
    assert.equal((await agent.run("Read on")).text, "done");
    const requests = server.requests;
    assertAllValid(requests);
    const json = (r: RecordedRequest) =>
      r.body.messages.map((m) => JSON.stringify(m));
    // A request either extends the one before (same prefix, for prompt
    // caches) or clears; a clearing is followed by steps that only extend.
    const clearedAt: number[] = [];
    for (let n = 1; n < requests.length; n++) {
      const before = json(requests[n - 1]);
      const now = json(requests[n]);
      if (before.some((m, i) => now[i] !== m)) clearedAt.push(n);
    }
    assert.ok(clearedAt.length >= 2, `clearings at ${clearedAt}`);
    for (let k = 1; k < clearedAt.length; k++) {
      assert.ok(
        clearedAt[k] - clearedAt[k - 1] >= 3,
        `clearings at ${clearedAt}`,
      );
    }
    for (const request of requests) {
      assert.ok(JSON.stringify(request.body).length < 160_000 + 30_000);
      assert.notEqual(sent(request).at(-1), "cleared");
    }
  });
});

Deno.test("each Subagent child clears its own conversation within contextTokens", async () => {
  await withWorkspace(async (dir) => {
    const tasks = ["one", "two"].map((name) => ({
      description: `child ${name}`,
      prompt: `child ${name}: fetch`,
    }));
    const child = (name: string): ScriptedReply[] => [
      { toolCalls: [call(`${name}A`, 30_000)] },
      { toolCalls: [call(`${name}B`, 30_000)] },
      { toolCalls: [call(`${name}C`, 30_000)] },
      { text: `${name} report` },
    ];
    await using server = startScriptedServer([
      {
        match: "Delegate",
        replies: [
          { toolCalls: [call("P", 30_000)] },
          { toolCalls: [{ name: "Subagent", arguments: { tasks } }] },
          { text: "delegated" },
        ],
      },
      { match: "child one", replies: child("one") },
      { match: "child two", replies: child("two") },
    ]);
    const agent = logAgent(server.baseURL, dir, 20_000);
    assert.equal((await agent.run("Delegate")).text, "delegated");
    assertAllValid(server.requests);
    for (const name of ["one", "two"]) {
      const last = server.requests.findLast((r) =>
        r.conversation === `child ${name}`
      )!;
      assert.deepEqual(sent(last), ["cleared", "cleared", `${name}C`]);
    }
    // The parent's own conversation is within its budget: nothing cleared.
    const parent = server.requests.findLast((r) =>
      r.conversation === "Delegate"
    )!;
    assert.equal(sent(parent)[0], "P");
    assert.match(sent(parent)[1], /2 tasks: 2 completed/);
  });
});

Deno.test("agent aborted during a tool call sends a valid conversation, cleared outputs still cleared, on the next run", async () => {
  await withWorkspace(async (dir) => {
    let waiting = () => {};
    const started = new Promise<void>((resolve) => waiting = resolve);
    await using server = startScriptedServer([{
      match: "Fetch three",
      replies: [
        { toolCalls: [call("a", 30_000)] },
        { toolCalls: [call("b", 30_000)] },
        { toolCalls: [call("c", 30_000)] },
        {
          compute: (request) =>
            request.body.messages.at(-1)?.role === "user"
              ? { text: "resumed" }
              : { toolCalls: [call("w", 10, { wait: true })] },
        },
      ],
    }]);
    const agent = logAgent(server.baseURL, dir, 20_000, () => waiting());
    const controller = new AbortController();
    const run = agent.run("Fetch three", { signal: controller.signal });
    await started;
    controller.abort(new Error("stopped by the test"));
    await assert.rejects(run, /stopped by the test/);
    assert.equal((await agent.run("Go on")).text, "resumed");
    assertAllValid(server.requests);
    const next = server.requests.at(-1)!;
    assert.equal(contentText(next.body.messages.at(-1)!.content), "Go on");
    assert.deepEqual(sent(next), ["cleared", "cleared", "c"]);
  });
});

Deno.test("agent.reset() forgets which outputs were cleared", async () => {
  await withWorkspace(async (dir) => {
    // The same call ids before and after the reset.
    const ids = ["call_a", "call_b", "call_c"];
    await using server = startScriptedServer([
      {
        match: "Before",
        replies: [
          ...ids.map((id) => ({ toolCalls: [call(id, 30_000, { id })] })),
          { text: "before done" },
        ],
      },
      {
        match: "After",
        replies: [
          { toolCalls: [call("call_a", 30_000, { id: "call_a" })] },
          { text: "after done" },
        ],
      },
    ]);
    const agent = logAgent(server.baseURL, dir, 20_000);
    assert.equal((await agent.run("Before")).text, "before done");
    assert.deepEqual(sent(server.requests[3]), [
      "cleared",
      "cleared",
      "call_c",
    ]);
    agent.reset();
    assert.equal((await agent.run("After")).text, "after done");
    assert.deepEqual(sent(server.requests.at(-1)!), ["call_a"]);
  });
});

Deno.test("agent with contextTokens below its instructions and tool schemas still sends the newest outputs whole", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "Tiny",
      replies: [
        { toolCalls: [call("a", 500)] },
        { toolCalls: [call("b", 500), call("b2", 500)] },
        { toolCalls: [call("c", 500)] },
        { text: "tiny done" },
        { text: "again" },
      ],
    }]);
    const agent = logAgent(server.baseURL, dir, 1);
    assert.equal((await agent.run("Tiny")).text, "tiny done");
    assert.equal((await agent.run("And?")).text, "again");
    assertAllValid(server.requests);
    assert.deepEqual(server.requests.map(sent), [
      [],
      ["a"],
      ["cleared", "b", "b2"],
      ["cleared", "cleared", "cleared", "c"],
      // The next run: the model has answered c, so it goes too.
      ["cleared", "cleared", "cleared", "cleared"],
    ]);
  });
});

Deno.test("agent sends a user prompt longer than contextTokens whole", async () => {
  await withWorkspace(async (dir) => {
    const prompt = `Huge: ${"y".repeat(200_000)}`;
    await using server = startScriptedServer([{
      match: "Huge:",
      replies: [{ toolCalls: [call("a", 100)] }, { text: "read it" }],
    }]);
    const agent = logAgent(server.baseURL, dir, 1_000);
    assert.equal((await agent.run(prompt)).text, "read it");
    for (const request of server.requests) {
      const user = request.body.messages.find((m) => m.role === "user")!;
      assert.equal(contentText(user.content) || user.content, prompt);
    }
    assert.deepEqual(sent(server.requests[1]), ["a"]);
  });
});

Deno.test("agent.reset() during a run forgets that run too", async () => {
  await withWorkspace(async (dir) => {
    let waiting = () => {};
    const started = new Promise<void>((resolve) => waiting = resolve);
    await using server = startScriptedServer([
      {
        match: "First",
        replies: [
          { toolCalls: [call("a", 100)] },
          { toolCalls: [call("w", 10, { wait: true })] },
        ],
      },
      { match: "Second", replies: [{ text: "fresh" }] },
    ]);
    const agent = logAgent(server.baseURL, dir, 20_000, () => waiting());
    const controller = new AbortController();
    const run = agent.run("First", { signal: controller.signal });
    await started;
    agent.reset();
    controller.abort(new Error("stopped by the test"));
    await assert.rejects(run, /stopped by the test/);
    // A run that wrongly still carried "First" would wait on the tool again.
    const second = await agent.run("Second", {
      signal: AbortSignal.timeout(20_000),
    });
    assert.equal(second.text, "fresh");
    const roles = server.requests.at(-1)!.body.messages.map((m) => m.role);
    assert.deepEqual(roles, ["system", "user"]);
  });
});

Deno.test("agent leaves out the oldest cleared steps of a long session to stay within contextTokens", async () => {
  await withWorkspace(async (dir) => {
    // Each reply reads the next log after the last one it was sent, so the
    // script keeps going however many old steps the requests leave out.
    const next = (request: RecordedRequest): ScriptedReply => {
      const last = sent(request).at(-1);
      const index = last === undefined ? 0 : Number(last.slice(1)) + 1;
      return index < 100
        ? { toolCalls: [call(`s${index}`, 2_000)] }
        : { text: "read them all" };
    };
    await using server = startScriptedServer([{
      match: "Read a hundred",
      replies: Array.from({ length: 110 }, () => ({ compute: next })),
    }]);
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      extraTools: [logTool()],
      contextTokens: 10_000,
      maxSteps: 110,
    });
    assert.equal((await agent.run("Read a hundred")).text, "read them all");
    assertAllValid(server.requests);
    for (const request of server.requests) {
      // The budget, give or take the estimate's error.
      assert.ok(JSON.stringify(request.body).length / 4 < 10_000 * 1.15);
    }
    // The newest output was sent whole every time, and old steps went.
    const last = server.requests.at(-1)!;
    assert.equal(sent(last).at(-1), "s99");
    assert.ok(sent(last).length < 100);
  });
});
