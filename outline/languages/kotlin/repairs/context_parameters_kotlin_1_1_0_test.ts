// contextAsAnnotation(), and the grammar gap it repairs.
import assert from "node:assert/strict";
import { testStillMisreads } from "../../../../tests/support/outline_languages.ts";
import { contextAsAnnotation } from "./context_parameters_kotlin_1_1_0.ts";

Deno.test("contextAsAnnotation() reads a context parameter list starting a line as an annotation", () => {
  const text = "context(a: A, f: (Int) -> Unit)\nfun f() {}\n" +
    "  context(x: X) fun g()\nval c = context(a)\n";
  const rewritten = contextAsAnnotation(text);
  assert.equal(rewritten.length, text.length);
  assert.deepEqual(rewritten.split("\n"), [
    `@ontext(${" ".repeat(22)})`,
    "fun f() {}",
    "  @ontext(    ) fun g()",
    "val c = context(a)",
    "",
  ]);
});

testStillMisreads({
  name: "the Kotlin grammar still misreads context parameters",
  grammar: "kotlin",
  text: "context(logger: Logger)\nfun log() {}\n",
  error: "an ERROR for the list",
});
