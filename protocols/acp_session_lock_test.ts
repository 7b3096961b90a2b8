// An ACP agent's sessions and their lock files, with another fello process
// holding the same session: session/load, prune, delete and close.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { connect } from "../tests/support/acp_connect.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { gateFailedLock } from "../tests/support/lock_gate.ts";
import { Holder } from "../tests/support/session_holder.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("session/load goes on with the conversation as it is once the lock is held", async () => {
  await withWorkspace(async (dir) => {
    const sessions = join(dir, "sessions");
    const path = join(sessions, "s1.json");
    await using other = new Holder(path);
    assert.equal(await other.send("hold 1"), "held");
    assert.equal(await other.send("save 1"), "saved");
    await using server = startScriptedServer([{
      match: "",
      replies: Array.from({ length: 4 }, () => ({ text: "ok" })),
    }]);
    const { client, connection } = await connect(server, sessions);
    // The load (in this process) waits on its first failed lock attempt
    // until the other process has saved and closed: the load's own retries
    // span only 200 ms, too short for two round trips and an fsync on a
    // loaded machine.
    const gate = gateFailedLock();
    try {
      const loaded = connection.agent.request(
        acp.methods.agent.session.load,
        { sessionId: "s1", cwd: dir, mcpServers: [] },
      );
      await Promise.race([gate.reached, loaded]);
      // The other process's last turn is saved as it closes the session.
      assert.equal(await other.send("save 2"), "saved");
      assert.equal(await other.send("close"), "closed");
      gate.go();
      await loaded;
      const requests = (messages: { role: string; content: unknown }[]) =>
        messages.filter((m) => m.role === "user").map((m) => m.content);
      await connection.agent.request(acp.methods.agent.session.prompt, {
        sessionId: "s1",
        prompt: [{ type: "text", text: "again" }],
      });
      const saved = JSON.parse(await Deno.readTextFile(path));
      const replayed = client.updates.flatMap((n) =>
        n.update.sessionUpdate === "user_message_chunk" &&
          n.update.content.type === "text"
          ? [n.update.content.text]
          : []
      );
      assert.deepEqual(requests(saved.messages).slice(0, 2), [
        "turn 1",
        "turn 2",
      ]);
      assert.deepEqual(replayed, ["turn 1", "turn 2"]);
    } finally {
      gate.restore();
      gate.go();
      await connection.close();
    }
  });
});

Deno.test("a live ACP session's lock file survives another agent's prune and delete, and goes with its close", async () => {
  await withWorkspace(async (dir) => {
    const sessions = join(dir, "sessions");
    await using server = startScriptedServer([]);
    const a = await connect(server, sessions);
    const b = await connect(server, sessions);
    try {
      const { sessionId } = await a.connection.agent.request(
        acp.methods.agent.session.new,
        { cwd: dir, mcpServers: [] },
      );
      const lock = join(sessions, `${sessionId}.json.lock`);
      // b's session/new prunes the folder: a's never-saved session is live.
      await b.connection.agent.request(acp.methods.agent.session.new, {
        cwd: dir,
        mcpServers: [],
      });
      assert.ok(await Deno.stat(lock));
      await assert.rejects(
        b.connection.agent.request(acp.methods.agent.session.delete, {
          sessionId,
        }),
        /another fello agent is using it; close it there first/,
      );
      await assert.rejects(
        b.connection.agent.request(acp.methods.agent.session.load, {
          sessionId,
          cwd: dir,
          mcpServers: [],
        }),
        // A load holds the file before it reads it: this one is open there.
        /another fello agent is using it; close it there first/,
      );
      assert.ok(await Deno.stat(lock));
      await a.connection.agent.request(acp.methods.agent.session.close, {
        sessionId,
      });
      await assert.rejects(Deno.stat(lock), Deno.errors.NotFound);
    } finally {
      await a.connection.close();
      await b.connection.close();
    }
  });
});
