import assert from "node:assert/strict";
import { similarNames } from "./_file_errors.ts";

Deno.test("similarNames() suggests the closest names first", () => {
  assert.deepEqual(
    similarNames("confg.ts", ["config.ts", "main.ts", "conf.json", "x.md"]),
    ["config.ts", "conf.json"],
  );
  assert.deepEqual(similarNames("READ.md", ["README.md", "src"]), [
    "README.md",
  ]);
});

Deno.test("similarNames() scores 20,000 long names in time linear in their length", () => {
  const long = "n".repeat(240);
  const names = Array.from({ length: 20_000 }, (_, i) => `${long}${i}.ts`);
  const started = performance.now();
  const found = similarNames(`${long}12345.tsx`, names);
  // A full edit distance per name took 14 s here; a generous bound.
  assert.ok(performance.now() - started < 5_000);
  assert.equal(found[0], `${long}12345.ts`);
});
