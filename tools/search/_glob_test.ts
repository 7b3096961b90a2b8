import assert from "node:assert/strict";
import { expandBraces, globFilter } from "./_glob.ts";

Deno.test("expandBraces() expands alternatives, nested ones too", () => {
  assert.deepEqual(expandBraces("*.{ts,tsx}"), ["*.ts", "*.tsx"]);
  assert.deepEqual(expandBraces("{a,b/{c,d}}.md"), [
    "a.md",
    "b/c.md",
    "b/d.md",
  ]);
  assert.deepEqual(expandBraces("plain/*.ts"), ["plain/*.ts"]);
});

Deno.test("globFilter() matches like ripgrep's --glob", () => {
  const ts = globFilter("*.ts");
  assert.equal(ts("a.ts"), true);
  assert.equal(ts("deep/down/a.ts"), true);
  assert.equal(ts("a.tsx"), false);
  const anchored = globFilter("src/**/*.ts");
  assert.equal(anchored("src/x/y.ts"), true);
  assert.equal(anchored("lib/src/y.ts"), false);
  const excluded = globFilter("!*_test.ts");
  assert.equal(excluded("a_test.ts"), false);
  assert.equal(excluded("a.ts"), true);
  assert.equal(globFilter("./src/*.ts")("src/a.ts"), true);
  const list = globFilter("*.ts,*.md");
  assert.equal(list("a.md"), true);
  assert.equal(list("a.py"), false);
  assert.throws(() => globFilter("!"), /is empty/);
});

Deno.test("globFilter() refuses a glob whose alternatives multiply past a bound", () => {
  // Eighteen pairs are 262,144 patterns: they ran the process out of memory.
  const glob = "{a,b}".repeat(18);
  assert.throws(() => globFilter(glob), /more than 256 patterns/);
  assert.equal(expandBraces("{a,b}".repeat(8)).length, 256);
});

Deno.test("globFilter() refuses more than three ** in one glob", () => {
  assert.throws(
    () => globFilter("a/**/b/**/c/**/d/**/e"),
    /more than 3 "\*\*"/,
  );
  assert.equal(globFilter("a/**/b/**/c/**/d")("a/x/b/y/c/z/d"), true);
});

Deno.test("globFilter() refuses unbalanced braces and brackets, which match nothing", () => {
  assert.throws(
    () => globFilter("*.{ts"),
    /unclosed "\{"; write .*\*\.\{ts,tsx\}/,
  );
  assert.throws(() => globFilter("*.ts}"), /"\}" with no "\{"/);
  assert.throws(() => globFilter("src/["), /unclosed "\["/);
  assert.equal(globFilter("*.[jt]s")("a.js"), true);
  assert.equal(globFilter("a[]]b")("a]b"), true);
  assert.equal(globFilter("\\{x")("{x"), true);
});
