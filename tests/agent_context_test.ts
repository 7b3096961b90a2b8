// contextTokens against the scripted OpenAI-compatible server (real HTTP, the
// real AI SDK client): clearing old tool outputs, summaries of the oldest
// messages, and outputs too big to send; every request one an endpoint accepts.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type Agent,
  type AgentEvent,
  type AgentMessage,
  createAgent,
} from "../mod.ts";
import { estimateTokens } from "../agent/context_budget.ts";
import {
  callsTool,
  type ChatRequest,
  contentText,
  type RecordedRequest,
  type ScriptedConversation,
  type ScriptedReply,
  type ScriptedToolCall,
  startScriptedServer,
  toolMessages,
} from "./support/scripted_server.ts";
import { assertAllValid, type LogInput, logTool } from "./support/log_tool.ts";
import { startEndlessServer } from "./support/raw_endpoint.ts";
import { scriptedAgent } from "./support/scripted_agent.ts";
import { withWorkspace } from "./support/workspace.ts";
import {
  budgetAgent,
  goOn,
  isSummarizer,
  logStep,
  userText,
} from "./support/summary_script.ts";

const BUDGET = 20_000; // tokens: 80,000 ASCII characters
const HEADING = "[Summary of the earlier conversation";
const END = "[End of the summary]";

// ---- Clearing old tool outputs ----

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

