import assert from "node:assert/strict";
import { join } from "node:path";
import { resolvePath } from "./_paths.ts";
import { ToolError } from "./tool_error.ts";

Deno.test("resolvePath() reads ~ and ~/ as the home folder, other tildes as names", () => {
  const home = Deno.env.get("HOME")!;
  assert.equal(resolvePath("/w", "~", "ReadFile"), home);
  assert.equal(resolvePath("/w", "~/a.txt", "ReadFile"), join(home, "a.txt"));
  assert.equal(resolvePath("/w", "~user/a", "ReadFile"), "/w/~user/a");
  assert.equal(resolvePath("/w", "a/~/b", "ReadFile"), "/w/a/~/b");
});

Deno.test("resolvePath() refuses empty paths and NUL bytes", () => {
  assert.throws(() => resolvePath("/w", "", "ReadFile"), ToolError);
  assert.throws(() => resolvePath("/w", "a\0b", "ReadFile"), ToolError);
});
