// The file tools as a script of its own uses them through mod.ts: what
// importing the package starts, and what a run leaves behind.
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDeno } from "./support/run_deno.ts";
import { withDirs } from "./support/workspace.ts";

const MOD_URL = new URL("../mod.ts", import.meta.url).href;

Deno.test("mod.ts import and createTools() start nothing: a script reading a file exits on its own", async () => {
  await withDirs(async ({ root, ws }) => {
    await Deno.writeTextFile(join(ws, "hello.txt"), "hello from the child\n");
    const script = join(root, "exits.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools } from ${JSON.stringify(MOD_URL)};
const tools = createTools({ cwd: Deno.args[0] });
const r = await tools.ReadFile.execute({ path: "hello.txt" });
console.log(r.content.trim());
`,
    );
    // runDeno() fails the test unless the script exits 0 within its limit.
    const { stdout } = await runDeno(["-A"], script, [ws]);
    assert.equal(stdout.trim(), "hello from the child");
  });
});