Deno.test("agent clears the oldest tool outputs once the conversation passes contextTokens", async () => {
  await withWorkspace(async (dir) => {
    // Three files of about 30,000 characters each.
    for (const name of ["a", "b", "c"]) {
      await Deno.writeTextFile(
        join(dir, `${name}.log`),
        `${name}-line of the log\n`.repeat(1_500),
      );
    }
    const read = (path: string) => ({
      toolCalls: [{ name: "ReadFile", arguments: { path } }],
    });
    await using server = startScriptedServer([{
      match: "Read the three logs",
      replies: [
        read("a.log"),
        read("b.log"),
        read("c.log"),
        { text: "read them" },
        { text: "still here" },
      ],
    }]);
    const agent = scriptedAgent(server, dir, {
      // 80,000 characters: the instructions and tool schemas, plus two logs.
      contextTokens: 20_000,
    });
    assert.equal((await agent.run("Read the three logs")).text, "read them");
    const sent = (turn: number) =>
      toolMessages(server.requests[turn]).map((m) => contentText(m.content))
        .map((text) =>
          text.startsWith("[Output cleared")
            ? "cleared"
            : /([abc])-line/.exec(text)?.[1]
        );
    assert.deepEqual(sent(1), ["a"]);
    // The third request would pass the budget: the oldest output goes, the
    // one the model has not answered yet stays.
    assert.deepEqual(sent(2), ["cleared", "b"]);
    assert.deepEqual(sent(3), ["cleared", "cleared", "c"]);
    for (const request of server.requests) {
      assert.ok(JSON.stringify(request.body).length < 80_000 + 10_000);
    }
    // The next run goes on from the conversation as it was last sent.
    assert.equal((await agent.run("And now?")).text, "still here");
    assert.deepEqual(sent(4), ["cleared", "cleared", "c"]);
  });
});

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
    // Only the failed call is an error.
    const failed = result.toolCalls.filter((c) => c.isError);
    assert.deepEqual(failed.map((c) => c.toolCallId), ["err"]);
    assert.equal(result.toolCalls.length, 5);
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
          callsTool("Subagent", { tasks }),
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
      replies: computed(110, next),
    }]);
    const agent = scriptedAgent(server, dir, {
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

// ---- Summaries of the oldest messages ----

/** Every turn's answer is long: the model's own text fills the context. */
const longAnswer: ScriptedReply = {
  compute: (request) => ({
    text: `Answer to ${lastUserText(request.body)}. ${"words ".repeat(2_000)}`,
  }),
};

/** The summarizer answers with the turns its transcript holds. */
const summarizer = {
  match: "## User",
  replies: [{
    compute: (request: RecordedRequest): ScriptedReply => ({
      text: `SUMMARY of ${
        [...userText(request.body).matchAll(/Turn \d+/g)].map((m) => m[0])
          .join(", ")
      }`,
    }),
  }],
};

function lastUserText(body: ChatRequest): string {
  const text = contentText(
    body.messages.findLast((m) => m.role === "user")?.content,
  );
  return /Turn \d+/.exec(text)?.[0] ?? text.slice(0, 40);
}

const tokens = (r: RecordedRequest) => JSON.stringify(r.body).length / 4;

/** `turns` long answers, whatever the prompt: the model's text fills the context. */
function longAnswers(turns = 30): ScriptedConversation {
  return {
    match: "",
    replies: Array.from({ length: turns }, () => longAnswer),
  };
}

/** The request's size by the agent's own estimate. */
const size = (r: RecordedRequest) => estimateTokens(JSON.stringify(r.body));

/** The summary text of the request's first user message, or undefined. */
function summaryIn(r: RecordedRequest): string | undefined {
  const text = userText(r);
  const start = text.indexOf(HEADING);
  if (start < 0) return undefined;
  return text.slice(text.indexOf("\n\n", start) + 2, text.indexOf(END, start))
    .trim();
}

/** The summarizer's conversation, answering `text` every time. */
function summarizerSays(text: string): ScriptedConversation {
  return { match: "## User", replies: [{ text }] };
}

/** `count` replies, each computed by `compute` from its request. */
function computed(
  count: number,
  compute: (request: RecordedRequest) => ScriptedReply,
): ScriptedReply[] {
  return Array.from({ length: count }, () => ({ compute }));
}

/** A conversation whatever the prompt, of `count` computed replies. */
function anyPrompt(
  count: number,
  compute: (request: RecordedRequest) => ScriptedReply,
): ScriptedConversation {
  return { match: "", replies: computed(count, compute) };
}

/** An agent with the `fetch_log` tool, the budget and 40 steps. */
function summaryLogAgent(baseURL: string, dir: string): Agent {
  return budgetAgent(baseURL, dir, BUDGET, {
    extraTools: [logTool()],
    maxSteps: 40,
  });
}

Deno.test("agent has the model summarize the oldest turns when its own text fills contextTokens", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      summarizer,
      // The same computed answer on every turn: after a summary the request
      // holds fewer assistant messages, so the turn index goes down.
      longAnswers(40),
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET);
    const events = await goOn(agent, 12);
    const main = server.requests.filter((r) => !isSummarizer(r));
    const summaries = server.requests.filter(isSummarizer);
    assert.equal(main.length, 12);
    assert.ok(summaries.length >= 1 && summaries.length <= 3);
    // Every request the agent sent stayed within the budget, give or take
    // the estimate's error, and was one an endpoint accepts.
    for (const request of main) {
      assert.ok(tokens(request) < BUDGET * 1.1, `${tokens(request)} tokens`);
    }
    assertAllValid(main);
    // The summarizer got the old turns as a transcript, no tools, and the
    // instructions as its system message.
    const first = summaries[0].body;
    assert.equal(first.tools, undefined);
    assert.match(contentText(first.messages[0].content), /^You summarize/);
    assert.match(userText(first), /## User\nTurn 1: go on/);
    assert.match(userText(first), /## Assistant\nAnswer to Turn 1\./);
    // No max_tokens (reasoning models refuse it, and thinking spends it):
    // the cap is asked for in words, and a longer answer is cut.
    assert.equal(first.max_tokens, undefined);
    assert.match(userText(first), /in at most 1000 words\.$/);
    // The next request starts with the summary in place of those turns, and
    // still ends with the newest prompt.
    const after = main.find((r) => userText(r.body).includes(HEADING))!;
    const firstUser = after.body.messages.find((m) => m.role === "user")!;
    assert.match(
      contentText(firstUser.content) || String(firstUser.content),
      /^\[Summary of the earlier conversation[^\n]*\]\n\nSUMMARY of Turn 1, /,
    );
    assert.doesNotMatch(userText(after.body), /^Turn 1: go on/m);
    assert.match(lastUserText(after.body), /Turn \d+/);
    // The run reported it.
    const reported = events.filter((e) => e.type === "context-summarized");
    assert.equal(reported.length, summaries.length);
    const event = reported[0];
    assert.ok(event.type === "context-summarized");
    assert.ok(event.messages >= 2);
    assert.ok(event.tokensBefore > BUDGET && event.tokensAfter < BUDGET * 0.7);
    // With the summary the model now reads in place of those messages.
    assert.match(event.summary, /^SUMMARY of Turn 1, /);
    assert.ok(contentText(firstUser.content).includes(event.summary));
    // The last turn still knows of the first through the summaries.
    assert.match(userText(main.at(-1)!.body), /SUMMARY of [^\n]*Turn 1\b/);
  });
});

