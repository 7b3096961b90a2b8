// search() matches paths as git and ripgrep do: .gitignore rules and globs
// are case-sensitive.
import assert from "node:assert/strict";
import { createTools } from "../create_tools.ts";
import { withWorkspace, writeFiles } from "../../tests/support/workspace.ts";

Deno.test("search() reads .gitignore case-sensitively, as git does", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, {
      ".git/HEAD": "ref: refs/heads/main\n",
      ".gitignore": "core\n*.LOG\n",
      "Core/a.c": "int needle(void) { return 0; }\n",
      "app.log": "needle\n",
      "core": "needle in a core dump\n",
    });
    const tools = createTools({ cwd: ws, permissionMode: "readOnly" });
    const result = await tools.search.execute({ pattern: "needle" });
    assert.deepEqual(result.matches.map((m) => m.path), [
      "Core/a.c",
      "app.log",
    ]);
  });
});

Deno.test("search() matches its glob case-sensitively, as ripgrep's --glob does", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, { "src/a.ts": "export const needle = 1;\n" });
    const tools = createTools({ cwd: ws, permissionMode: "readOnly" });
    for (const glob of ["SRC/*.ts", "*.TS"]) {
      const result = await tools.search.execute({ pattern: "needle", glob });
      assert.deepEqual(result.matches, [], glob);
    }
  });
});
