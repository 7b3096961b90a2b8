// session/load: the ACP agent saves each session's conversation and an editor
// opens it again in a new connection, seeing it replayed before the answer.
// The official ACP client app in process, the scripted server over HTTP.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { connect } from "./support/acp_connect.ts";
import {
  contentText,
  type ScriptedServer,
  startScriptedServer,
} from "./support/scripted_server.ts";
import { withWorkspace } from "./support/workspace.ts";

Deno.test("acp agent saves each session and session/load replays it, then goes on with it", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    await using server = startScriptedServer([{
      match: "Read the notes",
      replies: [
        {
          text: "Reading.",
          toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }],
        },
        { text: "They say 42." },
        { text: "You asked about the notes." },
      ],
    }]);
    const first = await connect(server, saved);
    assert.equal(first.init.agentCapabilities?.loadSession, true);
    const { sessionId } = await first.connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    await first.connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "Read the notes" }],
    });
    // Closed by the editor (which also frees it for another agent).
    await first.connection.agent.request(acp.methods.agent.session.close, {
      sessionId,
    });
    await first.connection.close();

    // The editor restarts: a new connection to a new agent loads the session.
    const second = await connect(server, saved);
    const loaded = await second.connection.agent.request(
      acp.methods.agent.session.load,
      { sessionId, cwd: dir, mcpServers: [] },
    );
    assert.equal(loaded.modes?.currentModeId, "ask");
    const replay = second.client.updates.map((n) => n.update);
    assert.ok(second.client.updates.every((n) => n.sessionId === sessionId));
    assert.deepEqual(replay.map((u) => u.sessionUpdate), [
      "user_message_chunk",
      "agent_message_chunk",
      "tool_call",
      "tool_call_update",
      "agent_message_chunk",
    ]);
    const [prompt, reading, call, result, answer] = replay as Record<
      string,
      unknown
    >[];
    assert.deepEqual(prompt.content, { type: "text", text: "Read the notes" });
    assert.deepEqual(reading.content, { type: "text", text: "Reading." });
    assert.equal(call.title, "Read notes.txt");
    assert.equal(call.kind, "read");
    assert.deepEqual(call.locations, [{ path: join(dir, "notes.txt") }]);
    assert.equal(result.toolCallId, call.toolCallId);
    assert.equal(result.status, "completed");
    assert.match(JSON.stringify(result.content), /the answer is 42/);
    assert.deepEqual(answer.content, { type: "text", text: "They say 42." });

    // The conversation goes on where it was.
    await second.connection.agent.request(acp.methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: "What did I ask?" }],
    });
    const sent = server.requests.at(-1)!.body.messages;
    assert.deepEqual(sent.map((m) => m.role), [
      "system",
      "user",
      "assistant",
      "tool",
      "assistant",
      "user",
    ]);
    assert.equal(
      contentText(sent.at(-1)!.content) || sent.at(-1)!.content,
      "What did I ask?",
    );
    await second.connection.close();
  });
});

Deno.test("acp agent refuses to load a session it never saved, and offers no loading without a folder", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([]);
    const withFolder = await connect(server, join(dir, ".sessions"));
    for (const sessionId of ["never-saved", "../../etc/passwd"]) {
      await assert.rejects(
        withFolder.connection.agent.request(acp.methods.agent.session.load, {
          sessionId,
          cwd: dir,
          mcpServers: [],
        }),
        /cannot load session .*(no such session|no such session was saved); start a new session/,
      );
    }
    // Nothing is left behind, in the folder or outside it.
    await Deno.mkdir(join(dir, ".sessions"), { recursive: true });
    assert.deepEqual([...Deno.readDirSync(join(dir, ".sessions"))], []);
    await assert.rejects(
      Deno.stat(join(dir, ".sessions", "../../etc")),
      Deno.errors.NotFound,
    );
    await Deno.writeTextFile(join(dir, ".sessions", "broken.json"), "{");
    await assert.rejects(
      withFolder.connection.agent.request(acp.methods.agent.session.load, {
        sessionId: "broken",
        cwd: dir,
        mcpServers: [],
      }),
      /Cannot go on with ".*broken\.json": it is not JSON.*; start a new session/,
    );
    await withFolder.connection.close();

    const without = await connect(server);
    assert.equal(without.init.agentCapabilities?.loadSession, false);
    await assert.rejects(
      without.connection.agent.request(acp.methods.agent.session.load, {
        sessionId: "x",
        cwd: dir,
        mcpServers: [],
      }),
      /sessions are not saved/,
    );
    await without.connection.close();
  });
});

