// The agent's context budget against outputs and replies far larger than
// it: what is cut, what is sent. The model is the scripted server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { startEndlessServer } from "../tests/support/raw_endpoint.ts";
import { scriptedAgent } from "../tests/support/scripted_agent.ts";
import {
  callsTool,
  startScriptedServer,
} from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
Deno.test({
  name:
    "agent cuts a tool output many times contextTokens instead of sending it whole",
  async fn() {
    await withWorkspace(async (dir) => {
      let text = "";
      for (let i = 0; i < 40_000; i++) {
        text += `row ${String(i).padStart(7, "0")} of the file\n`;
      }
      await Deno.writeTextFile(join(dir, "big.txt"), text);
      await using server = startScriptedServer([{
        match: "Read it all",
        replies: [
          callsTool("ReadFile", { path: "big.txt", force: true }),
          { text: "read" },
        ],
      }]);
      const agent = scriptedAgent(server, dir, {
        permissionMode: "allow",
        contextTokens: 10_000,
      });
      assert.equal((await agent.run("Read it all")).text, "read");
      const bytes = JSON.stringify(server.requests[1].body).length;
      assert.ok(
        bytes < 160_000,
        `the request after the read is ${bytes} bytes for a 40 KB budget`,
      );
    });
  },
});

Deno.test({
  name: "agent cuts a reply that never ends at its context budget",
  async fn() {
    await using server = startEndlessServer((first) =>
      first
        ? { role: "assistant", content: "Again: " }
        : { content: "all work and no play. ".repeat(40) }
    );
    await withWorkspace(async (dir) => {
      const agent = scriptedAgent(server, dir, { contextTokens: 2_000 });
      const outcome = await agent.run("hi", {
        signal: AbortSignal.timeout(10_000),
      }).then((result) => result.text.length, (error) => String(error));
      assert.equal(typeof outcome, "number", `the run ended with ${outcome}`);
    });
  },
});
