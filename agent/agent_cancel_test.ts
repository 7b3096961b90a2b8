// Cancelling an agent's run: what a cancelled turn may still change, and
// that the agent goes on afterwards. The model is the scripted server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createAgent } from "./agent.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test({
  name:
    "agent.run() cancelled during a WriteFile approval leaves the file unchanged",
  async fn() {
    await withWorkspace(async (ws) => {
      await Deno.writeTextFile(join(ws, "a.txt"), "old\n");
      await using server = startScriptedServer([{
        match: "Rewrite a.txt",
        replies: [
          {
            toolCalls: [{
              name: "WriteFile",
              arguments: { path: "a.txt", content: "new\n" },
            }],
          },
          { text: "done" },
        ],
      }]);
      const controller = new AbortController();
      const agent = createAgent({
        baseURL: server.baseURL,
        model: "scripted",
        cwd: ws,
        permissionMode: "ask",
        approve: async () => {
          controller.abort(); // the user cancels while the dialog is open
          await new Promise((resolve) => setTimeout(resolve, 50));
          return true; // ... and the stale dialog is answered yes
        },
      });
      await assert.rejects(
        agent.run("Rewrite a.txt", { signal: controller.signal }),
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "old\n");
    });
  },
});
