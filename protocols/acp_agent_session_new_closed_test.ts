// The ACP agent closes a session whose session/new finishes after the
// connection closed, letting go of its lock file.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { exists } from "../internal/exists.ts";
import { connect } from "../tests/support/acp_connect.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

Deno.test("createAcpAgent() closes a new session that finishes starting after the connection closed", async () => {
  await withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    await using server = startScriptedServer([]);
    const model = Promise.withResolvers<string>();
    const asked = Promise.withResolvers<void>();
    const { connection } = await connect(server, saved, {
      model: undefined,
      chooseModel: () => (asked.resolve(), model.promise),
    });
    const answer = connection.agent.request(acp.methods.agent.session.new, {
      cwd: dir,
      mcpServers: [],
    }).then(() => "answered", () => "refused");
    await asked.promise;
    await connection.close();
    model.resolve("test-model");
    assert.equal(await answer, "refused");
    // It goes on starting: it makes the sessions folder and takes a lock
    // file there, then must close, letting go of the lock (never saved: the
    // file is removed). Unclosed, the lock file stays (and leaks a handle).
    for (let attempt = 0; !await exists(saved); attempt++) {
      if (attempt === 100) assert.fail("the session never started");
      await delay(50);
    }
    // Closing takes a moment after that: wait for the lock file to go.
    const locks = async () => {
      const left = [];
      for await (const entry of Deno.readDir(saved)) left.push(entry.name);
      return left.filter((name) => name.endsWith(".lock"));
    };
    for (let attempt = 0; (await locks()).length > 0; attempt++) {
      if (attempt === 100) assert.deepEqual(await locks(), []);
      await delay(50);
    }
  });
});
