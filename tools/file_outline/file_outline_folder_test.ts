// file_outline given a folder instead of a file.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../create_tools.ts";
import { ToolError } from "../../internal/tool_error.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";

Deno.test("file_outline on a folder says it is a folder, not an unsupported file type", async () => {
  await withWorkspace(async (dir) => {
    await Deno.mkdir(join(dir, "src"));
    await Deno.writeTextFile(
      join(dir, "src", "a.ts"),
      "export const a = 1;\n",
    );
    const tools = createTools({ cwd: dir, permissionMode: "readOnly" });
    await assert.rejects(
      () => tools.file_outline.execute({ path: "src" }),
      (error: Error) =>
        error instanceof ToolError && /folder/.test(error.message) &&
        !/not supported/.test(error.message),
    );
  });
});
