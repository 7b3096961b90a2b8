// blankTopLevelAnnotations() and restoreAnnotations(): Kotlin's top-level
// annotation lines blanked for the grammar and given back to the symbols.
import assert from "node:assert/strict";
import { elapsedMs } from "../../../../tests/support/elapsed.ts";
import {
  blankTopLevelAnnotations,
  restoreAnnotations,
} from "./top_level_annotations_kotlin_1_1_0.ts";

Deno.test("blankTopLevelAnnotations() blanks top-level annotation lines only, keeping every line", () => {
  const text = [
    '@file:JvmName("A")',
    "/** Doc. */",
    "@Module",
    "@InstallIn(X::class) @Keep",
    "object M {",
    "  @Provides fun f() = 1",
    "}",
  ].join("\n");
  const { text: blanked, runs } = blankTopLevelAnnotations(text);
  assert.deepEqual(runs, [{ first: 2, last: 3 }]);
  assert.deepEqual(blanked.split("\n").map((line) => line.trim()), [
    '@file:JvmName("A")',
    "/** Doc. */",
    "",
    "",
    "object M {",
    "@Provides fun f() = 1",
    "}",
  ]);
  const [symbol] = restoreAnnotations(
    [{ kind: "object", name: "M", startLine: 5, endLine: 7, children: [] }],
    { text, runs },
  );
  assert.equal(symbol.startLine, 3);
  assert.equal(symbol.doc, "Doc.");
});

Deno.test("blankTopLevelAnnotations() takes linear time on a line of many annotations", () => {
  const text = "@A(" + " @A()".repeat(27) + " x\nfun f() {}\n";
  const ms = elapsedMs(() => blankTopLevelAnnotations(text));
  assert.ok(
    ms < 2_000,
    `blankTopLevelAnnotations() took ${Math.round(ms)} ms`,
  );
});
