// session/cancel in `fello acp`, driven by the official ACP client over
// stdio: what a cancel stops (a Shell tree, a stalled reply), and that the
// session answers its next prompt.
import assert from "node:assert/strict";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { createAcpAgent } from "./acp_agent.ts";
import { TestClient } from "../tests/support/acp_test_client.ts";
import {
  endpointArgs,
  spawnFello,
  statusWithin,
} from "../tests/support/fello_cli.ts";
import {
  killLeftovers,
  readPidFiles,
  survivors,
  TREE_SIZE,
  treeCommand,
  waitForPids,
} from "../tests/support/processes.ts";
import {
  callsTool,
  startScriptedServer,
  toolTexts,
} from "../tests/support/scripted_server.ts";
import { startStallingServer } from "../tests/support/stalling_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("fello acp runs two sessions at once: session/cancel stops one's process tree, the other finishes, and the cancelled one answers its next prompt", async () => {
  await withWorkspace(async (dir) => {
    await Deno.mkdir(join(dir, "a"));
    await Deno.mkdir(join(dir, "b"));
    await using server = startScriptedServer([
      {
        match: "session A works",
        replies: [callsTool("Shell", { command: treeCommand("pids") })],
      },
      {
        match: "session B works",
        replies: [
          callsTool("Shell", { command: "sleep 1; echo B-done" }),
          { text: "B finished" },
        ],
      },
      { match: "A again", replies: [{ text: "A is back" }] },
    ]);
    const child = spawnFello([
      "acp",
      ...endpointArgs(server.baseURL),
      "--permission-mode",
      "allow",
    ], {
      cwd: dir,
      env: { FELLO_STATE_DIR: join(dir, "state") },
      stdin: "piped",
    });
    const client = new TestClient();
    try {
      const connection = client.app.connect(
        acp.ndJsonStream(child.stdin, child.stdout),
      );
      await connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const open = async (cwd: string) =>
        (await connection.agent.request(acp.methods.agent.session.new, {
          cwd,
          mcpServers: [],
        })).sessionId;
      const a = await open(join(dir, "a"));
      const b = await open(join(dir, "b"));
      const prompt = (sessionId: string, text: string) =>
        connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text }],
        });
      const turnA = prompt(a, "session A works");
      const turnB = prompt(b, "session B works");
      const pids = await waitForPids(join(dir, "a", "pids"), TREE_SIZE);
      await connection.agent.notify(acp.methods.agent.session.cancel, {
        sessionId: a,
      });
      assert.equal((await turnA).stopReason, "cancelled");
      assert.deepEqual(await survivors(pids), [], `A's tree (${pids}) killed`);
      assert.equal((await turnB).stopReason, "end_turn");
      const lastB = server.requests.filter((r) =>
        r.conversation === "session B works"
      ).at(-1)!;
      assert.match(toolTexts(lastB)[0], /Exit code 0\.[\s\S]*B-done/);
      assert.equal((await prompt(a, "A again")).stopReason, "end_turn");
      assert.match(client.text, /B finished/);
      assert.match(client.text, /A is back/);
    } finally {
      killLeftovers(await readPidFiles([join(dir, "a", "pids")]));
      await child.stdin.close().catch(() => {});
      await statusWithin(child, 10_000);
      await child.stderr.cancel().catch(() => {});
      client.dispose();
    }
  });
});

Deno.test("acp session/cancel during a reply that stalls mid-stream answers cancelled at once, and the session answers the next prompt", async () => {
  await withWorkspace(async (dir) => {
    const server = startStallingServer();
    try {
      const client = new TestClient();
      const connection = client.app.connect(createAcpAgent({
        baseURL: server.baseURL,
        model: "m",
        permissionMode: "allow",
      }));
      await connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {},
      });
      const { sessionId } = await connection.agent.request(
        acp.methods.agent.session.new,
        { cwd: dir, mcpServers: [] },
      );
      const prompt = (text: string) =>
        connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text }],
        });
      const stalled = prompt("please stall");
      await client.waitFor(() => client.text.includes("partial answer"));
      const cancelledAt = performance.now();
      await connection.agent.notify(acp.methods.agent.session.cancel, {
        sessionId,
      });
      assert.equal((await stalled).stopReason, "cancelled");
      assert.ok(performance.now() - cancelledAt < 5_000, "answered at once");
      assert.equal((await prompt("now answer")).stopReason, "end_turn");
      assert.match(client.text, /fine$/);
    } finally {
      await server.close();
    }
  });
});
