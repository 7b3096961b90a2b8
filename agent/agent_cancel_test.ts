// Cancelling an agent's run: what a cancelled turn may still change, and
// that the agent goes on afterwards. The model is the scripted server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { EndpointError } from "./endpoint_error.ts";
import { runDeno } from "../tests/support/run_deno.ts";
import { startStallingServer } from "../tests/support/stalling_server.ts";

const MOD = new URL("../mod.ts", import.meta.url).pathname;
import {
  callsTool,
  startScriptedServer,
} from "../tests/support/scripted_server.ts";
import { scriptedAgent } from "../tests/support/scripted_agent.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("agent.run() cancelled during a WriteFile approval leaves the file unchanged", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "old\n");
    await using server = startScriptedServer([{
      match: "Rewrite a.txt",
      replies: [
        callsTool("WriteFile", { path: "a.txt", content: "new\n" }),
        { text: "done" },
      ],
    }]);
    const controller = new AbortController();
    const agent = scriptedAgent(server, ws, {
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
});

Deno.test("agent.run() aborted mid-stream in a script lets it exit at once, and the agent answers the next prompt", async () => {
  await withWorkspace(async (dir) => {
    const server = startStallingServer();
    try {
      const script = join(dir, "abort_mid_stream.ts");
      await Deno.writeTextFile(
        script,
        `import { createAgent } from ${JSON.stringify(MOD)};
const [baseURL, cwd] = Deno.args;
const agent = createAgent({ baseURL, model: "m", cwd, maxRetries: 0 });
const controller = new AbortController();
try {
  for await (const event of agent.stream("please stall", { signal: controller.signal })) {
    if (event.type === "text-delta") controller.abort();
  }
  console.log("not aborted");
} catch (error) {
  console.log("aborted: " + (error as Error).name);
}
console.log("next: " + (await agent.run("now answer")).text);
`,
      );
      // The default request timeout is 120 s: a timer or a body left behind
      // by the aborted request would hold the script that long.
      const { stdout, ms } = await runDeno(["-A"], script, [
        server.baseURL,
        dir,
      ]);
      assert.match(stdout, /aborted: AbortError/);
      assert.match(stdout, /next: fine/);
      assert.ok(ms < 45_000, `exited after ${ms} ms`);
    } finally {
      await server.close();
    }
  });
});

Deno.test("agent requestTimeoutMs ends a reply that stalls mid-stream with an EndpointError naming the URL, and the next run works", async () => {
  await withWorkspace(async (dir) => {
    const server = startStallingServer();
    try {
      const agent = scriptedAgent(server, dir, {
        maxRetries: 0,
        requestTimeoutMs: 500,
      });
      let streamed = "";
      await assert.rejects(
        (async () => {
          for await (const event of agent.stream("please stall")) {
            if (event.type === "text-delta") streamed += event.text;
          }
        })(),
        (error: unknown) => {
          assert.ok(error instanceof EndpointError, String(error));
          assert.equal(error.url, `${server.baseURL}/chat/completions`);
          assert.match(error.message, /stopped sending for 0\.5 s/);
          return true;
        },
      );
      assert.equal(streamed, "partial answer ");
      assert.equal((await agent.run("now answer")).text, "fine");
    } finally {
      await server.close();
    }
  });
});

Deno.test("agent.run() aborted while approve() never answers rejects at once, writes nothing, and the agent goes on", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      {
        match: "write it",
        replies: [
          callsTool("WriteFile", { path: "a.txt", content: "hello" }),
          { text: "wrote" },
        ],
      },
      { match: "something else", replies: [{ text: "still here" }] },
    ]);
    let asked = 0;
    const agent = scriptedAgent(server, dir, {
      permissionMode: "ask",
      approve: () => {
        asked++;
        return new Promise<boolean>(() => {}); // the user walked away
      },
    });
    const controller = new AbortController();
    const run = agent.run("write it", { signal: controller.signal });
    for (let i = 0; i < 400 && asked === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.equal(asked, 1, "the WriteFile asked for approval");
    const abortedAt = performance.now();
    controller.abort();
    await assert.rejects(run, { name: "AbortError" });
    assert.ok(performance.now() - abortedAt < 5_000, "rejected at once");
    await assert.rejects(Deno.stat(join(dir, "a.txt")), Deno.errors.NotFound);
    assert.equal((await agent.run("something else")).text, "still here");
  });
});
