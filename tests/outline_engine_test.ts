// The outline engine in processes of their own: a script that uses it ends by
// itself once its work is done, whatever its workers went through.
import assert from "node:assert/strict";
import { MOD } from "./support/fello_cli.ts";
import { runDeno } from "./support/run_deno.ts";
import { withWorkspace } from "./support/workspace.ts";

const FIXTURES = new URL("./fixtures/outline/", import.meta.url).pathname;

Deno.test("fileOutline() lets a script exit on its own, its workers idle", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ts`, "export function a() {}\n");
    const script = `${dir}/script.ts`;
    await Deno.writeTextFile(
      script,
      `import { fileOutline } from ${
        JSON.stringify(new URL(MOD, "file://").href)
      };
console.log(await fileOutline("a.ts", { cwd: ${JSON.stringify(dir)} }));
console.log(await fileOutline(${JSON.stringify(`${FIXTURES}sample.tsx`)}));`,
    );
    // runDeno fails the test unless the script exits 0 within its time limit.
    const { stdout } = await runDeno(["-A"], script);
    assert.match(stdout, /^function a \(line 1\)$/m);
    assert.match(stdout, /^File: .*sample\.tsx\nLanguage: TSX\n/m);
  });
});
