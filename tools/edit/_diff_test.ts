import assert from "node:assert/strict";
import { applyPatch } from "diff";
import { countChar } from "../../internal/count_char.ts";
import { clipDiff, diffWasCut, editDiff, type Replacement } from "./_diff.ts";

Deno.test("clipDiff() keeps whole lines within the budget and says how many were left out", () => {
  const diff = "@@ -1,3 +1,3 @@\n-a\n+b\n c\n";
  assert.equal(clipDiff(diff, 100), diff);
  assert.equal(
    clipDiff(diff, 20),
    "@@ -1,3 +1,3 @@\n-a\n… 2 more diff lines not shown; ReadFile the file to check the change\n",
  );
});

Deno.test("clipDiff() cuts inside a first line longer than the budget", () => {
  const clipped = clipDiff(`+${"x".repeat(100)}\n+y\n`, 10);
  assert.ok(clipped.startsWith("+xxxxxxxxx…"), clipped);
  assert.match(clipped, /2 more diff lines/);
});

function _replaceAll(text: string, from: string, to: string): Replacement[] {
  const found: Replacement[] = [];
  let line = 1;
  let last = 0;
  for (
    let at = text.indexOf(from);
    at !== -1;
    at = text.indexOf(from, at + from.length)
  ) {
    line += countChar(text, "\n", last, at);
    last = at;
    found.push({ index: at, oldLength: from.length, replacement: to, line });
  }
  return found;
}

Deno.test("editDiff() stops at maxChars, before a changed line, and counts the rest", () => {
  const text = "a x\n".repeat(1000);
  const all = _replaceAll(text, "x", "y");
  const { diff } = editDiff("f.txt", text, all, { maxChars: 400 });
  assert.ok(diff.length < 700, `${diff.length} chars`);
  assert.ok(diffWasCut(diff));
  const shown = diff.split("\n").filter((l) => l.startsWith("+a")).length;
  assert.ok(shown > 10 && shown < 100, `${shown} lines shown`);
  assert.match(
    diff,
    new RegExp(`… ${1000 - shown} more replacements not shown`),
  );
  // The hunk ends on its last change: no changed line shown as context.
  const body = diff.slice(0, diff.indexOf("…"));
  const patched = applyPatch(text, body);
  assert.ok(patched !== false);
  assert.equal(patched.split("y").length - 1, shown);
});

Deno.test("editDiff() given only the first replacements leaves out the last one's line", () => {
  const text = "x x\n".repeat(10);
  const all = _replaceAll(text, "x", "y");
  const { diff } = editDiff("f.txt", text, all.slice(0, 5), { total: 20 });
  // Matches 5 and 6 share line 3: lines 1 and 2 are shown, the rest counted.
  assert.equal(diff.split("\n").filter((l) => l.startsWith("+y")).length, 2);
  assert.match(diff, /… 16 more replacements not shown/);
  assert.doesNotMatch(diff, /^ x x$/m);
});

Deno.test("editDiff() names a line too long to show instead of diffing it", () => {
  const text = "ab".repeat(10_000);
  const { diff } = editDiff("f.txt", text, _replaceAll(text, "a", "X"), {
    maxChars: 1000,
  });
  assert.ok(diff.length < 300, diff);
  assert.match(
    diff,
    /… 10000 replacements not shown \(the lines around line 1 are too long/,
  );
});
