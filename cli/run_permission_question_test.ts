// The permission question `fello run` asks at the terminal, run as a
// subprocess against the scripted server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fello } from "../tests/support/fello_cli.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test({
  name:
    "fello run shows the whole Shell command when it asks to approve it, however long",
  async fn() {
    await withWorkspace(async (dir) => {
      const command = `echo ${"x".repeat(300)}; touch pwned.txt`;
      await using server = startScriptedServer([{
        match: "run the long one",
        replies: [
          {
            toolCalls: [{
              id: "call_long",
              name: "Shell",
              arguments: { command },
            }],
          },
          { text: "done" },
        ],
      }]);
      const out = await fello(
        ["--base-url", server.baseURL, "--model", "m", "run the long one"],
        { cwd: dir, stdin: "n\n" },
      );
      assert.equal(out.code, 0, out.stderr);
      const question = out.stderr.split("\n").find((line) =>
        line.includes("Allow Shell")
      );
      assert.ok(question, out.stderr);
      assert.ok(
        question.includes("touch pwned.txt"),
        `the question hides the end of the command: ${question}`,
      );
      await assert.rejects(
        Deno.stat(join(dir, "pwned.txt")),
        Deno.errors.NotFound,
      );
    });
  },
});