Deno.test("acp agent answers session/close after the prompt it cancelled is saved, and loads each session once", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    await using server = startScriptedServer([{
      match: "Read, then wait",
      replies: [
        { toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }] },
        { hang: true },
      ],
    }]);
    const first = await connect(server, saved);
    const { sessionId } = await first.connection.agent.request(
      acp.methods.agent.session.new,
      { cwd: dir, mcpServers: [] },
    );
    const prompt = first.connection.agent.request(
      acp.methods.agent.session.prompt,
      { sessionId, prompt: [{ type: "text", text: "Read, then wait" }] },
    );
    // Close while the second model call hangs: the read step is saved first.
    while (server.requests.length < 2) await delay(10);
    await first.connection.agent.request(acp.methods.agent.session.close, {
      sessionId,
    });
    assert.equal((await prompt).stopReason, "cancelled");
    const second = await connect(server, saved);
    const load = () =>
      second.connection.agent.request(acp.methods.agent.session.load, {
        sessionId,
        cwd: dir,
        mcpServers: [],
      });
    // Two loads at once: one opens the session, the other is refused.
    const outcomes = await Promise.allSettled([load(), load()]);
    assert.deepEqual(outcomes.map((o) => o.status).sort(), [
      "fulfilled",
      "rejected",
    ]);
    const kinds = second.client.updates.map((n) => n.update.sessionUpdate);
    assert.deepEqual(kinds, [
      "user_message_chunk",
      "tool_call",
      "tool_call_update",
    ]);
    // Loading the open, idle session again replays it from memory.
    await load();
    assert.equal(second.client.updates.length, 6);
    await first.connection.close();
    await second.connection.close();
  });
});

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A first editor window with one session that said "Hello" (saved). */
async function helloSession(
  server: ScriptedServer,
  saved: string,
  dir: string,
) {
  const first = await connect(server, saved);
  const { sessionId } = await first.connection.agent.request(
    acp.methods.agent.session.new,
    { cwd: dir, mcpServers: [] },
  );
  await first.connection.agent.request(acp.methods.agent.session.prompt, {
    sessionId,
    prompt: [{ type: "text", text: "Hello" }],
  });
  return { first, sessionId };
}

Deno.test("acp agent refuses to load a session another connection has open, until it is closed", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    await using server = startScriptedServer([{
      match: "Hello",
      replies: [{ text: "Hi." }],
    }]);
    const { first, sessionId } = await helloSession(server, saved, dir);
    // A second editor window (its own agent, as another fello acp would be).
    const second = await connect(server, saved);
    const load = () =>
      second.connection.agent.request(acp.methods.agent.session.load, {
        sessionId,
        cwd: dir,
        mcpServers: [],
      });
    await assert.rejects(
      load(),
      /another fello agent is using it; close it there first/,
    );
    await first.connection.agent.request(acp.methods.agent.session.close, {
      sessionId,
    });
    await load();
    assert.deepEqual(
      second.client.updates.map((n) => n.update.sessionUpdate),
      ["user_message_chunk", "agent_message_chunk"],
    );
    await first.connection.close();
    await second.connection.close();
  });
});

Deno.test("acp agent closes a session whose load ends after the connection closed", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    await using server = startScriptedServer([{
      match: "Hello",
      replies: [{ text: "Hi." }],
    }]);
    const { first, sessionId } = await helloSession(server, saved, dir);
    await first.connection.close();
    // An editor window that closes while its load waits for the model.
    const model = Promise.withResolvers<string>();
    const asked = Promise.withResolvers<void>();
    const closing = await connect(server, saved, {
      model: undefined,
      chooseModel: () => (asked.resolve(), model.promise),
    });
    const params = { sessionId, cwd: dir, mcpServers: [] };
    closing.connection.agent.request(acp.methods.agent.session.load, params)
      .catch(() => {});
    await asked.promise;
    await closing.connection.close();
    await delay(200);
    model.resolve("test-model");
    // The load went on and must let go of the session: a new window loads it.
    const next = await connect(server, saved);
    for (let attempt = 1;; attempt++) {
      try {
        await next.connection.agent.request(
          acp.methods.agent.session.load,
          params,
        );
        break;
      } catch (error) {
        if (attempt === 20) throw error;
        await delay(250);
      }
    }
    await next.connection.close();
  });
});

Deno.test("acp agent keeps the newest 200 saved sessions as new ones start", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    await Deno.mkdir(saved);
    const file = JSON.stringify({
      kind: "fello session",
      version: 1,
      cwd: dir,
      model: "m",
      messages: [],
    });
    for (let i = 0; i < 205; i++) {
      const path = join(saved, `old-${i}.json`);
      await Deno.writeTextFile(path, file);
      await Deno.utime(path, 1_000 + i, 1_000 + i);
    }
    await using server = startScriptedServer([]);
    const editor = await connect(server, saved);
    await editor.connection.agent.request(acp.methods.agent.session.new, {
      cwd: dir,
      mcpServers: [],
    });
    const left = [...Deno.readDirSync(saved)]
      .map((e) => e.name).filter((name) => name.endsWith(".json"));
    assert.equal(left.length, 200);
    assert.ok(!left.includes("old-0.json") && left.includes("old-204.json"));
    await editor.connection.close();
  });
});
