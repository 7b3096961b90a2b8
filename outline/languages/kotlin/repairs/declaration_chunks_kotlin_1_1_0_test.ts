import assert from "node:assert/strict";
import { extractLines } from "../../../../tests/support/outline_languages.ts";
import { kotlin } from "../kotlin.ts";
import { declarationChunks } from "./declaration_chunks_kotlin_1_1_0.ts";

Deno.test("declarationChunks() cuts before top-level declarations with their docs and annotations", () => {
  const text = [
    "package a",
    "/** Doc. */",
    "@Suppress(",
    '  "unused"',
    ")",
    "class A",
    "@JvmOverloads",
    "constructor(x: Int) {",
    'val s = """',
    "fun notCode()",
    '"""',
    "}",
    "fun b() = listOf(",
    "fun c() {}",
    ")",
    "// B.",
    "fun d() {}",
  ].join("\n");
  assert.deepEqual(declarationChunks(text).map((chunk) => chunk.line), [
    0,
    1,
    12,
    15,
  ]);
  assert.equal(
    declarationChunks(text).map((chunk) => chunk.text).join("\n"),
    text,
  );
});

Deno.test("kotlin.extract() keeps the other declarations when one stays unreadable", async () => {
  const text = [
    "/** First. */",
    "class A {",
    "  fun s(x: Any) = when (x) {",
    "    is Int if",
    "      x > 0 -> 1",
    "    else -> 0",
    "  }",
    "}",
    "",
    "/** Second. */",
    "class B {",
    "  fun g() {}",
    "}",
    "",
  ].join("\n");
  assert.deepEqual(await extractLines(kotlin, text), [
    "class B 11-13 // Second.",
    "    fun g 12-12",
  ]);
});
