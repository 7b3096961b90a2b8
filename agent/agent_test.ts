// createAgent()'s interactive controls: switching the model, compacting the
// conversation now, the context in use, and keeping a cancelled prompt.
import assert from "node:assert/strict";
import { createAgent } from "./agent.ts";
import {
  contentText,
  startScriptedServer,
} from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import { SUMMARIZER_MATCH } from "../tests/support/summary_script.ts";

Deno.test("Agent.model switches the model of later requests", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([
      { match: "", replies: [{ text: "one" }, { text: "two" }] },
    ]);
    const agent = createAgent({ baseURL: server.baseURL, model: "a", cwd });
    await agent.run("first");
    assert.equal(agent.model, "a");
    agent.model = "b";
    assert.equal(agent.model, "b");
    await agent.run("second");
    assert.deepEqual(server.requests.map((r) => r.body.model), ["a", "b"]);
    assert.throws(() => agent.model = " ", /give a model name/);
  });
});

Deno.test("Agent.compact() replaces what came before the last prompt by a summary", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([
      { match: SUMMARIZER_MATCH, replies: [{ text: "SUMMARY of one" }] },
      { match: "first", replies: [{ text: "one" }, { text: "two" }] },
    ]);
    const agent = createAgent({ baseURL: server.baseURL, model: "m", cwd });
    assert.equal(await agent.compact(), undefined); // nothing yet
    await agent.run("first");
    await agent.run("second");
    const before = await agent.contextUse();
    const event = await agent.compact();
    assert.equal(event?.type, "context-summarized");
    assert.equal(event?.messages, 2);
    assert.equal(event?.summary, "SUMMARY of one");
    const history = agent.history;
    assert.deepEqual(history.map((m) => m.role), ["user", "assistant"]);
    assert.match(String(history[0].content), /SUMMARY of one[^]*second$/);
    assert.equal((await agent.contextUse()).limit, before.limit);
  });
});

Deno.test("Agent.compact() of a single prompt's turn summarizes it whole", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([
      { match: SUMMARIZER_MATCH, replies: [{ text: "SUMMARY" }] },
      { match: "only", replies: [{ text: "answer" }] },
    ]);
    const agent = createAgent({ baseURL: server.baseURL, model: "m", cwd });
    await agent.run("only prompt");
    await agent.compact();
    const history = agent.history;
    assert.deepEqual(history.map((m) => m.role), ["user", "assistant"]);
    assert.match(String(history[0].content), /SUMMARY/);
    assert.doesNotMatch(String(history[0].content), /only prompt/);
  });
});

Deno.test("Agent.contextUse() grows with the conversation, within the budget given", async () => {
  await withWorkspace(async (cwd) => {
    await using server = startScriptedServer([
      { match: "", replies: [{ text: "x".repeat(4_000) }] },
    ]);
    const agent = createAgent({
      baseURL: server.baseURL,
      model: "m",
      cwd,
      contextTokens: 50_000,
    });
    const empty = await agent.contextUse();
    assert.equal(empty.limit, 50_000);
    assert.ok(empty.tokens > 0, "the instructions and tools count");
    await agent.run("a prompt");
    const after = await agent.contextUse();
    assert.ok(after.tokens >= empty.tokens + 1_000, `${after.tokens}`);
  });
});

Deno.test("Agent.stream() with keepCancelled keeps a cancelled prompt, marked as cancelled", async () => {
  await withWorkspace(async (cwd) => {
    const controller = new AbortController();
    await using server = startScriptedServer([
      {
        match: "slow question",
        replies: [{
          compute: () => {
            controller.abort();
            return { hang: true };
          },
        }, { text: "ok" }],
      },
    ]);
    const agent = createAgent({ baseURL: server.baseURL, model: "m", cwd });
    await assert.rejects(
      agent.run("slow question", {
        signal: controller.signal,
        keepCancelled: true,
      }),
    );
    const history = agent.history;
    assert.deepEqual(history.map((m) => m.role), ["user", "assistant"]);
    assert.equal(history[0].content, "slow question");
    assert.match(String(history[1].content), /cancelled/);
    // The next request carries the cancelled prompt and its mark.
    await agent.run("next");
    const sent = server.requests.at(-1)!.body.messages;
    assert.deepEqual(
      sent.map((m) => `${m.role}: ${contentText(m.content)}`).slice(1),
      [
        "user: slow question",
        `assistant: ${history[1].content}`,
        "user: next",
      ],
    );
  });
});
