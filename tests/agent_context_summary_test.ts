// When clearing old tool calls is not enough to keep within contextTokens, the
// agent has the model summarize the oldest messages. Real HTTP against the
// scripted server, the real AI SDK client; the summarizer's requests are told
// apart by the transcript they carry ("## User").
import assert from "node:assert/strict";
import type { Agent } from "../mod.ts";
import {
  type ChatRequest,
  contentText,
  type RecordedRequest,
  type ScriptedReply,
  startScriptedServer,
} from "./support/scripted_server.ts";
import { assertAllValid, logTool } from "./support/log_tool.ts";
import { withWorkspace } from "./support/workspace.ts";
import {
  budgetAgent,
  goOn,
  isSummarizer,
  logStep,
  userText,
} from "./support/summary_script.ts";

const HEADING = "[Summary of the earlier conversation";
const BUDGET = 20_000; // tokens: 80,000 ASCII characters

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

Deno.test("agent has the model summarize the oldest turns when its own text fills contextTokens", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      summarizer,
      // The same computed answer on every turn: after a summary the request
      // holds fewer assistant messages, so the turn index goes down.
      { match: "", replies: Array.from({ length: 40 }, () => longAnswer) },
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
      { match: "## User", replies: [{ text: "SUMMARY: read logs l0 on" }] },
      {
        match: "Read the logs",
        replies: Array.from({ length: 40 }, () => ({ compute: step })),
      },
    ]);
    const agent = logAgent(server.baseURL, dir);
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
      { match: "", replies: Array.from({ length: 20 }, () => longAnswer) },
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
      { match: "", replies: Array.from({ length: 20 }, () => longAnswer) },
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

// Regressions from the review of the first version (reproductions by a
// reviewing helper), each of which failed before its fix.

function logAgent(baseURL: string, dir: string) {
  return budgetAgent(baseURL, dir, BUDGET, {
    extraTools: [logTool()],
    maxSteps: 40,
  });
}

Deno.test("agent still summarizes later in a run after a big new output left no cut that fits", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      { match: "## User", replies: [{ text: "SUMMARY: read logs" }] },
      {
        match: "",
        replies: Array.from({ length: 40 }, () => ({
          compute: (r: RecordedRequest) =>
            logStep(r, { steps: 24, size: (i) => i === 7 ? 26_000 : 400 }),
        })),
      },
    ]);
    await logAgent(server.baseURL, dir).run("Read the logs");
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
      { match: "## User", replies: [{ text: "SUMMARY of the turns" }] },
      { match: "", replies: Array.from({ length: 20 }, () => longAnswer) },
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
      {
        match: "",
        replies: Array.from({ length: 40 }, () => ({
          compute: (r: RecordedRequest) => logStep(r),
        })),
      },
    ]);
    await logAgent(server.baseURL, dir).run(prompt);
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
        ? {
          toolCalls: [{
            name: "fetch_log",
            arguments: { label: `l${done}`, size },
          }],
        }
        : { text: "done" };
    };
    await using server = startScriptedServer([
      {
        match: "New task",
        replies: Array.from({ length: 5 }, () => ({ compute: read(2_000, 2) })),
      },
      {
        match: "Old task",
        replies: Array.from(
          { length: 6 },
          () => ({ compute: read(50_000, 4) }),
        ),
      },
    ]);
    const agent = made.agent = logAgent(server.baseURL, dir);
    await agent.run("Old task");
    const before = server.requests.length;
    await agent.run("New task");
    const second = server.requests[before + 1];
    const tool = second.body.messages.find((m) => m.role === "tool")!;
    assert.match(contentText(tool.content) || String(tool.content), /^l0:x+$/);
  });
});

// From the third review (reproductions by a reviewing helper).

Deno.test("agent's summary at the last step keeps the request within the budget, summarizing a prompt that cannot come back whole", async () => {
  await withWorkspace(async (dir) => {
    const last = (r: RecordedRequest) => r.body.messages.at(-1)!;
    await using server = startScriptedServer([
      { match: "## User", replies: [{ text: "SUMMARY of the turns" }] },
      {
        match: "",
        replies: Array.from({ length: 20 }, () => ({
          compute: (r: RecordedRequest): ScriptedReply => {
            if (last(r).role === "tool") return { text: "Done." };
            if (JSON.stringify(last(r).content).includes("Turn 4")) {
              return {
                toolCalls: [{
                  name: "fetch_log",
                  arguments: { label: "big", size: 50_000 },
                }],
              };
            }
            return longAnswer.compute!(r);
          },
        })),
      },
    ]);
    const agent = logAgent(server.baseURL, dir);
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