Deno.test("agent summarizes in the middle of a run whose steps mix text and tool calls, keeping every call answered", async () => {
  await withWorkspace(async (dir) => {
    // Each step says something long and reads the next log after the last
    // one the request still shows, so the script goes on after a summary.
    const step = (request: RecordedRequest) =>
      logStep(request, { size: () => 3_000 });
    await using server = startScriptedServer([
      summarizerSays("SUMMARY: read logs l0 on"),
      {
        match: "Read the logs",
        replies: computed(40, step),
      },
    ]);
    const agent = summaryLogAgent(server.baseURL, dir);
    const result = await agent.run("Read the logs");
    assert.equal(result.text, "all read");
    const main = server.requests.filter((r) => !isSummarizer(r));
    // Each summary leaves about half the budget; 30 long steps fill it again.
    assert.ok(server.requests.filter(isSummarizer).length >= 2);
    assertAllValid(main);
    for (const request of main) {
      assert.ok(tokens(request) < BUDGET * 1.1, `${tokens(request)} tokens`);
    }
    // The summary went into the prompt's message: the request still starts
    // with the user's, then the newest steps.
    const roles = main.at(-1)!.body.messages.map((m) => m.role);
    assert.deepEqual(roles.slice(0, 3), ["system", "user", "assistant"]);
    assert.match(userText(main.at(-1)!.body), /SUMMARY: read logs l0 on/);
    // The next run goes on from the summarized conversation.
    server.add({ match: "", replies: [{ text: "ok" }] });
    await agent.run("And now?");
    const next = server.requests.at(-1)!;
    assert.match(userText(next.body), /SUMMARY: read logs l0 on/);
    assert.ok(tokens(next) < BUDGET * 1.1);
  });
});

Deno.test("agent sends the conversation as it is when the summary fails, and the run goes on", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      {
        match: "## User",
        replies: [{ failures: [{ status: 400 }, { status: 400 }] }],
      },
      longAnswers(20),
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET);
    const events = await goOn(agent, 8);
    const main = server.requests.filter((r) => !isSummarizer(r));
    assert.equal(main.length, 8);
    assert.ok(server.requests.some(isSummarizer));
    assert.ok(!events.some((e) => e.type === "context-summarized"));
    // Nothing was lost: the last request still holds the first turn.
    assert.match(userText(main.at(-1)!.body), /^Turn 1: go on$/m);
  });
});

Deno.test("agent aborted while the summary is written rejects with the abort and keeps its conversation", async () => {
  await withWorkspace(async (dir) => {
    const controller = new AbortController();
    // The first summary hangs and the run is aborted meanwhile; later ones
    // are answered.
    let summaries = 0;
    await using server = startScriptedServer([
      {
        match: "## User",
        replies: [{
          compute: () => {
            if (summaries++ > 0) return { text: "SUMMARY again" };
            controller.abort(new Error("stop now"));
            return { hang: true };
          },
        }],
      },
      longAnswers(20),
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET);
    let turn = 1;
    for (; turn <= 8 && !controller.signal.aborted; turn++) {
      await agent.run(`Turn ${turn}: go on`, { signal: controller.signal })
        .catch((error) => assert.equal(error.message, "stop now"));
    }
    assert.ok(controller.signal.aborted, "the summarizer was never called");
    // The aborted run left no trace; the next one sends the same turns again
    // and summarizes them.
    const requests = server.requests.length;
    await agent.run("Last turn");
    const sent = server.requests.slice(requests);
    assert.equal(sent.filter((r) => r.conversation === "## User").length, 1);
    const last = userText(sent.at(-1)!.body);
    assert.doesNotMatch(last, /Turn 1: go on/);
    assert.match(last, /SUMMARY again[\s\S]*Last turn$/);
  });
});

Deno.test("agent still summarizes later in a run after a big new output left no cut that fits", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      summarizerSays("SUMMARY: read logs"),
      anyPrompt(
        40,
        (r) => logStep(r, { steps: 24, size: (i) => i === 7 ? 26_000 : 400 }),
      ),
    ]);
    await summaryLogAgent(server.baseURL, dir).run("Read the logs");
    const main = server.requests.filter((r) => !isSummarizer(r));
    // The step that passes the budget carries the big unanswered output; once
    // answered it is cleared and later steps summarize.
    assert.ok(server.requests.filter(isSummarizer).length >= 2);
    assert.ok(main.filter((r) => tokens(r) > BUDGET * 1.1).length <= 1);
  });
});

