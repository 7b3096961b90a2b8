// Shell's exit listeners in a script that runs commands: its exit code and its
// own error handling stay as the script made them.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../../tests/support/workspace.ts";

Deno.test("Shell's exit listeners leave a script's exit code and its own error handling alone, after 30 commands", async () => {
  await withWorkspace(async (dir) => {
    const script = join(dir, "script.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools } from ${
        JSON.stringify(new URL("../../mod.ts", import.meta.url).href)
      };
let handled = 0;
globalThis.addEventListener("unhandledrejection", (e) => {
  e.preventDefault();
  handled++;
});
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
for (let i = 0; i < 10; i++) await tools.Shell.execute({ command: "true" });
await Promise.all(Array.from({ length: 20 }, () => tools.Shell.execute({ command: "true" })));
// A command still running when the script's own rejection is handled.
const slow = tools.Shell.execute({ command: "sleep 0.3; echo finished" });
Promise.reject(new Error("handled by the script"));
const r = await slow;
console.log(JSON.stringify({ handled, exitCode: r.exitCode, out: r.output }));
Deno.exitCode = 3;
`,
    );
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        `--config=${new URL("../../deno.json", import.meta.url).pathname}`,
        "-A",
        script,
        dir,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 3, stderr);
    const report = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.equal(report.handled, 1);
    assert.equal(report.exitCode, 0);
    assert.match(JSON.stringify(report.out), /finished/);
  });
});
