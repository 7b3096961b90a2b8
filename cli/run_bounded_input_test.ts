// `fello run` given inputs without bound: a huge piped prompt, a permission
// answer line, an error answer that never ends, a huge non-session file. Run
// as a subprocess; memory is measured in a child of its own.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  endpointArgs,
  outputWithin,
  spawnFello,
} from "../tests/support/fello_cli.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import { childPeak, MB } from "../tests/support/child_peak.ts";
Deno.test({
  name:
    "fello run reads a 40 MB piped prompt in linear time and bounded memory",
  async fn() {
    await withWorkspace(async (dir) => {
      const notSession = join(dir, "notes.txt");
      await Deno.writeTextFile(notSession, "not a session\n");
      const started = performance.now();
      const { result, peak } = await childPeak(
        `import { main } from "${
          new URL("../cli/main.ts", import.meta.url).href
        }";
(globalThis as Record<string, unknown>).result = await main(["run", "--cwd", Deno.args[0], "--session", Deno.args[1]]);`,
        [dir, notSession],
        {
          stdin: async (writer) => {
            const chunk = new Uint8Array(MB).fill(0x79); // "y", no newline
            for (let i = 0; i < 40; i++) await writer.write(chunk);
          },
        },
      );
      const ms = performance.now() - started;
      assert.equal(result, 2);
      assert.ok(
        peak < 300 * MB,
        `peak RSS ${Math.round(peak / MB)} MB, ${
          Math.round(ms)
        } ms to read a 40 MB prompt`,
      );
    });
  },
});

Deno.test({
  name: "fello run gives up on an endpoint whose error answer never ends",
  async fn() {
    let stop = false;
    const chunk = new TextEncoder().encode(`{"error":"${"x".repeat(65_000)}`);
    const server = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen: () => {} },
      () =>
        new Response(
          new ReadableStream({
            async pull(controller) {
              await new Promise((resolve) => setTimeout(resolve, 10));
              if (stop) controller.close();
              else controller.enqueue(chunk);
            },
          }),
          { status: 500, headers: { "content-type": "application/json" } },
        ),
    );
    try {
      const { port } = server.addr as Deno.NetAddr;
      const child = spawnFello(
        [
          "run",
          ...endpointArgs(`http://127.0.0.1:${port}/v1`),
          "hi",
        ],
        { cwd: Deno.cwd() },
      );
      const output = await outputWithin(child, 25_000);
      const stderr = new TextDecoder().decode(output.stderr);
      assert.equal(output.code, 2, `exit ${output.code}: ${stderr}`);
      assert.match(stderr, /500/);
    } finally {
      stop = true;
      await server.shutdown();
    }
  },
});

Deno.test({
  name: "fello run reads a 50 MB permission answer line in bounded memory",
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([{
        match: "run ls",
        replies: [
          { toolCalls: [{ name: "Shell", arguments: { command: "ls" } }] },
          { text: "done" },
        ],
      }]);
      const { result, peak } = await childPeak(
        `import { main } from "${
          new URL("../cli/main.ts", import.meta.url).href
        }";
(globalThis as Record<string, unknown>).result = await main(["run", "--base-url", Deno.args[0], "--model", "m", "--cwd", Deno.args[1], "run ls"]);`,
        [server.baseURL, dir],
        {
          stdin: async (writer) => {
            const chunk = new Uint8Array(MB).fill(0x79); // "y", no newline
            for (let i = 0; i < 50; i++) await writer.write(chunk);
          },
        },
      );
      assert.equal(result, 0);
      assert.ok(
        peak < 150 * MB,
        `peak RSS ${Math.round(peak / MB)} MB to read a 50 MB answer line`,
      );
    });
  },
});

Deno.test({
  name: "fello run --session refuses a 100 MB non-session file from its start",
  async fn() {
    await withWorkspace(async (dir) => {
      const path = join(dir, "dump.bin");
      await Deno.writeFile(path, new Uint8Array());
      await Deno.truncate(path, 100 * MB);
      const { result, peak } = await childPeak(
        `import { main } from "${
          new URL("../cli/main.ts", import.meta.url).href
        }";
(globalThis as Record<string, unknown>).result = await main(["run", "--cwd", Deno.args[0], "--session", Deno.args[1], "hi"]);`,
        [dir, path],
      );
      assert.equal(result, 2);
      assert.ok(
        peak < 150 * MB,
        `peak RSS ${Math.round(peak / MB)} MB to refuse a 100 MB file`,
      );
    });
  },
});