Deno.test("agent summarizes the history before a prompt too long to keep within half the budget", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      summarizerSays("SUMMARY of the turns"),
      longAnswers(20),
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET);
    await goOn(agent, 4);
    // About a third of the budget, more than half of it less the schemas.
    const log = "ERROR at module.ts:12 cannot read x\n".repeat(720);
    await agent.run(`Turn 5: why does this fail?\n${log}`);
    const last = server.requests.at(-1)!;
    assert.equal(server.requests.filter(isSummarizer).length, 1);
    assert.ok(tokens(last) < BUDGET, `${tokens(last)} tokens`);
    assert.ok(userText(last.body).endsWith(log));
  });
});

Deno.test("agent keeps the run's request word for word through several summaries", async () => {
  await withWorkspace(async (dir) => {
    const mark = "END-OF-THE-USER-REQUEST";
    // A request of about 3,600 tokens, and summaries of about 2,000 (the
    // summary and the request together pass a quarter of the budget).
    const prompt = `Read the logs. ${
      "Constraint: keep the API stable. ".repeat(440)
    }${mark}`;
    let summaries = 0;
    await using server = startScriptedServer([
      {
        match: "## User",
        replies: [{
          compute: () => ({
            text: `SUMMARY ${++summaries}: ${"facts ".repeat(1_300)}`,
          }),
        }],
      },
      anyPrompt(40, (r) => logStep(r)),
    ]);
    await summaryLogAgent(server.baseURL, dir).run(prompt);
    assert.ok(summaries >= 2, `${summaries} summaries`);
    for (const request of server.requests.filter((r) => !isSummarizer(r))) {
      const text = userText(request.body);
      assert.equal(text.split(mark).length, 2, "the request, once");
      assert.ok(text.split("SUMMARY ").length <= 2, "one summary");
    }
  });
});

