// EditFile calls on one file wait their turn in the order they started.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../create_tools.ts";
import { queuedFileCount } from "../_file_lock.ts";
import { ToolError } from "../../internal/tool_error.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";

Deno.test("a call that throws in its turn frees it: 100 queued edits of one file then run in the order they started", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "x0\n");
    const tools = createTools({
      cwd: dir,
      permissionMode: "ask",
      approve: () => true,
    });
    const failing = tools.EditFile.execute({
      path: "a.txt",
      oldText: "not there",
      newText: "y",
    });
    const edits = Array.from(
      { length: 100 },
      (_, i) =>
        tools.EditFile.execute({
          path: "a.txt",
          oldText: `x${i}\n`,
          newText: `x${i + 1}\n`,
        }),
    );
    const read = tools.ReadFile.execute({ path: "a.txt" });
    await assert.rejects(failing, ToolError);
    await Promise.all(edits);
    assert.equal((await read).content, "x100\n");
    assert.equal(queuedFileCount(), 0);
  });
});
