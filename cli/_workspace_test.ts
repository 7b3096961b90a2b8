import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../tests/support/workspace.ts";
import { workspaceFolder } from "./_workspace.ts";

Deno.test("workspaceFolder() resolves an existing folder", async () => {
  await withWorkspace(async (dir) => {
    await Deno.mkdir(join(dir, "sub"));
    assert.equal(await workspaceFolder(join(dir, "sub", "..")), dir);
  });
});

Deno.test("workspaceFolder() says when the folder is missing or a file", async () => {
  await withWorkspace(async (dir) => {
    await assert.rejects(
      workspaceFolder(join(dir, "gone")),
      /the workspace ".*gone" does not exist; pass an existing folder with --cwd/,
    );
    await Deno.writeTextFile(join(dir, "a.txt"), "");
    await assert.rejects(
      workspaceFolder(join(dir, "a.txt")),
      /the workspace ".*a\.txt" is not a folder; pass an existing folder with --cwd/,
    );
  });
});
