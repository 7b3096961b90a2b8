// Shell's kill of running commands when an error ends Deno: a rejection or
// an uncaught error that a listener added after the command started handles
// ends nothing, so the command runs on.
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDeno } from "../../tests/support/run_deno.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";

const MOD = new URL("../../mod.ts", import.meta.url).href;

// Starts a 0.5 s Shell command, then (100 ms on) adds `handler` and runs
// `failure`, and prints the command's result.
async function lateHandler(handler: string, failure: string): Promise<{
  signal: string | null;
  exitCode: number;
  output: string;
}> {
  let result;
  await withWorkspace(async (dir) => {
    const script = join(dir, "late_handler.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools } from ${JSON.stringify(MOD)};
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const slow = tools.Shell.execute({ command: "sleep 0.5; echo finished" });
await new Promise((resolve) => setTimeout(resolve, 100));
${handler}
${failure}
console.log(JSON.stringify(await slow));
`,
    );
    const { stdout } = await runDeno(["-A"], script, [dir]);
    result = JSON.parse(stdout);
  });
  return result!;
}

function assertRanToItsEnd(result: Awaited<ReturnType<typeof lateHandler>>) {
  assert.equal(result.signal, null, JSON.stringify(result));
  assert.equal(result.exitCode, 0, JSON.stringify(result));
  assert.match(result.output, /finished/);
}

Deno.test("Shell: a rejection a script handles with a listener added after the command started does not kill the command", async () => {
  assertRanToItsEnd(
    await lateHandler(
      'globalThis.addEventListener("unhandledrejection", (e) => e.preventDefault());',
      'Promise.reject(new Error("handled by the script"));',
    ),
  );
});

Deno.test("Shell: an uncaught error a script handles with a listener added after the command started does not kill the command", async () => {
  assertRanToItsEnd(
    await lateHandler(
      'globalThis.addEventListener("error", (e) => e.preventDefault());',
      'setTimeout(() => { throw new Error("handled by the script"); });',
    ),
  );
});

Deno.test("Shell: a rejection a node:process listener added after the command started handles does not kill the command", async () => {
  assertRanToItsEnd(
    await lateHandler(
      'globalThis.process.on("unhandledRejection", () => {});',
      'Promise.reject(new Error("handled by the script"));',
    ),
  );
});
