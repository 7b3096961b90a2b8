// `fello acp` as a subprocess, driven by the official ACP client app.
import assert from "node:assert/strict";
import * as acp from "@agentclientprotocol/sdk";
import { fello, spawnFello } from "../tests/support/fello_cli.ts";
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

Deno.test("fello acp without read access to protocols/ names the grant and exits 2", async () => {
  await withWorkspace(async (dir) => {
    // The agent's module loads after start-up (its SDK is fetched only
    // then), under Deno's read permission.
    const out = await fello(["acp"], {
      cwd: dir,
      env: { FELLO_BASE_URL: unusedBaseURL(), FELLO_STATE_DIR: dir },
      flags: ["--allow-env", "--allow-sys", `--allow-read=${dir}`],
    });
    assert.equal(out.code, 2, out.stderr);
    assert.match(
      out.stderr,
      /^fello acp: Deno denies reading "[^"]*\/protocols\/": run deno again with --allow-read=\S*\/protocols\/ /m,
    );
    assert.equal(out.stdout, "");
  });
});

Deno.test("fello acp stops with exit 2 naming a broken settings file and its key", async () => {
  await withWorkspace(async (dir) => {
    await Deno.mkdir(`${dir}/.fello`);
    await Deno.writeTextFile(
      `${dir}/.fello/config.json`,
      '{ "sandbox": "sometimes" }',
    );
    const out = await fello(["acp"], {
      cwd: dir,
      env: { FELLO_BASE_URL: unusedBaseURL(), FELLO_STATE_DIR: dir },
    });
    assert.equal(out.code, 2, out.stderr);
    assert.equal(
      out.stderr.trim(),
      `fello acp: ${dir}/.fello/config.json: "sandbox": expected one of "auto", "off", "required", not "sometimes"`,
    );
    assert.equal(out.stdout, "");
  });
});
