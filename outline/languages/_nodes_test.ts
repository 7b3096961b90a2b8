// The shared node helpers: doc comment summaries (firstMeaningfulLine()) and
// the nesting limit (nested()).
import assert from "node:assert/strict";
import { firstMeaningfulLine, MAX_NESTING, nested } from "./_nodes.ts";
import type { OutlineSymbol } from "../types.ts";

/** Asserts that firstMeaningfulLine() gives each comment the summary paired with it. */
function assertSummaries(
  cases: [comment: string, summary: string | undefined][],
): void {
  for (const [comment, summary] of cases) {
    assert.equal(
      firstMeaningfulLine(comment),
      summary,
      JSON.stringify(comment),
    );
  }
}

Deno.test("firstMeaningfulLine() strips comment markers and a closing */, and stops at a block tag", () => {
  assertSummaries([
    ["/** Opens the store. */", "Opens the store."],
    // A tag's description runs on: "Reads it." describes x, no summary.
    ["/**\n *\n * @param x\n * Reads it. **/", undefined],
    ["/**\n * Reads x.\n * @param x the input\n */", "Reads x."],
    ["/// @brief Closes it.", "Closes it."],
    // Doxygen: a structural command first, the summary after it.
    ["/**\n * @fn int add(int a)\n * @brief Adds.\n */", "Adds."],
    ["/**\n * \\file a.c\n * Opens the store.\n */", "Opens the store."],
    ["/** @brief\n * Reads it. */", "Reads it."],
    // TSDoc: a modifier tag takes no text.
    ["/**\n * @internal\n * Parses it.\n */", "Parses it."],
    ["/** @internal Parses it. */", "Parses it."],
    ["/* a */ b */", "a */ b"],
  ]);
});

Deno.test("firstMeaningfulLine() skips /*- and Doxygen group markers, falling back on the group's \\name", () => {
  assertSummaries([
    ["/*-\n   Adds strings.\n */", "Adds strings."],
    ["/// \\name Accessors\n/// @{", "Accessors"],
    ["//@{\n/// \\name Sizes\n/// Returns the size.", "Returns the size."],
    ["/// @}", undefined],
    // A JSDoc @name opens no group: no summary.
    ["/** @name Foo */", undefined],
  ]);
});

Deno.test("firstMeaningfulLine() cuts a long line, in time linear in its length", () => {
  const started = performance.now();
  const line = firstMeaningfulLine(`/** a${"*".repeat(200_000)}\n */`);
  // The pattern this replaced took 28 s here; a generous bound, not a benchmark.
  assert.ok(performance.now() - started < 5_000);
  assert.equal(line, `a${"*".repeat(198)}…`);
  // A rule of `*`s alone is no summary at all.
  assert.equal(
    firstMeaningfulLine(`/** ${"*".repeat(200_000)}\n */`),
    undefined,
  );
});

Deno.test("nested() reads MAX_NESTING levels of members, then none, and unwinds on errors", () => {
  // A chain as deep as the reader asks: each level reads the next.
  const chain = (level: number): OutlineSymbol[] => [{
    kind: "class",
    name: `C${level}`,
    startLine: 1,
    endLine: 1,
    children: nested(() => chain(level + 1)),
  }];
  const depthOf = (symbols: OutlineSymbol[]): number =>
    symbols.length === 0 ? 0 : 1 + depthOf(symbols[0].children);
  assert.equal(depthOf(chain(0)), MAX_NESTING + 1);
  assert.throws(() =>
    nested(() =>
      nested(() => {
        throw new Error("bad tree");
      })
    ), /bad tree/);
  // The failed read left the count as it was.
  assert.equal(depthOf(chain(0)), MAX_NESTING + 1);
});

Deno.test("firstMeaningfulLine() takes no line of a JSDoc @typedef's type, and keeps an inline {@link} line", () => {
  assertSummaries([
    ["/** @typedef {{\n\tskip: () => void;\n}} Ctx */", undefined],
    // Doxygen's \typedef still names what the summary under it documents.
    ["/**\n * @typedef unsigned long ulong\n * Sizes.\n */", "Sizes."],
    ["/**\n * {@link Base.ttl}\n */", "{@link Base.ttl}"],
    // A Dart directive alone on its line is still no text.
    ["/// {@template x}\n/// Opens it.", "Opens it."],
  ]);
});