Deno.test("agent.reset() during a run leaves the new conversation's outputs uncleared", async () => {
  await withWorkspace(async (dir) => {
    const labels = (r: RecordedRequest) =>
      [...JSON.stringify(r.body.messages).matchAll(/"label\\":\\"l\d+/g)]
        .length;
    const made: { agent?: Agent } = {};
    const read = (size: number, stopAt: number) => (r: RecordedRequest) => {
      const done = labels(r);
      if (size > 10_000 && done === 1) made.agent!.reset(); // the old run goes on
      return done < stopAt
        ? callsTool("fetch_log", { label: `l${done}`, size })
        : { text: "done" };
    };
    await using server = startScriptedServer([
      {
        match: "New task",
        replies: computed(5, read(2_000, 2)),
      },
      {
        match: "Old task",
        replies: Array.from(
          { length: 6 },
          () => ({ compute: read(50_000, 4) }),
        ),
      },
    ]);
    const agent = made.agent = summaryLogAgent(server.baseURL, dir);
    await agent.run("Old task");
    const before = server.requests.length;
    await agent.run("New task");
    const second = server.requests[before + 1];
    const tool = second.body.messages.find((m) => m.role === "tool")!;
    assert.match(contentText(tool.content) || String(tool.content), /^l0:x+$/);
  });
});

Deno.test("agent's summary at the last step keeps the request within the budget, summarizing a prompt that cannot come back whole", async () => {
  await withWorkspace(async (dir) => {
    const last = (r: RecordedRequest) => r.body.messages.at(-1)!;
    await using server = startScriptedServer([
      summarizerSays("SUMMARY of the turns"),
      anyPrompt(20, (r) => {
        if (last(r).role === "tool") return { text: "Done." };
        if (JSON.stringify(last(r).content).includes("Turn 4")) {
          return callsTool("fetch_log", { label: "big", size: 50_000 });
        }
        return longAnswer.compute!(r);
      }),
    ]);
    const agent = summaryLogAgent(server.baseURL, dir);
    await goOn(agent, 3);
    // A prompt of about 4,500 tokens, then an output of 12,500.
    await agent.run(
      `Turn 4: look at this\n${"context line ...\n".repeat(1_100)}`,
    );
    const summaries = server.requests.filter(isSummarizer);
    assert.equal(summaries.length, 1);
    const after = server.requests.at(-1)!;
    assert.ok(tokens(after) < BUDGET, `${tokens(after)} tokens`);
    // With the output, the request cannot come back whole: it is summarized.
    assert.match(userText(summaries[0].body), /Turn 4: look at this/);
    assert.doesNotMatch(userText(after.body), /Turn 4: look at this/);
  });
});

Deno.test("agent stops reading a summarizer that writes on and on", async () => {
  const encoder = new TextEncoder();
  const chunk = (content: string, finish: string | null = null) =>
    encoder.encode(`data: ${
      JSON.stringify({
        id: "c",
        object: "chat.completion.chunk",
        created: 0,
        model: "m",
        choices: [{
          index: 0,
          delta: finish ? {} : { role: "assistant", content },
          finish_reason: finish,
        }],
      })
    }\n\n`);
  let streamed = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const body = await request.json();
      if (
        JSON.stringify(body.messages).includes("Summarize the conversation")
      ) {
        let timer: ReturnType<typeof setInterval> | undefined;
        return new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              timer = setInterval(() => {
                const piece = "the agent read files and ran commands; ".repeat(
                  50,
                );
                streamed += piece.length;
                try {
                  controller.enqueue(chunk(piece));
                } catch {
                  clearInterval(timer);
                }
              }, 2);
            },
            cancel: () => clearInterval(timer),
          }),
          { headers: { "content-type": "text/event-stream" } },
        );
      }
      const parts = [
        chunk(`Answer. ${"words ".repeat(2_000)}`),
        chunk("", "stop"),
        encoder.encode("data: [DONE]\n\n"),
      ];
      return new Response(new Blob(parts).stream(), {
        headers: { "content-type": "text/event-stream" },
      });
    },
  );
  try {
    await withWorkspace(async (dir) => {
      const agent = budgetAgent(
        `http://127.0.0.1:${(server.addr as Deno.NetAddr).port}/v1`,
        dir,
        BUDGET,
      );
      await goOn(agent, 10);
      // Read up to 1.5 times the allowance, kept clipped to it.
      assert.ok(streamed < 100_000, `${streamed} characters streamed`);
      const summary = JSON.stringify(agent.history[0]);
      assert.match(summary, /^\{"role":"user","content":"\[Summary of/);
      assert.ok(summary.length < 9_000, `${summary.length}`);
    });
  } finally {
    await server.shutdown();
  }
});

Deno.test("agent asks an unusable summarizer (empty, reasoning only, tool calls) once per run and sends the conversation whole", async () => {
  const unusable: ScriptedReply[] = [
    { text: "  \n" },
    { reasoning: "Let me think about a summary." },
    callsTool("ReadFile", { path: "a.ts" }),
  ];
  for (const reply of unusable) {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([
        { match: "## User", replies: [reply] },
        longAnswers(),
      ]);
      const agent = budgetAgent(server.baseURL, dir, BUDGET);
      const events = await goOn(agent, 8);
      const kinds = server.requests.map((r) => isSummarizer(r) ? "S" : "m");
      // Each run is one step: at most one summary request before it.
      assert.match(kinds.join(""), /^m+(S?m)+$/);
      assert.ok(kinds.includes("S"), kinds.join(""));
      assert.ok(!events.some((e) => e.type === "context-summarized"));
      const main = server.requests.filter((r) => !isSummarizer(r));
      assertAllValid(main);
      assert.doesNotMatch(userText(main.at(-1)!), /\[Summary of/);
      assert.match(userText(main.at(-1)!), /^Turn 1: go on$/m);
    });
  }
});

Deno.test("agent cuts a summary longer than asked, ASCII or Chinese, to a tenth of contextTokens", async () => {
  const long = [
    `SUMMARY ${"detail ".repeat(100_000)}`,
    `摘要：${"用户要求重构代码。".repeat(5_000)}`,
  ];
  for (const text of long) {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([
        { match: "## User", replies: [{ text }] },
        longAnswers(),
      ]);
      const agent = budgetAgent(server.baseURL, dir, BUDGET);
      await goOn(agent, 7);
      const last = server.requests.at(-1)!;
      const summary = summaryIn(last);
      assert.ok(summary?.startsWith(text.slice(0, 8)), userText(last));
      assert.ok(estimateTokens(summary!) <= BUDGET / 10 + 3);
      assert.ok(size(last) < BUDGET, `${size(last)} tokens`);
      assert.match(userText(last), /Turn 7: go on$/);
    });
  }
});

