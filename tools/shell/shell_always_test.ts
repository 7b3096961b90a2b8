// Shell's "always" answers: what one covers.
import assert from "node:assert/strict";
import { createTools } from "../create_tools.ts";
import type { PermissionRequest } from "../types.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";

Deno.test("Shell 'always' for `git status` covers `git status --short` and args [status, -s]", async () => {
  await withWorkspace(async (dir) => {
    await new Deno.Command("git", { args: ["init", "-q"], cwd: dir }).output();
    const calls: PermissionRequest[] = [];
    const tools = createTools({
      cwd: dir,
      permissionMode: "ask",
      approve: (request) => {
        calls.push(request);
        return calls.length === 1 ? "always" : false;
      },
    });
    await tools.Shell.execute({ command: "git status" });
    await tools.Shell.execute({ command: "git status --short" });
    await tools.Shell.execute({ command: "git", args: ["status", "-s"] });
    assert.deepEqual(calls.map((c) => c.description), ['Run "git status"']);
    // Another subcommand is asked.
    await assert.rejects(tools.Shell.execute({ command: "git log" }));
    assert.equal(calls.length, 2);
  });
});
