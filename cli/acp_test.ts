// `fello acp` as a subprocess, driven by the official ACP client app.
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { spawnFello } from "../tests/support/fello_cli.ts";
import { unusedBaseURL } from "../tests/support/scripted_server.ts";
import { TestClient } from "../tests/support/acp_test_client.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("fello acp: an unreachable endpoint's error says how to configure it", async () => {
  await withWorkspace(async (dir) => {
    const child = spawnFello(["acp"], {
      cwd: dir,
      env: { FELLO_BASE_URL: unusedBaseURL(), FELLO_STATE_DIR: dir },
      stdin: "piped",
      stderr: "null",
    });
    const client = new TestClient();
    try {
      const connection = client.app.connect(
        acp.ndJsonStream(child.stdin, child.stdout),
      );
      await connection.agent.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: client.capabilities,
      });
      const error = await connection.agent.request(
        acp.methods.agent.session.new,
        { cwd: dir, mcpServers: [] },
      ).then(() => undefined, (e: Error) => e);
      assert.ok(error, "session/new should fail: nothing listens there");
      assert.match(error.message, /Cannot reach the model endpoint/);
      assert.match(error.message, /FELLO_BASE_URL|--base-url/);
      connection.close();
      await child.stdin.close();
    } finally {
      client.dispose();
      try {
        child.kill("SIGKILL");
      } catch {
        // Already gone.
      }
      await child.status;
    }
  });
});
