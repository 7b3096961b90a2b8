// createTools() with a workspace folder that does not exist.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "./create_tools.ts";
import { exists } from "../internal/exists.ts";
import { ToolError } from "../internal/tool_error.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("createTools() with a missing cwd: WriteFile refuses to create the workspace", async () => {
  await withWorkspace(async (dir) => {
    const typo = join(dir, "workspcae");
    const tools = createTools({ cwd: typo, permissionMode: "acceptEdits" });
    await assert.rejects(
      () => tools.WriteFile.execute({ path: "notes/todo.md", content: "x" }),
      (error: Error) =>
        error instanceof ToolError &&
        error.message.includes(typo) && /does not exist/.test(error.message),
    );
    assert.equal(
      await exists(typo),
      false,
      "the mistyped workspace was created",
    );
  });
});
