// search with a glob that does not parse.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../create_tools.ts";
import { ToolError } from "../../internal/tool_error.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";

Deno.test("search() refuses a malformed glob instead of matching nothing", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.ts"), "export const needle = 1;\n");
    const tools = createTools({ cwd: dir, permissionMode: "readOnly" });
    await assert.rejects(
      () => tools.search.execute({ pattern: "needle", glob: "*.{ts" }),
      (error: Error) =>
        error instanceof ToolError && error.message.includes("*.{ts"),
    );
  });
});
