import assert from "node:assert/strict";
import {
  lines,
  testExtract,
  testStillMisreads,
} from "../../../../tests/support/outline_languages.ts";
import { kotlin } from "../kotlin.ts";
import { blankWhenGuards } from "./when_guards_kotlin_1_1_0.ts";

Deno.test("blankWhenGuards() blanks a when entry's guard and nothing else", () => {
  const entries = [
    "  is Int if x > 0 -> 1",
    "  else if ready -> 2",
    "  in 1..3 if(y == 2) -> 3",
  ];
  assert.deepEqual(blankWhenGuards(entries.join("\n")).split("\n"), [
    "  is Int          -> 1",
    "  else          -> 2",
    "  in 1..3            -> 3",
  ]);
  const others = [
    "} else if (a) { x -> y }",
    "  if (a) x -> 1",
    "  x -> if (a) 1 else 2",
    "  val f = g if h -> 1",
    "  a if b if c -> 1",
  ].join("\n");
  assert.equal(blankWhenGuards(others), others);
});

testExtract(kotlin, [{
  name:
    "kotlin.extract() reads a file with Kotlin 2.2 guards and context parameters",
  text: lines(
    "/** Logs. */",
    "context(logger: Logger)",
    "fun log() {}",
    "class Parser {",
    "  fun sign(x: Any) = when (x) {",
    "    is Int if x > 0 -> 1",
    "    else -> 0",
    "  }",
    "}",
  ),
  outline: [
    "fun log 2-3 // Logs.",
    "class Parser 4-9",
    "    fun sign 5-8",
  ],
}]);

testStillMisreads({
  name: "the Kotlin grammar still misreads a when guard",
  grammar: "kotlin",
  text:
    "class P {\n  fun s(x: Any) = when (x) {\n    is Int if x > 0 -> 1\n    else -> 0\n  }\n}\n",
  error: "an ERROR for the guard",
});
