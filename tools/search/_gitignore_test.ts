import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../../tests/support/workspace.ts";
import { collapseStars, GitIgnore } from "./_gitignore.ts";

Deno.test("collapseStars() writes each run of ** segments once, and nothing else", () => {
  assert.equal(collapseStars("a/**/**/**/b"), "a/**/b");
  assert.equal(collapseStars("**/**/x\n/**/**/y"), "**/x\n/**/y");
  assert.equal(collapseStars("a/**/**\n**/**"), "a/**\n**");
  // Git reads a segment of three or more stars as **.
  assert.equal(collapseStars("a/***/****/b\n***"), "a/**/b\n**");
  // Not ** segments: a star run inside a name, and separate runs.
  assert.equal(collapseStars("x**/**/y"), "x**/**/y");
  assert.equal(collapseStars("a/**/b/**/c"), "a/**/b/**/c");
});

Deno.test("GitIgnore matches a long run of ** against a deep path at once, as git would", async () => {
  await withWorkspace(async (dir) => {
    // 16 in a row: the matcher alone did not finish in minutes.
    await Deno.writeTextFile(
      join(dir, ".gitignore"),
      `a/${"**/".repeat(16)}b\n`,
    );
    const rules = await new GitIgnore().enter(dir);
    const deep = join(dir, "a", ..."x".repeat(40).split(""));
    assert.equal(rules.ignores(join(deep, "b"), false), true);
    assert.equal(rules.ignores(join(dir, "a", "b"), false), true);
    assert.equal(rules.ignores(join(deep, "c"), false), false);
  });
});
