// file_outline's paths: "~/" is the home folder, as for the other tools.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../create_tools.ts";
import { withWorkspace, writeFiles } from "../../tests/support/workspace.ts";

Deno.test({
  name:
    'file_outline expands "~/" like ReadFile, WriteFile, EditFile and search',
  async fn() {
    await withWorkspace(async (ws) => {
      await writeFiles(ws, { "home/m.ts": "export function f() {}\n" });
      const home = Deno.env.get("HOME");
      Deno.env.set("HOME", join(ws, "home"));
      try {
        const tools = createTools({ cwd: ws, permissionMode: "allow" });
        const read = await tools.ReadFile.execute({ path: "~/m.ts" });
        assert.equal(read.content, "export function f() {}\n");
        assert.match(
          await tools.file_outline.execute({ path: "~/m.ts" }),
          /function f \(line 1\)/,
        );
      } finally {
        if (home === undefined) Deno.env.delete("HOME");
        else Deno.env.set("HOME", home);
      }
    });
  },
});