Deno.test("agent.reset() while a summary is written: the next run starts over without the old turns or the summary", async () => {
  await withWorkspace(async (dir) => {
    let reset = false;
    const holder: { agent?: Agent } = {};
    await using server = startScriptedServer([
      {
        match: "## User",
        replies: [{
          compute: () => {
            holder.agent!.reset();
            reset = true;
            return { text: "SUMMARY of the old turns", delayMs: 10 };
          },
        }],
      },
      { match: "New task", replies: [{ text: "fresh start" }] },
      longAnswers(),
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET);
    holder.agent = agent;
    for (let turn = 1; turn <= 10 && !reset; turn++) {
      await agent.run(`Turn ${turn}: go on`);
    }
    assert.ok(reset, "no summary was asked for");
    assert.equal((await agent.run("New task: start over")).text, "fresh start");
    const last = server.requests.at(-1)!;
    assert.deepEqual(last.body.messages.map((m) => m.role), ["system", "user"]);
    assert.equal(userText(last), "New task: start over");
  });
});

/** Two children that each run long enough to summarize, from one Subagent call. */
function delegation(summarizer: ScriptedReply): ScriptedConversation[] {
  const child = (match: string) => ({
    match,
    replies: computed(30, (r) => logStep(r, { steps: 16 })),
  });
  return [
    { match: "## User", replies: [summarizer] },
    child("Child A"),
    child("Child B"),
    {
      match: "Delegate",
      replies: [
        {
          toolCalls: [{
            name: "Subagent",
            arguments: {
              tasks: [
                { description: "A", prompt: "Child A: read the logs" },
                { description: "B", prompt: "Child B: read the logs" },
              ],
            },
          }],
        },
        {
          compute: (r) => ({
            text: contentText(r.body.messages.at(-1)!.content) ||
              String(r.body.messages.at(-1)!.content),
          }),
        },
      ],
    },
  ];
}

Deno.test("agent's parallel Subagent children each summarize their own conversation", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer(
      delegation({
        compute: (r) => ({
          text: `SUMMARY of ${/Child [AB]/.exec(userText(r))?.[0]}`,
        }),
      }),
    );
    const agent = budgetAgent(server.baseURL, dir, BUDGET, {
      extraTools: [logTool()],
      subagentMaxSteps: 30,
    });
    const events: AgentEvent[] = [];
    for await (const event of agent.stream("Delegate the reading")) {
      events.push(event);
    }
    const result = events.findLast((e) => e.type === "finish")!;
    assert.ok(result.type === "finish");
    assert.match(result.result.text, /2 tasks: 2 completed/);
    assert.match(result.result.text, /Task 1: A \(completed\)\nall read/);
    const summaries = server.requests.filter(isSummarizer);
    assert.equal(summaries.length, 2);
    // Each child's summary is reported under its Subagent call and task;
    // the parent's own conversation was not summarized.
    const call = events.find((e) =>
      e.type === "tool-call" && e.toolName === "Subagent"
    );
    assert.ok(call?.type === "tool-call");
    const reported = events.flatMap((e) =>
      e.type === "subagent-context-summarized"
        ? [[e.toolCallId, e.task, e.description, e.summary].join(" ")]
        : []
    ).sort();
    assert.deepEqual(reported, [
      `${call.toolCallId} 0 A SUMMARY of Child A`,
      `${call.toolCallId} 1 B SUMMARY of Child B`,
    ]);
    assert.ok(!events.some((e) => e.type === "context-summarized"));
    // Each summarizer read one child's conversation, not its sibling's.
    const read = summaries.map((r) =>
      [...new Set(userText(r).match(/Child [AB]/g))].join()
    ).sort();
    assert.deepEqual(read, ["Child A", "Child B"]);
    for (const name of ["Child A", "Child B"]) {
      const child = server.requests.filter((r) => r.conversation === name);
      assertAllValid(child);
      for (const r of child) assert.ok(size(r) < BUDGET * 1.1, `${size(r)}`);
      assert.equal(summaryIn(child.at(-1)!), `SUMMARY of ${name}`);
    }
  });
});

