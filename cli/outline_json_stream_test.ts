// `fello outline --json` over several big files, run as a subprocess: it
// prints each file's result as it comes.
import assert from "node:assert/strict";
import { join } from "node:path";
import { spawnFello } from "../tests/support/fello_cli.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import { MB } from "../tests/support/child_peak.ts";
Deno.test({
  name: "fello outline --json prints each file's result as it comes",
  async fn() {
    await withWorkspace(async (dir) => {
      await Deno.writeTextFile(join(dir, "a.ts"), "export function a() {}\n");
      const parts: string[] = [];
      for (let i = 0; parts.length * 120 < 4 * MB; i++) {
        parts.push(
          `/** Doc ${i}. */\nexport function fn${i}(a: number): number {\n  return a + ${i};\n}\n\nexport class C${i} {\n  field${i} = ${i};\n}\n\n`,
        );
      }
      await Deno.writeTextFile(join(dir, "b.ts"), parts.join(""));
      const started = performance.now();
      const child = spawnFello(["outline", "--json", dir], { cwd: dir });
      child.stderr.cancel();
      let first = -1;
      let text = "";
      const decoder = new TextDecoder();
      for await (const chunk of child.stdout) {
        if (first < 0) first = performance.now() - started;
        text += decoder.decode(chunk, { stream: true });
      }
      const end = performance.now() - started;
      assert.equal((await child.status).code, 0);
      assert.equal(JSON.parse(text).length, 2);
      assert.ok(
        end - first > 500,
        `the first output came ${Math.round(end - first)} ms before the end`,
      );
    });
  },
});
