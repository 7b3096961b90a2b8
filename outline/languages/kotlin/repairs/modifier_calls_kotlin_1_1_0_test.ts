import assert from "node:assert/strict";
import {
  extractLines,
  testStillMisreads,
} from "../../../../tests/support/outline_languages.ts";
import { kotlin } from "../kotlin.ts";
import {
  restoreModifierCalls,
  standInForModifierCalls,
} from "./modifier_calls_kotlin_1_1_0.ts";

Deno.test("standInForModifierCalls() swaps a modifier word before ( only, keeping the length", () => {
  const text = "override fun f() { override(1, 2); open (x); x.inline(y) }";
  const stood = standInForModifierCalls(text);
  assert.equal(stood.length, text.length);
  assert.ok(stood.startsWith("override fun f() { "));
  assert.ok(!stood.includes("override(") && stood.includes("open (x)"));
  assert.ok(!stood.includes(".inline("));
  const [symbol] = restoreModifierCalls([{
    kind: "fun",
    name: stood.slice(19, 27),
    startLine: 1,
    endLine: 1,
    children: [],
  }]);
  assert.equal(symbol.name, "override");
});

Deno.test("kotlin.extract() keeps a function named open( in a file the grammar misreads", async () => {
  const text = [
    "class Files {",
    "  fun open(path: String) = path",
    "  fun read() {",
    "    run {",
    "      open(file)",
    "    }",
    "  }",
    "}",
    "",
  ].join("\n");
  assert.deepEqual(await extractLines(kotlin, text), [
    "class Files 1-8",
    "    fun open 2-2",
    "    fun read 3-7",
  ]);
});

testStillMisreads({
  name: "the Kotlin grammar still misreads a call named override",
  grammar: "kotlin",
  text: "class A {\n  fun f() { override(1, 2) }\n  fun g() {}\n}\n",
  error: "an ERROR in the class",
});