Deno.test("agent aborted while a Subagent child writes its summary rejects with the reason and leaves no trace", async () => {
  await withWorkspace(async (dir) => {
    const controller = new AbortController();
    await using server = startScriptedServer(delegation({
      compute: () => {
        controller.abort(new Error("stop now"));
        return { hang: true };
      },
    }));
    server.add({ match: "After", replies: [{ text: "after ok" }] });
    const agent = budgetAgent(server.baseURL, dir, BUDGET, {
      extraTools: [logTool()],
      subagentMaxSteps: 30,
    });
    await assert.rejects(
      agent.run("Delegate the reading", { signal: controller.signal }),
      /stop now/,
    );
    assert.ok(server.requests.some(isSummarizer));
    assert.equal((await agent.run("After the abort")).text, "after ok");
    const last = server.requests.at(-1)!;
    assert.deepEqual(last.body.messages.map((m) => m.role), ["system", "user"]);
  });
});

Deno.test("agent retries the summarizer's request like any other and reports the retry before the summary", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      {
        match: "## User",
        replies: [{
          failures: [{ status: 503, headers: { "retry-after": "0" } }],
          text: "SUMMARY after a retry",
        }],
      },
      longAnswers(),
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET);
    const kinds = (await goOn(agent, 7)).map((event) => event.type)
      .filter((type) => type === "retry" || type === "context-summarized");
    assert.deepEqual(kinds, ["retry", "context-summarized"]);
    assert.equal(server.requests.filter(isSummarizer).length, 2);
    assert.equal(summaryIn(server.requests.at(-1)!), "SUMMARY after a retry");
  });
});

