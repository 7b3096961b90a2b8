// The tool calls of one model step that touch one file: they apply in the
// model's order, and one "always" answer covers the step. The model is the
// scripted server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createAgent } from "./agent.ts";
import {
  startScriptedServer,
  toolTexts,
} from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test({
  name:
    "agent in ask mode applies a WriteFile then an EditFile of one file made in one step, in the model's order",
  async fn() {
    await withWorkspace(async (dir) => {
      await Deno.writeTextFile(join(dir, "b.txt"), "one\ntwo\n");
      await using server = startScriptedServer([{
        match: "write then edit",
        replies: [{
          toolCalls: [
            {
              name: "WriteFile",
              arguments: { path: "b.txt", content: "three\nfour\n" },
            },
            {
              name: "EditFile",
              arguments: { path: "b.txt", oldText: "three", newText: "THREE" },
            },
          ],
        }, { text: "done" }],
      }]);
      const agent = createAgent({
        baseURL: server.baseURL,
        model: "m",
        cwd: dir,
        permissionMode: "ask",
        approve: () => true,
      });
      await agent.run("write then edit");
      const [written, edited] = toolTexts(server.requests.at(-1)!);
      assert.match(written, /Overwrote "b\.txt"/);
      assert.match(edited, /^Edited "b\.txt"/, edited);
      assert.equal(
        await Deno.readTextFile(join(dir, "b.txt")),
        "THREE\nfour\n",
      );
    });
  },
});

Deno.test({
  name:
    "agent applies parallel EditFile calls of one step on one file in the model's order, every time",
  async fn() {
    await withWorkspace(async (dir) => {
      const edit = (oldText: string, newText: string) => ({
        name: "EditFile",
        arguments: { path: "a.txt", oldText, newText },
      });
      await using server = startScriptedServer([{
        match: "three edits",
        replies: [{
          toolCalls: [
            edit("alpha", "ALPHA"),
            edit("gamma", "GAMMA"),
            edit("ALPHA", "AAA"), // edits what the first call wrote
          ],
        }, { text: "edited" }],
      }]);
      for (let round = 1; round <= 10; round++) {
        await Deno.writeTextFile(join(dir, "a.txt"), "alpha\nbeta\ngamma\n");
        const agent = createAgent({
          baseURL: server.baseURL,
          model: "m",
          cwd: dir,
          permissionMode: "allow",
        });
        await agent.run("three edits");
        const [first, second, third] = toolTexts(server.requests.at(-1)!);
        assert.match(first, /-alpha\n\+ALPHA\n beta\n gamma/, `round ${round}`);
        assert.match(
          second,
          / ALPHA\n beta\n-gamma\n\+GAMMA/,
          `round ${round}`,
        );
        assert.match(third, /-ALPHA\n\+AAA\n beta\n GAMMA/, `round ${round}`);
        assert.equal(
          await Deno.readTextFile(join(dir, "a.txt")),
          "AAA\nbeta\nGAMMA\n",
        );
      }
    });
  },
});

Deno.test({
  name:
    "agent's ReadFile after a WriteFile of the same file in one step reads what the WriteFile wrote",
  async fn() {
    await withWorkspace(async (dir) => {
      await Deno.writeTextFile(join(dir, "b.txt"), "one\ntwo\n");
      await using server = startScriptedServer([{
        match: "write then read",
        replies: [{
          toolCalls: [
            {
              name: "WriteFile",
              arguments: { path: "b.txt", content: "three\nfour\n" },
            },
            { name: "ReadFile", arguments: { path: "b.txt" } },
          ],
        }, { text: "done" }],
      }]);
      const agent = createAgent({
        baseURL: server.baseURL,
        model: "m",
        cwd: dir,
        permissionMode: "allow",
      });
      await agent.run("write then read");
      const [written, read] = toolTexts(server.requests.at(-1)!);
      assert.match(written, /Overwrote "b\.txt"/);
      assert.match(read, /three/, `ReadFile saw: ${read}`);
      assert.doesNotMatch(read, /one/);
    });
  },
});

Deno.test({
  name:
    "agent asks once when the first of three parallel writes is answered 'always'",
  async fn() {
    await withWorkspace(async (dir) => {
      const write = (path: string) => ({
        name: "WriteFile",
        arguments: { path, content: path },
      });
      await using server = startScriptedServer([{
        match: "three writes",
        replies: [{
          toolCalls: [write("one.txt"), write("two.txt"), write("three.txt")],
        }, { text: "wrote them" }],
      }]);
      const asked: string[] = [];
      const agent = createAgent({
        baseURL: server.baseURL,
        model: "m",
        cwd: dir,
        permissionMode: "ask",
        approve: async (request) => {
          asked.push(request.description);
          // A person takes a moment to answer.
          await new Promise((resolve) => setTimeout(resolve, 200));
          return "always" as const;
        },
      });
      await agent.run("three writes");
      const files = (await Array.fromAsync(Deno.readDir(dir)))
        .map((entry) => entry.name).sort();
      assert.deepEqual(files, ["one.txt", "three.txt", "two.txt"]);
      assert.equal(asked.length, 1, `asked: ${asked.join("; ")}`);
    });
  },
});
