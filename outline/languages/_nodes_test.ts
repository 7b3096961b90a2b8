import assert from "node:assert/strict";
import { firstMeaningfulLine } from "./_nodes.ts";

Deno.test("firstMeaningfulLine() strips comment markers, a closing */ and tags", () => {
  assert.equal(
    firstMeaningfulLine("/** Opens the store. */"),
    "Opens the store.",
  );
  assert.equal(
    firstMeaningfulLine("/**\n *\n * @param x\n * Reads it. **/"),
    "Reads it.",
  );
  assert.equal(firstMeaningfulLine("/// @brief Closes it."), "Closes it.");
  assert.equal(firstMeaningfulLine("/* a */ b */"), "a */ b");
});

Deno.test("firstMeaningfulLine() cuts a long line, in time linear in its length", () => {
  const started = performance.now();
  const line = firstMeaningfulLine(`/** ${"*".repeat(200_000)}\n */`);
  // The pattern this replaced took 28 s here; a generous bound, not a benchmark.
  assert.ok(performance.now() - started < 5_000);
  assert.equal(line, `${"*".repeat(199)}…`);
});
