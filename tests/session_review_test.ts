// Review of saved conversations: agent.history through JSON into a new agent
// (reasoning, parallel and failed calls, invalid input, unknown tools, ids a
// server reuses, aborted and capped runs, cleared calls and summaries), the
// CLI's --session across a Ctrl-C, and ACP's session/load after a cancelled
// prompt. Real HTTP against the scripted server, the real AI SDK client, the
// CLI as a subprocess and the official ACP client app.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { type AgentMessage, createAgent } from "../mod.ts";
import { createAcpAgent } from "../protocols/acp_agent.ts";
import { TestClient } from "./support/acp_test_client.ts";
import { baseEnv, fello, MOD } from "./support/fello_cli.ts";
import { assertAllValid, logTool } from "./support/log_tool.ts";
import {
  type ChatMessage,
  contentText,
  type ScriptedReply,
  type ScriptedServer,
  startScriptedServer,
} from "./support/scripted_server.ts";
import { withWorkspace } from "./support/workspace.ts";

/** What a saved conversation becomes after a trip through a file. */
function throughJson(history: AgentMessage[]): AgentMessage[] {
  return JSON.parse(JSON.stringify(history));
}

function text(message: ChatMessage | undefined): string {
  return contentText(message?.content) || String(message?.content ?? "");
}

/** A promise and the function that resolves it. */
function signal(): { promise: Promise<void>; fire: () => void } {
  let fire!: () => void;
  const promise = new Promise<void>((resolve) => (fire = resolve));
  return { promise, fire };
}

Deno.test("agent.history through JSON keeps reasoning, parallel, failed, invalid and unknown calls, and ids reused across steps, as valid requests", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "hello\n");
    await using server = startScriptedServer([{
      match: "Look around",
      replies: [
        {
          reasoning: "Two reads at once.",
          text: "Reading.",
          toolCalls: [
            { id: "call_0", name: "ReadFile", arguments: { path: "a.txt" } },
            {
              id: "call_1",
              name: "fetch_log",
              arguments: { label: "boom", size: 2, fail: true },
            },
            { id: "call_2", name: "ReadFile", arguments: "{broken" },
          ],
        },
        // This server numbers calls per answer: the ids come again.
        { toolCalls: [{ id: "call_0", name: "NoSuchTool", arguments: {} }] },
        { reasoning: "Done.", text: "a.txt says hello." },
        { text: "You asked me to look around." },
      ],
    }]);
    const options = {
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      extraTools: [logTool()],
    };
    const first = createAgent(options);
    await first.run("Look around");
    const history = throughJson(first.history);
    assert.deepEqual(history.map((m) => m.role), [
      "user",
      "assistant",
      "tool",
      "assistant",
      "tool",
      "assistant",
    ]);

    const second = createAgent({ ...options, history });
    const result = await second.run("What did I ask?");
    assert.equal(result.text, "You asked me to look around.");
    const sent = server.requests.at(-1)!.body.messages;
    assertAllValid([server.requests.at(-1)!]);
    assert.deepEqual(sent.map((m) => m.role), [
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "tool",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    const tools = sent.filter((m) => m.role === "tool").map(text);
    assert.match(tools[0], /hello/);
    assert.match(tools[1], /boom/);
    assert.match(tools[2], /Invalid input for tool ReadFile/);
    assert.match(tools[3], /unavailable tool 'NoSuchTool'/);
    assert.equal(
      (sent[2] as { reasoning_content?: string }).reasoning_content,
      "Two reads at once.",
    );
    // The new agent's history is the old one plus this turn, still loadable.
    assert.deepEqual(second.history.slice(0, history.length), history);
    createAgent({ ...options, history: throughJson(second.history) });
  });
});

