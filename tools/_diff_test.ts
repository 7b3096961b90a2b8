import assert from "node:assert/strict";
import { clipDiff } from "./_diff.ts";

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
