// search and file_outline in a child process whose Deno read grant is a
// symlinked path to the workspace.
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDeno } from "../../tests/support/run_deno.ts";
import { withSymlinkedWorkspace } from "../../tests/support/workspace.ts";

Deno.test("search and file_outline work in a workspace given through a symlink under --allow-read=<that path>", async () => {
  await withSymlinkedWorkspace(async ({ root, link, ws }) => {
    // Outside the workspace: its own text would match "needle".
    const script = join(root, "probe.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools } from ${
        JSON.stringify(new URL("../../mod.ts", import.meta.url).href)
      };
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const found = await tools.search.execute({ pattern: "needle" });
const outline = await tools.file_outline.execute({ path: "f.ts" })
  .then((r) => tools.file_outline.toModelText(r), (e) => String(e));
console.log(JSON.stringify({ found, outline }));
`,
    );
    const repo = new URL("../..", import.meta.url).pathname;
    const { stdout } = await runDeno(
      [
        `--allow-read=${link},${repo}`,
        "--allow-env",
        "--allow-sys=hostname",
      ],
      script,
      [ws],
    );
    const { found, outline } = JSON.parse(stdout);
    assert.equal(found.matches.length, 2, JSON.stringify(found));
    assert.match(outline, /function f/);
  });
});
