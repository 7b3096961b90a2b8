import assert from "node:assert/strict";
import { similarNames } from "./file_errors.ts";

Deno.test("similarNames() suggests the closest names first", () => {
  assert.deepEqual(
    similarNames("confg.ts", ["config.ts", "main.ts", "conf.json", "x.md"]),
    ["config.ts", "conf.json"],
  );
  assert.deepEqual(similarNames("READ.md", ["README.md", "src"]), [
    "README.md",
  ]);
});

Deno.test("similarNames() scores 200 very long names in time linear in their length", () => {
  // Long names and few of them: the banded distance takes ~0.2 s, a full
  // edit distance per name ~20 s. (20,000 names of 240 characters took 2 s
  // against 14 s: too close to a bound on a loaded machine.)
  const long = "n".repeat(2_400);
  const names = Array.from({ length: 200 }, (_, i) => `${long}${i}.ts`);
  const started = performance.now();
  const found = similarNames(`${long}123.tsx`, names);
  const took = performance.now() - started;
  // A generous bound: it proves the cost is not quadratic, it is no benchmark.
  assert.ok(took < 5_000, `took ${Math.round(took)} ms`);
  assert.equal(found[0], `${long}123.ts`);
});