Deno.test("an aborted run leaves out its unfinished step, and a run cut at maxSteps ends in answered calls: both load and go on", async () => {
  await withWorkspace(async (dir) => {
    const waiting = signal();
    // A continuation ("Go on") is answered whatever the turn; the scripted
    // steps otherwise.
    const orGoOn = (reply: ScriptedReply): ScriptedReply => ({
      compute: (request) =>
        text(request.body.messages.at(-1)) === "Go on"
          ? { text: "going on" }
          : reply,
    });
    await using server = startScriptedServer([
      {
        match: "Abort me",
        replies: [
          {
            toolCalls: [{
              name: "fetch_log",
              arguments: { label: "one", size: 1 },
            }],
          },
          // Two calls at once: one ends, one runs until the abort.
          orGoOn({
            toolCalls: [
              { name: "fetch_log", arguments: { label: "two", size: 1 } },
              {
                name: "fetch_log",
                arguments: { label: "three", size: 1, wait: true },
              },
            ],
          }),
        ],
      },
      {
        match: "Cap me",
        replies: [
          {
            toolCalls: [{
              name: "fetch_log",
              arguments: { label: "capped", size: 1 },
            }],
          },
          orGoOn({ text: "never sent" }),
        ],
      },
    ]);
    const options = {
      baseURL: server.baseURL,
      model: "m",
      cwd: dir,
      extraTools: [logTool(waiting.fire)],
    };
    const aborted = createAgent(options);
    const controller = new AbortController();
    waiting.promise.then(() => controller.abort());
    await assert.rejects(
      aborted.run("Abort me", { signal: controller.signal }),
      { name: "AbortError" },
    );
    const afterAbort = throughJson(aborted.history);
    assert.deepEqual(afterAbort.map((m) => m.role), [
      "user",
      "assistant",
      "tool",
    ]);
    assert.doesNotMatch(JSON.stringify(afterAbort), /two|three/);

    const capped = createAgent({ ...options, maxSteps: 1 });
    const cut = await capped.run("Cap me");
    assert.equal(cut.finishReason, "tool-calls");
    const afterCap = throughJson(capped.history);
    assert.deepEqual(afterCap.map((m) => m.role), [
      "user",
      "assistant",
      "tool",
    ]);

    for (const history of [afterAbort, afterCap]) {
      const next = createAgent({ ...options, history });
      assert.equal((await next.run("Go on")).text, "going on");
      const request = server.requests.at(-1)!;
      assertAllValid([request]);
      assert.deepEqual(request.body.messages.map((m) => m.role), [
        "system",
        "user",
        "assistant",
        "tool",
        "user",
      ]);
    }
  });
});

Deno.test("histories with cleared calls and summaries load in a new agent each turn, and every request stays valid", async () => {
  await withWorkspace(async (dir) => {
    // Each turn: six steps of long text and two calls (one failing), then a
    // long answer.
    let n = 0;
    const step = (): ScriptedReply => {
      n++;
      return n <= 6
        ? {
          text: `Step ${n}: ${"thinking aloud ".repeat(300)}`,
          toolCalls: [
            { name: "fetch_log", arguments: { label: `l${n}`, size: 4_000 } },
            {
              name: "fetch_log",
              arguments: { label: `f${n}`, size: 10, fail: true },
            },
          ],
        }
        : { text: `turn done ${"z".repeat(3_000)}` };
    };
    await using server = startScriptedServer([
      { match: "## User", replies: [{ text: "SUMMARY so far" }] },
      {
        match: "",
        replies: Array.from({ length: 40 }, () => ({ compute: step })),
      },
    ]);
    let history: AgentMessage[] = [];
    let summaries = 0;
    for (let turn = 1; turn <= 3; turn++) {
      n = 0;
      const agent = createAgent({
        baseURL: server.baseURL,
        model: "m",
        cwd: dir,
        extraTools: [logTool()],
        contextTokens: 12_000,
        maxSteps: 20,
        history,
      });
      for await (const event of agent.stream(`Turn ${turn}`)) {
        if (event.type === "context-summarized") summaries++;
      }
      history = throughJson(agent.history);
    }
    const main = server.requests.filter((r) => r.conversation !== "## User");
    assert.equal(main.length, 21);
    assert.ok(summaries >= 2, `${summaries} summaries`);
    assertAllValid(main);
    const all = JSON.stringify(main.map((r) => r.body.messages));
    assert.match(all, /Output cleared to keep the conversation/);
    assert.match(all, /SUMMARY so far/);
    // The last turn's requests still hold its own prompt after the summary.
    assert.match(JSON.stringify(main.at(-1)!.body.messages), /Turn 3/);
  });
});

Deno.test("createAgent({ history }) refuses a call whose answer comes after another message, and names it", () => {
  const call = {
    role: "assistant" as const,
    content: [{
      type: "tool-call",
      toolCallId: "c1",
      toolName: "ReadFile",
      input: { path: "a.txt" },
    }],
  };
  const result = {
    role: "tool" as const,
    content: [{
      type: "tool-result",
      toolCallId: "c1",
      toolName: "ReadFile",
      output: { type: "text", value: "hi" },
    }],
  };
  assert.throws(
    () =>
      createAgent({
        model: "m",
        history: [{ role: "user", content: "go" }, call, {
          role: "user",
          content: "and?",
        }, result],
      }),
    /message 1 makes call "c1", which no tool message right after it answers/,
  );
  assert.throws(
    () =>
      createAgent({
        model: "m",
        history: [{ role: "user", content: "go" }, call],
      }),
    /message 1 makes call "c1"/,
  );
  // The same pair twice (ids reused by a server) is a conversation.
  createAgent({
    model: "m",
    history: [{ role: "user", content: "go" }, call, result, call, result],
  });
});

