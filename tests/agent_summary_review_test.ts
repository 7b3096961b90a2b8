// Review of context summaries (agent/_context_summary.ts, Conversation in
// agent/_ai_sdk.ts) against the scripted OpenAI-compatible server: real HTTP,
// the real AI SDK client. The summarizer's requests are told apart by the
// transcript they carry ("## User"). Each test checks what an endpoint gets.
import assert from "node:assert/strict";
import type { Agent, AgentEvent } from "../mod.ts";
import { estimateTokens } from "../agent/context_budget.ts";
import {
  contentText,
  type RecordedRequest,
  type ScriptedConversation,
  type ScriptedReply,
  startScriptedServer,
} from "./support/scripted_server.ts";
import { assertAllValid, logTool } from "./support/log_tool.ts";
import { fello } from "./support/fello_cli.ts";
import { withWorkspace } from "./support/workspace.ts";
import {
  budgetAgent,
  goOn,
  isSummarizer,
  logStep,
  userText,
} from "./support/summary_script.ts";

const BUDGET = 20_000; // tokens
const HEADING = "[Summary of the earlier conversation";
const END = "[End of the summary]";

/** The request's size by the agent's own estimate. */
const size = (r: RecordedRequest) => estimateTokens(JSON.stringify(r.body));

/** Every turn's answer is long: the model's own text fills the context. */
const longAnswers = (): ScriptedConversation => ({
  match: "",
  replies: Array.from({ length: 30 }, () => ({
    text: `Answer. ${"words ".repeat(2_000)}`,
  })),
});

/** The summary text of the request's first user message, or undefined. */
function summaryIn(r: RecordedRequest): string | undefined {
  const text = userText(r);
  const start = text.indexOf(HEADING);
  if (start < 0) return undefined;
  return text.slice(text.indexOf("\n\n", start) + 2, text.indexOf(END, start))
    .trim();
}

Deno.test("agent asks an unusable summarizer (empty, reasoning only, tool calls) once per run and sends the conversation whole", async () => {
  const unusable: ScriptedReply[] = [
    { text: "  \n" },
    { reasoning: "Let me think about a summary." },
    { toolCalls: [{ name: "ReadFile", arguments: { path: "a.ts" } }] },
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
    replies: Array.from({ length: 30 }, () => ({
      compute: (r: RecordedRequest) => logStep(r, { steps: 16 }),
    })),
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
        replies: Array.from({ length: 40 }, () => ({ compute: logStep })),
      },
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET, {
      extraTools: [logTool()],
      maxSteps: 40,
    });
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
      { match: "## User", replies: [{ text: "SUMMARY: read logs" }] },
      {
        match: "",
        replies: Array.from({ length: 40 }, () => ({ compute: step })),
      },
    ]);
    const agent = budgetAgent(server.baseURL, dir, BUDGET, {
      extraTools: [logTool()],
      maxSteps: 40,
    });
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
      { match: "## User", replies: [{ text: "SUMMARY: logs l0 on" }] },
      {
        match: "",
        replies: Array.from({ length: 20 }, () => ({
          compute: (r: RecordedRequest) =>
            /And now/.test(contentText(r.body.messages.at(-1)!.content))
              ? { text: "ok" }
              : logStep(r),
        })),
      },
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
      { match: "## User", replies: [{ text: "SUMMARY" }] },
      longAnswers(),
    ]);
    const agent = budgetAgent(server.baseURL, dir, 2_048);
    await goOn(agent, 3);
    assert.equal(server.requests.filter(isSummarizer).length, 0);
    assert.match(userText(server.requests.at(-1)!), /^Turn 1: go on$/m);
  });
});

Deno.test("fello run prints a line when the conversation is summarized in the middle of a run", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(`${dir}/notes.txt`, "note\n");
    const step = (r: RecordedRequest): ScriptedReply => {
      const said = [...JSON.stringify(r.body.messages).matchAll(/Step (\d+)/g)]
        .map((m) => Number(m[1]));
      const index = said.length === 0 ? 0 : Math.max(...said) + 1;
      return index < 14
        ? {
          text: `Step ${index}: ${"thinking aloud ".repeat(400)}`,
          toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }],
        }
        : { text: "all read" };
    };
    await using server = startScriptedServer([
      { match: "## User", replies: [{ text: "SUMMARY: notes read" }] },
      {
        match: "",
        replies: Array.from({ length: 20 }, () => ({ compute: step })),
      },
    ]);
    const out = await fello([
      "run",
      "--base-url",
      server.baseURL,
      "--model",
      "m",
      "--cwd",
      dir,
      "--permission-mode",
      "readOnly",
      "--context-tokens",
      String(BUDGET),
      "--max-steps",
      "20",
      "Read the notes again and again",
    ], { cwd: dir });
    assert.equal(out.code, 0, out.stderr);
    assert.match(
      out.stdout,
      /\n\(summarized the oldest \d+ messages to stay within the context: about \d+ → \d+ tokens\)\n/,
    );
    assert.match(out.stdout, /all read\n$/);
    assert.equal(server.requests.filter(isSummarizer).length, 1);
  });
});
