// Runs of star-only segments in .gitignore rules (`**`, `***`, ...): matched
// at once, and collapsed without changing what git ignores.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../../tests/support/workspace.ts";
import { collapseStars, GitIgnore } from "./_gitignore.ts";

Deno.test("GitIgnore matches a run of *** segments (git's **) at once", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      join(dir, ".gitignore"),
      `a/${"***/".repeat(8)}b\n`,
    );
    const rules = await new GitIgnore().enter(dir);
    const deep = join(dir, "a", ..."x".repeat(40).split(""));
    const started = performance.now();
    assert.equal(rules.ignores(join(deep, "c"), false), false);
    // Generous: a collapsed run answers in well under a millisecond.
    assert.ok(performance.now() - started < 5000, "the match stalled");
  });
});

Deno.test("collapseStars() keeps what git ignores, for negations, escapes, classes, spaces and comments", async () => {
  const patterns = [
    "a/**/**/b",
    "!a/**/**/b",
    "**/**/b",
    "/**/**/b",
    "a/**/**/",
    "a/**/** ",
    "a/**/**\\ ",
    "a/**/**/**",
    "**/**",
    "\\**/**/**/b",
    "a/\\**/**/b",
    "#**/**/b",
    "a[/**/**/]b",
    "x**/**/b",
    "**/**/a/**/**",
  ];
  const paths = ["b", "a/b", "a/x/b", "a/x/y/b", "x/a/b", "a/x/", "*b", "a/*b"]
    .join("\n");
  await withWorkspace(async (dir) => {
    await new Deno.Command("git", { args: ["init", "-q"], cwd: dir }).output();
    const ignored = async (rules: string) => {
      await Deno.writeTextFile(join(dir, ".gitignore"), `${rules}\n`);
      const git = new Deno.Command("git", {
        args: ["check-ignore", "--no-index", "--stdin"],
        cwd: dir,
        stdin: "piped",
        stdout: "piped",
      }).spawn();
      const writer = git.stdin.getWriter();
      await writer.write(new TextEncoder().encode(paths));
      await writer.close();
      return new TextDecoder().decode((await git.output()).stdout);
    };
    for (const pattern of patterns) {
      assert.equal(
        await ignored(collapseStars(pattern)),
        await ignored(pattern),
        `${JSON.stringify(pattern)} -> ${
          JSON.stringify(collapseStars(pattern))
        }`,
      );
    }
  });
});
