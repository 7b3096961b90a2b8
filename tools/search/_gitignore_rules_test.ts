import assert from "node:assert/strict";
import ignore from "ignore";
import { GitIgnoreRules } from "./_gitignore_rules.ts";

/** Rules of every kind: literal, `*suffix`, anchored, wildcard, odd. */
const PATTERNS = [
  "build",
  "build/",
  "!build",
  "/build",
  "src/build/",
  "!src/build/keep.txt",
  "*.log",
  "!keep.log",
  "*.LOG/",
  "**/*.log",
  "**/cache",
  "**/cache/",
  "**/a/b",
  "a/**/b",
  "/a/*",
  "src/*.ts",
  "!src/main.ts",
  "src/**",
  "/src/**/x",
  "[ab].txt",
  "file?.md",
  "\\#hash",
  "\\!bang",
  "#comment",
  "trailing   ",
  "escaped\\ ",
  "a//b",
  "/",
  "*",
  "!*.md",
  "Caps",
  "ünï",
  "*~",
  ".env",
  "!.env.example",
  "\uFEFFbom",
  "x\r",
  "gen*",
  "gen*/",
  "**/gen*",
  "/src/g1/*.js",
  "src/deep/**",
  "a/b/**/c",
  "/a/b?/c",
  "src/**/k/*",
];
const PATHS = [
  "build",
  "build/",
  "build/x.txt",
  "src/build/",
  "src/build/keep.txt",
  "src/build/other.txt",
  "a.log",
  "keep.log",
  "x/keep.log",
  "d.log/",
  "D.LOG/",
  ".log",
  "cache/",
  "deep/cache/",
  "deep/cache",
  "a/b",
  "x/a/b",
  "a/x/y/b",
  "a/x",
  "src/main.ts",
  "src/util.ts",
  "src/x",
  "src/k/x",
  "a.txt",
  "c.txt",
  "file1.md",
  "#hash",
  "!bang",
  "trailing",
  "escaped ",
  "caps",
  "Caps/",
  "ÜNÏ",
  "ünï",
  "notes.md~",
  ".env",
  ".env.example",
  "bom",
  "\uFEFFbom",
  "x\r",
  "x",
  "gen",
  "genx/",
  "x/gen5",
  "GEN5",
  "src/g1/a.js",
  "src/g1/",
  "src/G1/a.js",
  "src/deep/",
  "src/deep/z",
  "a/b/c",
  "a/b/x/c",
  "a/bb/c",
  "src/q/k/z",
];

/** What the `ignore` package answers: true, false (re-included) or undefined. */
function expected(
  rules: ReturnType<typeof ignore>,
  path: string,
): boolean | undefined {
  const { ignored, unignored } = rules.test(path);
  return ignored ? true : unignored ? false : undefined;
}

function assertSameAsIgnore(text: string, ignoreCase: boolean): void {
  const reference = ignore({ ignorecase: ignoreCase }).add(text);
  const compiled = new GitIgnoreRules(text, { ignoreCase });
  for (const path of PATHS) {
    assert.equal(
      compiled.ignores(path),
      expected(reference, path),
      `${JSON.stringify(path)} under ${
        JSON.stringify(text)
      } (ignoreCase ${ignoreCase})`,
    );
  }
}

Deno.test("GitIgnoreRules answers as the ignore package for each kind of rule", () => {
  for (const ignoreCase of [false, true]) {
    for (const pattern of PATTERNS) assertSameAsIgnore(pattern, ignoreCase);
  }
});

Deno.test("GitIgnoreRules lets the last matching rule win, as the ignore package", () => {
  // The package reads the first line, the fast path the second.
  assertSameAsIgnore("trailing   \n!trailing\n\\#hash\n!#hash", false);
  // A fixed pseudo-random sequence: mixes of rules in many orders.
  let seed = 7;
  const next = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
  for (let round = 0; round < 300; round++) {
    const lines = Array.from(
      { length: 1 + next(8) },
      () => PATTERNS[next(PATTERNS.length)],
    );
    const separator = next(2) === 0 ? "\n" : "\r\n";
    assertSameAsIgnore(lines.join(separator), next(2) === 0);
  }
});

Deno.test("GitIgnoreRules finds the last match across many combined regexes", () => {
  // 600 wildcard rules (three combined regexes) between literal ones.
  const lines = ["*.tmp", "/src/*.js"];
  for (let i = 0; i < 600; i++) lines.push(`gen${i}*/`, `/src/g${i}?/*.js`);
  lines.push("!gen5x/", "!/src/g5x/a.js", "/src/g59/*.js");
  const text = lines.join("\n");
  const reference = ignore({ ignorecase: false }).add(text);
  const compiled = new GitIgnoreRules(text, { ignoreCase: false });
  for (
    const path of [
      "gen5x/",
      "gen599y/",
      "gen5/",
      "gen5",
      "src/g5x/a.js",
      "src/g59/a.js",
      "src/g12/b.js",
      "src/other.js",
      "src/g5x/",
      "other/src/g12/b.js",
      "x.tmp",
    ]
  ) {
    assert.equal(compiled.ignores(path), expected(reference, path), path);
  }
});