Deno.test("fello run --session keeps the steps a Ctrl-C'd run completed, and the next run goes on with them", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    const secondStep = signal();
    await using server = startScriptedServer([{
      match: "Read the notes",
      replies: [
        { toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }] },
        {
          compute: (request) =>
            text(request.body.messages.at(-1)) === "And?"
              ? { text: "It said 42." }
              : (secondStep.fire(), { hang: true }),
        },
      ],
    }]);
    const args = ["--base-url", server.baseURL, "--model", "m"];
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        MOD,
        ...args,
        "--session",
        "s.json",
        "Read the notes",
      ],
      cwd: dir,
      env: baseEnv(),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    await secondStep.promise;
    child.kill("SIGINT");
    const output = await child.output();
    assert.equal(output.code, 130);
    const saved = JSON.parse(await Deno.readTextFile(join(dir, "s.json")));
    assert.deepEqual(saved.messages.map((m: AgentMessage) => m.role), [
      "user",
      "assistant",
      "tool",
    ]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "notes.txt",
      "s.json",
      "s.json.lock",
    ]);

    const next = await fello([...args, "--session", "s.json", "And?"], {
      cwd: dir,
    });
    assert.equal(next.code, 0, next.stderr);
    assert.equal(next.stdout, "It said 42.\n");
    const request = server.requests.at(-1)!;
    assertAllValid([request]);
    assert.match(text(request.body.messages[3]), /the answer is 42/);

    // A folder is no session file: refused, nothing asked or written.
    await Deno.mkdir(join(dir, "folder"));
    const asked = server.requests.length;
    const refused = await fello([...args, "--session", "folder", "hi"], {
      cwd: dir,
    });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Cannot read the session file ".*folder"/);
    assert.equal(server.requests.length, asked);
    assert.deepEqual([...Deno.readDirSync(join(dir, "folder"))], []);
  });
});

/** A fresh client connected to a fresh agent app that saves in `sessionsDir`. */
async function connect(server: ScriptedServer, sessionsDir: string) {
  const client = new TestClient();
  const agent = createAcpAgent({
    baseURL: server.baseURL,
    model: "m",
    sessionsDir,
    permissionMode: "allow",
  });
  const connection = client.app.connect(agent);
  await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: client.capabilities,
  });
  return { client, connection };
}

Deno.test("acp session/load after a cancelled prompt replays its completed step, ids and outcomes as they were live, and goes on", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    const sessionsDir = join(dir, ".sessions");
    const secondStep = signal();
    await using server = startScriptedServer([{
      match: "Read the notes",
      replies: [
        {
          reasoning: "Both files.",
          text: "Reading.",
          toolCalls: [
            { name: "ReadFile", arguments: { path: "notes.txt" } },
            { name: "ReadFile", arguments: { path: "missing.txt" } },
          ],
        },
        {
          compute: (request) =>
            text(request.body.messages.at(-1)) === "And?"
              ? { text: "It said 42." }
              : (secondStep.fire(), { hang: true }),
        },
      ],
    }]);
    const live = await connect(server, sessionsDir);
    const { sessionId } = await live.connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    const response = live.connection.agent.request(
      acp.methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text: "Read the notes" }] },
    );
    await secondStep.promise;
    await live.connection.agent.notify(acp.methods.agent.session.cancel, {
      sessionId,
    });
    assert.equal((await response).stopReason, "cancelled");
    const outcomes = (client: TestClient) =>
      client.updatesOf("tool_call_update")
        .filter((u) => u.status === "completed" || u.status === "failed")
        .map((u) => `${u.toolCallId} ${u.status}`).sort();
    const liveOutcomes = outcomes(live.client);
    assert.equal(liveOutcomes.length, 2);
    // Closed first, which frees its file for another agent.
    await live.connection.agent.request(acp.methods.agent.session.close, {
      sessionId,
    });
    live.connection.close();

    const reopened = await connect(server, sessionsDir);
    await reopened.connection.agent.request(acp.methods.agent.session.load, {
      sessionId,
      cwd: dir,
      mcpServers: [],
    });
    const replay = reopened.client.updates.map((n) => n.update);
    assert.deepEqual(replay.map((u) => u.sessionUpdate), [
      "user_message_chunk",
      "agent_thought_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call",
      "tool_call_update",
      "tool_call_update",
    ]);
    assert.deepEqual(outcomes(reopened.client), liveOutcomes);
    assert.deepEqual(
      reopened.client.updatesOf("tool_call").map((u) => u.toolCallId),
      live.client.updatesOf("tool_call").map((u) => u.toolCallId),
    );
    assert.deepEqual(
      reopened.client.updatesOf("tool_call").map((u) => u.locations),
      [[{ path: join(dir, "notes.txt") }], [{
        path: join(dir, "missing.txt"),
      }]],
    );
    assert.match(
      JSON.stringify(reopened.client.updatesOf("tool_call_update")[0].content),
      /the answer is 42/,
    );

    await reopened.connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "And?" }],
    });
    assert.match(reopened.client.text, /It said 42\./);
    const request = server.requests.at(-1)!;
    assertAllValid([request]);
    assert.deepEqual(request.body.messages.map((m) => m.role), [
      "system",
      "user",
      "assistant",
      "tool",
      "tool",
      "user",
    ]);
    reopened.connection.close();
  });
});
