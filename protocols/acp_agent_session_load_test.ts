// createAcpAgent()'s saved sessions opened again: session/load replays a
// conversation and goes on with it, session/close saves and frees one, and
// the folder keeps the newest 200; over real session files.
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadSession, saveSession } from "../agent/session_file.ts";
import {
  type AcpTestConnection,
  connect,
  withSavingAgent,
} from "../tests/support/acp_connect.ts";
import {
  callsTool,
  contentText,
  startScriptedServer,
} from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A conversation that says hello once. */
const HELLO = [{ match: "Hello", replies: [{ text: "Hi." }] }];

/** Opens a session in `dir` that says "Hello" (and is saved); its id. */
async function sayHello(
  agent: AcpTestConnection,
  dir: string,
): Promise<string> {
  const sessionId = await agent.newSession(dir);
  await agent.prompt(sessionId, "Hello");
  return sessionId;
}

Deno.test("session/load replays a saved session, then goes on with it", async () => {
  await withSavingAgent([{
    match: "Read the notes",
    replies: [
      {
        text: "Reading.",
        toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }],
      },
      { text: "They say 42." },
      { text: "You asked about the notes." },
    ],
  }], async (first, { dir, saved, server }) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    assert.equal(first.init.agentCapabilities?.loadSession, true);
    const sessionId = await first.newSession(dir);
    await first.prompt(sessionId, "Read the notes");
    // Closed by the editor (which also frees it for another agent).
    await first.close(sessionId);
    await first.connection.close();

    // The editor restarts: a new connection to a new agent loads the session.
    const second = await connect(server, saved);
    const loaded = await second.load(sessionId, dir);
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
    await second.prompt(sessionId, "What did I ask?");
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

Deno.test("session/load refuses a session it never saved, and is not offered without a folder", async () => {
  await withSavingAgent([], async (withFolder, { dir, saved, server }) => {
    for (const sessionId of ["never-saved", "../../etc/passwd"]) {
      await assert.rejects(
        withFolder.load(sessionId, dir),
        /cannot load session .*(no such session|no such session was saved); start a new session/,
      );
    }
    // Nothing is left behind, in the folder or outside it.
    await Deno.mkdir(saved, { recursive: true });
    assert.deepEqual([...Deno.readDirSync(saved)], []);
    await assert.rejects(
      Deno.stat(join(saved, "../../etc")),
      Deno.errors.NotFound,
    );
    await Deno.writeTextFile(join(saved, "broken.json"), "{");
    await assert.rejects(
      withFolder.load("broken", dir),
      /Cannot go on with ".*broken\.json": it is not JSON.*; start a new session/,
    );

    const without = await connect(server);
    assert.equal(without.init.agentCapabilities?.loadSession, false);
    await assert.rejects(without.load("x", dir), /sessions are not saved/);
    await without.connection.close();
  });
});

Deno.test("session/close answers after the prompt it cancelled is saved, and session/load opens each session once", async () => {
  await withSavingAgent([{
    match: "Read, then wait",
    replies: [
      callsTool("ReadFile", { path: "notes.txt" }),
      { hang: true },
    ],
  }], async (first, { dir, saved, server }) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    const sessionId = await first.newSession(dir);
    const prompt = first.prompt(sessionId, "Read, then wait");
    // Close while the second model call hangs: the read step is saved first.
    await first.client.waitFor(() => server.requests.length >= 2);
    await first.close(sessionId);
    assert.equal((await prompt).stopReason, "cancelled");
    const second = await connect(server, saved);
    const load = () => second.load(sessionId, dir);
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
    await second.connection.close();
  });
});

Deno.test("session/load refuses a session another connection has open, until it is closed", async () => {
  await withSavingAgent(HELLO, async (first, { dir, saved, server }) => {
    const sessionId = await sayHello(first, dir);
    // A second editor window (its own agent, as another fello acp would be).
    const second = await connect(server, saved);
    await assert.rejects(
      second.load(sessionId, dir),
      /another fello agent is using it; close it there first/,
    );
    await first.close(sessionId);
    await second.load(sessionId, dir);
    assert.deepEqual(
      second.client.updates.map((n) => n.update.sessionUpdate),
      ["user_message_chunk", "agent_message_chunk"],
    );
    await second.connection.close();
  });
});

Deno.test("session/load that ends after its connection closed lets go of the session", async () => {
  await withSavingAgent(HELLO, async (first, { dir, saved, server }) => {
    const sessionId = await sayHello(first, dir);
    await first.connection.close();
    // An editor window that closes while its load waits for the model.
    const model = Promise.withResolvers<string>();
    const asked = Promise.withResolvers<void>();
    const closing = await connect(server, saved, {
      model: undefined,
      chooseModel: () => (asked.resolve(), model.promise),
    });
    closing.load(sessionId, dir).catch(() => {});
    await asked.promise;
    await closing.connection.close();
    await delay(200);
    model.resolve("test-model");
    // The load went on and must let go of the session: a new window loads it.
    const next = await connect(server, saved);
    for (let attempt = 1;; attempt++) {
      try {
        await next.load(sessionId, dir);
        break;
      } catch (error) {
        if (attempt === 20) throw error;
        await delay(250);
      }
    }
    await next.connection.close();
  });
});

// A load that starts while a delete runs must not open the session the delete
// removes. Timing-dependent: about half the trials met the race, so five run.
Deno.test("session/load racing session/delete never leaves an open session whose file is gone", async () => {
  await withSavingAgent([
    { match: "Hello", replies: [{ text: "Hi." }, { text: "Again." }] },
  ], async (agent, { dir, saved }) => {
    const id = await agent.newSession(dir);
    await agent.prompt(id, "Hello");
    await agent.close(id);
    const file = join(saved, `${id}.json`);
    const history = await loadSession(file);
    for (let trial = 0; trial < 5; trial++) {
      await saveSession(file, history!);
      const [deleted, loaded] = await Promise.allSettled([
        agent.remove(id),
        agent.load(id, dir),
      ]);
      const open = await agent.setMode(id, "ask").then(() => true, () => false);
      const exists = await Deno.stat(file).then(() => true, () => false);
      const state = { trial, deleted: deleted.status, loaded: loaded.status };
      // Deleted means gone: neither open nor on disk.
      if (deleted.status === "fulfilled") {
        assert.deepEqual(
          { open, exists },
          { open: false, exists: false },
          JSON.stringify(state),
        );
      } else {
        assert.deepEqual(
          { open, exists },
          { open: true, exists: true },
          JSON.stringify(state),
        );
      }
      if (open) await agent.close(id);
    }
  });
});

Deno.test("session/close of a session that never saved leaves no file behind", async () => {
  await withSavingAgent([], async (agent, { dir, saved }) => {
    for (let i = 0; i < 3; i++) await agent.close(await agent.newSession(dir));
    assert.deepEqual([...Deno.readDirSync(saved)].map((e) => e.name), []);
  });
});

Deno.test("session/new keeps the newest 200 saved sessions", async () => {
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
    await editor.newSession(dir);
    const left = [...Deno.readDirSync(saved)]
      .map((e) => e.name).filter((name) => name.endsWith(".json"));
    assert.equal(left.length, 200);
    assert.ok(!left.includes("old-0.json") && left.includes("old-204.json"));
    await editor.connection.close();
  });
});
