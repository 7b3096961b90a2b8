// How `fello run` shows a Shell call's output at the terminal, run as a
// subprocess against the scripted server.
import assert from "node:assert/strict";
import { endpointArgs, fello } from "../tests/support/fello_cli.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test({
  name: "fello run says a Shell output was truncated and where the full log is",
  async fn() {
    await withWorkspace(async (ws) => {
      await using server = startScriptedServer([{
        match: "Count to a lot",
        replies: [
          {
            toolCalls: [{
              name: "Shell",
              arguments: { command: "seq 1 100000" },
            }],
          },
          { text: "counted" },
        ],
      }]);
      const out = await fello([
        ...endpointArgs(server.baseURL, "scripted"),
        "--permission-mode",
        "allow",
        "Count to a lot",
      ], { cwd: ws, env: { TMPDIR: ws } }); // the log lands in ws, removed after
      assert.equal(out.code, 0, out.stderr);
      const line = out.stdout.split("\n").find((l) => l.includes("\u23bf")) ??
        "";
      assert.match(line, /truncated/, line);
      assert.match(line, /shell-output-.*\.log/, line);
    });
  },
});
