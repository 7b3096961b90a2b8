// The tool calls of one model step that touch one file: they apply in the
// model's order, and one "always" answer covers the step. The model is the
// scripted server.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  type ScriptedToolCall,
  startScriptedServer,
  toolTexts,
} from "../tests/support/scripted_server.ts";
import { scriptedAgent } from "../tests/support/scripted_agent.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

/** A server whose model makes `calls` in one step when asked `prompt`, then answers. */
function stepServer(prompt: string, calls: ScriptedToolCall[]) {
  return startScriptedServer([{
    match: prompt,
    replies: [{ toolCalls: calls }, { text: "done" }],
  }]);
}

const write = (path: string, content: string) => ({
  name: "WriteFile",
  arguments: { path, content },
});

Deno.test("agent in ask mode applies a WriteFile then an EditFile of one file made in one step, in the model's order", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "b.txt"), "one\ntwo\n");
    await using server = stepServer("write then edit", [
      write("b.txt", "three\nfour\n"),
      {
        name: "EditFile",
        arguments: { path: "b.txt", oldText: "three", newText: "THREE" },
      },
    ]);
    const agent = scriptedAgent(server, dir, {
      permissionMode: "ask",
      approve: () => true,
    });
    await agent.run("write then edit");
    const [written, edited] = toolTexts(server.requests.at(-1)!);
    assert.match(written, /Overwrote "b\.txt"/);
    assert.match(edited, /^Edited "b\.txt"/, edited);
    assert.equal(await Deno.readTextFile(join(dir, "b.txt")), "THREE\nfour\n");
  });
});

Deno.test("agent applies parallel EditFile calls of one step on one file in the model's order, every time", async () => {
  await withWorkspace(async (dir) => {
    const edit = (oldText: string, newText: string) => ({
      name: "EditFile",
      arguments: { path: "a.txt", oldText, newText },
    });
    await using server = stepServer("three edits", [
      edit("alpha", "ALPHA"),
      edit("gamma", "GAMMA"),
      edit("ALPHA", "AAA"), // edits what the first call wrote
    ]);
    for (let round = 1; round <= 10; round++) {
      await Deno.writeTextFile(join(dir, "a.txt"), "alpha\nbeta\ngamma\n");
      const agent = scriptedAgent(server, dir, { permissionMode: "allow" });
      await agent.run("three edits");
      const [first, second, third] = toolTexts(server.requests.at(-1)!);
      assert.match(first, /-alpha\n\+ALPHA\n beta\n gamma/, `round ${round}`);
      assert.match(second, / ALPHA\n beta\n-gamma\n\+GAMMA/, `round ${round}`);
      assert.match(third, /-ALPHA\n\+AAA\n beta\n GAMMA/, `round ${round}`);
      const text = await Deno.readTextFile(join(dir, "a.txt"));
      assert.equal(text, "AAA\nbeta\nGAMMA\n", `round ${round}`);
    }
  });
});

Deno.test("agent's ReadFile after a WriteFile of the same file in one step reads what the WriteFile wrote", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "b.txt"), "one\ntwo\n");
    await using server = stepServer("write then read", [
      write("b.txt", "three\nfour\n"),
      { name: "ReadFile", arguments: { path: "b.txt" } },
    ]);
    const agent = scriptedAgent(server, dir, { permissionMode: "allow" });
    await agent.run("write then read");
    const [written, read] = toolTexts(server.requests.at(-1)!);
    assert.match(written, /Overwrote "b\.txt"/);
    assert.match(read, /three/, `ReadFile saw: ${read}`);
    assert.doesNotMatch(read, /one/);
  });
});

Deno.test("agent asks once when the first of three parallel writes is answered 'always'", async () => {
  await withWorkspace(async (dir) => {
    await using server = stepServer(
      "three writes",
      ["one.txt", "two.txt", "three.txt"].map((path) => write(path, path)),
    );
    const asked: string[] = [];
    const agent = scriptedAgent(server, dir, {
      permissionMode: "ask",
      // A person takes a moment to answer.
      approve: (request) => {
        asked.push(request.description);
        return new Promise((resolve) => setTimeout(resolve, 200, "always"));
      },
    });
    await agent.run("three writes");
    const files = (await Array.fromAsync(Deno.readDir(dir)))
      .map((entry) => entry.name).sort();
    assert.deepEqual(files, ["one.txt", "three.txt", "two.txt"]);
    assert.equal(asked.length, 1, `asked: ${asked.join("; ")}`);
  });
});
