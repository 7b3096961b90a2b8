// findProjectInstructions() and projectInstructionsText(): which AGENTS.md and
// CLAUDE.md files apply to a workspace, in which order, and the text made of them.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace, writeFiles } from "../tests/support/workspace.ts";
import {
  findProjectInstructions,
  projectInstructionsText,
} from "./project_instructions.ts";

Deno.test("findProjectInstructions() reads the user's file, then the repository root down to the workspace", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, {
      "config/AGENTS.md": "user rules",
      "repo/.git/HEAD": "ref: refs/heads/main\n",
      "repo/AGENTS.md": "root rules",
      "repo/src/AGENTS.md": "src rules",
      "repo/src/deep/AGENTS.md": "below the workspace: not read",
      "AGENTS.md": "above the repository: not read",
    });
    const files = await findProjectInstructions(join(dir, "repo", "src"), {
      configFolder: join(dir, "config"),
    });
    assert.deepEqual(files.map((file) => file.text), [
      "user rules",
      "root rules",
      "src rules",
    ]);
    assert.deepEqual(files.slice(1).map((file) => file.shown), [
      "AGENTS.md",
      "src/AGENTS.md",
    ]);
    assert.equal(files[2].path, join(dir, "repo", "src", "AGENTS.md"));
  });
});

Deno.test("findProjectInstructions() reads CLAUDE.md only in a folder without AGENTS.md", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, {
      ".git/HEAD": "",
      "CLAUDE.md": "claude root",
      "a/AGENTS.md": "agents a",
      "a/CLAUDE.md": "claude a: shadowed",
    });
    const files = await findProjectInstructions(join(dir, "a"), {
      configFolder: null,
    });
    assert.deepEqual(files.map((file) => `${file.shown}: ${file.text}`), [
      "CLAUDE.md: claude root",
      "a/AGENTS.md: agents a",
    ]);
  });
});

Deno.test("findProjectInstructions() without a repository reads the workspace's file only", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, { "AGENTS.md": "outer", "ws/AGENTS.md": "inner" });
    const files = await findProjectInstructions(join(dir, "ws"), {
      configFolder: null,
    });
    assert.deepEqual(files.map((file) => file.text), ["inner"]);
  });
});

Deno.test("findProjectInstructions() passes over an AGENTS.md that is a folder", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, { "AGENTS.md/x": "", "CLAUDE.md": "claude" });
    const files = await findProjectInstructions(dir, { configFolder: null });
    assert.deepEqual(files.map((file) => file.text), ["claude"]);
  });
});

Deno.test("projectInstructionsText() puts each file's text under its path, and cuts to the budget", () => {
  const files = [
    { path: "/r/AGENTS.md", shown: "AGENTS.md", text: "one\n" },
    { path: "/r/src/AGENTS.md", shown: "src/AGENTS.md", text: "two" },
  ];
  const text = projectInstructionsText(files, 1000);
  assert.match(
    text,
    /Instructions from \/r\/AGENTS\.md:\none\n\nInstructions from \/r\/src\/AGENTS\.md:\ntwo$/,
  );
  assert.equal(projectInstructionsText([], 1000), "");
  const cut = projectInstructionsText(
    [{ ...files[0], text: "x".repeat(10_000) }],
    100,
  );
  assert.ok(cut.length < 600, `${cut.length} characters`);
  assert.match(cut, /cut here: \d+ more characters did not fit/);
});
