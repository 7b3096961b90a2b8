// findProjectInstructions() and projectInstructionsText(): which AGENTS.md and
// CLAUDE.md files apply to a workspace, in which order, and the text made of them.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace, writeFiles } from "../tests/support/workspace.ts";
import {
  findProjectInstructions,
  type ProjectInstructionsFile,
  projectInstructionsText,
} from "./project_instructions.ts";

/**
 * The instruction files findProjectInstructions() finds from the folder
 * `from` of a fresh workspace holding `files`, with the user's folder
 * `config` (none when not given), and the workspace's path.
 */
async function findIn(
  files: Record<string, string>,
  options: { from?: string; config?: string } = {},
): Promise<{ dir: string; found: ProjectInstructionsFile[] }> {
  let found: ProjectInstructionsFile[] = [];
  let root = "";
  await withWorkspace(async (dir) => {
    root = dir;
    await writeFiles(dir, files);
    found = await findProjectInstructions(join(dir, options.from ?? ""), {
      configFolder: options.config === undefined
        ? null
        : join(dir, options.config),
    });
  });
  return { dir: root, found };
}

Deno.test("findProjectInstructions() reads the user's file, then the repository root down to the workspace", async () => {
  const { dir, found } = await findIn({
    "config/AGENTS.md": "user rules",
    "repo/.git/HEAD": "ref: refs/heads/main\n",
    "repo/AGENTS.md": "root rules",
    "repo/src/AGENTS.md": "src rules",
    "repo/src/deep/AGENTS.md": "below the workspace: not read",
    "AGENTS.md": "above the repository: not read",
  }, { from: "repo/src", config: "config" });
  assert.deepEqual(found.map((file) => file.text), [
    "user rules",
    "root rules",
    "src rules",
  ]);
  assert.deepEqual(found.slice(1).map((file) => file.shown), [
    "AGENTS.md",
    "src/AGENTS.md",
  ]);
  assert.equal(found[2].path, join(dir, "repo", "src", "AGENTS.md"));
});

Deno.test("findProjectInstructions() reads CLAUDE.md only in a folder without AGENTS.md", async () => {
  const { found } = await findIn({
    ".git/HEAD": "",
    "CLAUDE.md": "claude root",
    "a/AGENTS.md": "agents a",
    "a/CLAUDE.md": "claude a: shadowed",
  }, { from: "a" });
  assert.deepEqual(found.map((file) => `${file.shown}: ${file.text}`), [
    "CLAUDE.md: claude root",
    "a/AGENTS.md: agents a",
  ]);
});

Deno.test("findProjectInstructions() without a repository reads the workspace's file only", async () => {
  const { found } = await findIn(
    { "AGENTS.md": "outer", "ws/AGENTS.md": "inner" },
    { from: "ws" },
  );
  assert.deepEqual(found.map((file) => file.text), ["inner"]);
});

Deno.test("findProjectInstructions() passes over an AGENTS.md that is a folder", async () => {
  const { found } = await findIn({ "AGENTS.md/x": "", "CLAUDE.md": "claude" });
  assert.deepEqual(found.map((file) => file.text), ["claude"]);
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