Deno.test("agent stacks summaries over many Chinese turns: one summary message, the current prompt once, every request within contextTokens", async () => {
  await withWorkspace(async (dir) => {
    const turnsIn = (r: RecordedRequest) =>
      [...new Set(userText(r).match(/第\d+轮/g))].join("、");
    await using server = startScriptedServer([
      {
        match: "## User",
        replies: [{ compute: (r) => ({ text: `摘要：${turnsIn(r)}。` }) }],
      },
      {
        match: "",
        replies: Array.from({ length: 30 }, () => ({
          text: `好的。${"我们继续重构这个模块。".repeat(300)}`,
        })),
      },
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET);
    for (let turn = 1; turn <= 14; turn++) {
      await agent.run(`第${turn}轮：请继续。${"说明".repeat(200)}`);
    }
    assert.ok(server.requests.filter(isSummarizer).length >= 2);
    for (const r of server.requests) {
      assert.ok(size(r) < BUDGET * 1.05, `${size(r)} tokens`);
    }
    const main = server.requests.filter((r) => !isSummarizer(r));
    assertAllValid(main);
    const last = main.at(-1)!;
    assert.equal(userText(last).split(HEADING).length, 2);
    assert.equal(userText(last).split("第14轮：请继续").length, 2);
    // The first turn is still known, through the summary of summaries.
    assert.match(summaryIn(last)!, /^摘要：第1轮、/);
  });
});

Deno.test("agent summarizing one run several times sends one summary and the user's request once, word for word", async () => {
  await withWorkspace(async (dir) => {
    let summaries = 0;
    await using server = startScriptedServer([
      {
        match: "## User",
        replies: [{ compute: () => ({ text: `SUMMARY ${++summaries}` }) }],
      },
      {
        match: "Read the logs",
        replies: computed(40, logStep),
      },
    ]);
    const agent = summaryLogAgent(server.baseURL, dir);
    assert.equal((await agent.run("Read the logs, all 30")).text, "all read");
    assert.ok(summaries >= 2, `${summaries} summaries`);
    const main = server.requests.filter((r) => !isSummarizer(r));
    assertAllValid(main);
    for (const r of main) {
      assert.ok(userText(r).split(HEADING).length <= 2, userText(r));
      assert.equal(userText(r).split("Read the logs, all 30").length, 2);
    }
    assert.equal(summaryIn(main.at(-1)!), `SUMMARY ${summaries}`);
  });
});

Deno.test("agent aborted in the model call right after a summary keeps its completed steps, cleared outputs cleared", async () => {
  await withWorkspace(async (dir) => {
    const controller = new AbortController();
    let tripped = false;
    const step = (r: RecordedRequest): ScriptedReply => {
      if (/Next question/.test(contentText(r.body.messages.at(-1)!.content))) {
        return { text: "next ok" };
      }
      if (!tripped && summaryIn(r) !== undefined) {
        tripped = true;
        setTimeout(() => controller.abort(new Error("stop now")), 20);
        return { hang: true };
      }
      return logStep(r);
    };
    await using server = startScriptedServer([
      summarizerSays("SUMMARY: read logs"),
      anyPrompt(40, step),
    ]);
    const agent = summaryLogAgent(server.baseURL, dir);
    await assert.rejects(
      agent.run("Read the logs", { signal: controller.signal }),
      /stop now/,
    );
    const main = () => server.requests.filter((r) => !isSummarizer(r));
    const before = main().filter((r) => summaryIn(r) === undefined).at(-1)!;
    assert.equal((await agent.run("Next question: done?")).text, "next ok");
    const next = server.requests.at(-1)!;
    assertAllValid(main());
    assert.ok(size(next) < BUDGET * 1.1);
    // Every completed step made it: the newest log read before the abort is
    // in the next run's request, and every output cleared then still is.
    const outputs = (r: RecordedRequest) =>
      new Map(
        r.body.messages.filter((m) => m.role === "tool").map((
          m,
        ) => [m.tool_call_id, contentText(m.content) || String(m.content)]),
      );
    const was = outputs(before);
    const now = outputs(next);
    const newest = [...was.keys()].at(-1);
    assert.ok(now.has(newest), "the newest completed step was lost");
    for (const [id, text] of now) {
      if (was.get(id)?.startsWith("[Output cleared")) {
        assert.match(text, /^\[Output cleared/);
      }
    }
    assert.equal(userText(next).split("Next question").length, 2);
  });
});

Deno.test("agent stopped by its step cap right after a summary goes on from the summary and the last step's answered call", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      summarizerSays("SUMMARY: logs l0 on"),
      anyPrompt(
        20,
        (r) =>
          /And now/.test(contentText(r.body.messages.at(-1)!.content))
            ? { text: "ok" }
            : logStep(r),
      ),
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET, {
      extraTools: [logTool()],
      maxSteps: 12,
    });
    const first = await agent.run("Read the logs");
    assert.equal(first.finishReason, "tool-calls");
    assert.equal(server.requests.filter(isSummarizer).length, 1);
    const main = server.requests.filter((r) => !isSummarizer(r));
    assert.equal(summaryIn(main.at(-1)!), "SUMMARY: logs l0 on");
    const requests = server.requests.length;
    assert.equal((await agent.run("And now?")).text, "ok");
    const next = server.requests.slice(requests).at(-1)!;
    assertAllValid([next]);
    const roles = next.body.messages.map((m) => m.role);
    assert.deepEqual(roles.slice(0, 3), ["system", "user", "assistant"]);
    assert.deepEqual(roles.slice(-3), ["assistant", "tool", "user"]);
    assert.equal(summaryIn(next), "SUMMARY: logs l0 on");
    assert.match(
      contentText(next.body.messages.at(-2)!.content),
      /^l11:x+$/,
    );
    assert.doesNotMatch(userText(next), /Step 0:/);
    assert.equal(userText(next).split("Read the logs").length, 2);
  });
});

Deno.test("agent whose contextTokens are below its instructions and tools never asks for a summary", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      summarizerSays("SUMMARY"),
      longAnswers(),
    ]);
    const agent = budgetAgent(server.baseURL, dir, 2_048);
    await goOn(agent, 3);
    assert.equal(server.requests.filter(isSummarizer).length, 0);
    assert.match(userText(server.requests.at(-1)!), /^Turn 1: go on$/m);
  });
});

// ---- Outputs too big for the context ----

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
    const agent = scriptedAgent(server, dir, {
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
  const call = (first: boolean, args: string) => ({
    tool_calls: [{
      index: 0,
      id: "c1",
      type: "function",
      function: first ? { name: "WriteFile", arguments: args } : {
        arguments: args,
      },
    }],
  });
  await using server = startEndlessServer((first) =>
    first
      ? { role: "assistant", ...call(first, '{"path":"a.txt","content":"') }
      : call(first, "all work and no play. ".repeat(40))
  );
  await withWorkspace(async (dir) => {
    const agent = scriptedAgent(server, dir, { contextTokens: 2_000 });
    const result = await agent.run("hi", {
      signal: AbortSignal.timeout(10_000),
    });
    assert.equal(result.finishReason, "length");
    assert.deepEqual(result.toolCalls, []);
    assert.deepEqual(agent.history, []);
  });
});
