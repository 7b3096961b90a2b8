// kotlin.extract(): the symbols of Kotlin files, through the real grammar and
// the repairs of its gaps (each repair's own tests sit in repairs/).
import { deepStrictEqual, ok } from "node:assert/strict";
import { createParser } from "../../../grammars/grammars.ts";
import {
  extractText,
  fixtureLines,
  outlineLines,
} from "../../../tests/support/outline_languages.ts";
import { kotlin } from "./kotlin.ts";

Deno.test("kotlin.extract() lists classes, objects, functions, properties and typealiases", async () => {
  deepStrictEqual(await fixtureLines(kotlin, "sample.kt"), [
    "object Empty 6-6",
    "    fun nothing 6-6",
    "class Single 7-7",
    "    fun one 7-7",
    "interface Repository 14-17 // Stores items by id.",
    "    fun find 15-15",
    "    val size 16-16",
    "data class User 20-29 // A user of the store.",
    "    val id 21-21",
    "    var name 21-21",
    "    fun display 23-23 // How the user is shown.",
    "    companion object Companion 25-28",
    "        val MAX_NAME 26-26",
    "        fun guest 27-27",
    "enum class Color 31-36",
    "    val rgb 31-31",
    "    constant RED 32-32",
    "    constant GREEN 33-33",
    "    fun hex 35-35",
    "sealed interface Event 38-38",
    "class Base 39-44",
    "    val name 39-39",
    "    fun run 40-40",
    "    constructor constructor 42-42",
    "    inner class Part 43-43",
    "object Registry 46-51",
    "    val items 47-47",
    "    fun register 48-50",
    "typealias Handler 53-53",
    "fun maxOf2 56-56 // The larger of two.",
    "val answer 58-58",
    "var counter 59-59",
    "fun String.shout 60-60",
    "val (low, high) 61-61",
  ]);
});

const ONE_LINERS = [
  "/** Empty. */",
  "object Empty { fun nothing() {} }",
  "class Single { fun one() = 1 }",
  "",
  "fun after() {}",
  "",
].join("\n");

Deno.test("kotlin.extract() recovers the declarations the grammar loses after one-line bodies", async () => {
  // The pinned grammar turns everything from line 2 on into one ERROR.
  const parser = await createParser("kotlin");
  const tree = parser.parse(ONE_LINERS)!;
  const types = tree.rootNode.namedChildren.map((node) => node.type);
  tree.delete();
  parser.delete();
  ok(types.includes("ERROR"), `expected an ERROR, got ${types}`);

  deepStrictEqual(outlineLines(await extractText(kotlin, ONE_LINERS)), [
    "object Empty 2-2 // Empty.",
    "    fun nothing 2-2",
    "class Single 3-3",
    "    fun one 3-3",
    "fun after 5-5",
  ]);
});

// An annotation that starts the line after a class's name, before its primary
// constructor, makes the grammar (1.1.0) lose the rest of the file.
const ANNOTATED_CONSTRUCTOR = [
  "/** A view manager. */",
  "@Module(name = Manager.NAME)",
  "public class Manager",
  "@JvmOverloads",
  "@Inject",
  "public constructor(",
  "    private val callback: Callback? = null,",
  ") : Base() {",
  "  override fun getName(): String = NAME",
  "",
  "  public companion object {",
  '    public const val NAME: String = "Manager"',
  "  }",
  "}",
  "",
  "internal fun helper(): Int = 1",
].join("\n");

Deno.test("kotlin.extract() outlines a class whose primary constructor is annotated on its own line", async () => {
  deepStrictEqual(
    outlineLines(await extractText(kotlin, ANNOTATED_CONSTRUCTOR)),
    [
      "class Manager 2-14 // A view manager.",
      "    val callback 7-7",
      "    fun getName 9-9",
      "    companion object Companion 11-13",
      "        val NAME 12-12",
      "fun helper 16-16",
    ],
  );
});

Deno.test("kotlin.extract() keeps a nested class whose internal constructor starts the next line", async () => {
  // No syntax error here: the grammar reads a class, then a member
  // `constructor` that takes the class's body.
  const text = [
    "class Helper {",
    "  class Config",
    "  @Inject internal constructor(val min: Int) {",
    "    companion object {",
    "      fun from(): Config = Config(0)",
    "    }",
    "  }",
    "  fun start() {}",
    "}",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(kotlin, text)), [
    "class Helper 1-9",
    "    class Config 2-7",
    "        val min 3-3",
    "        companion object Companion 4-6",
    "            fun from 5-5",
    "    fun start 8-8",
  ]);
});

Deno.test("kotlin.extract() goes on past the soft keyword dynamic used as a name", async () => {
  const text = [
    "class A {",
    "    val dynamic = 1",
    "    fun b(x: dynamic): dynamic = x",
    "}",
    "",
    "fun a() {",
    "    val dynamic = compute()",
    "}",
    "",
    "/** Returns a dynamic value. */",
    "fun dynamic(): Int = 1",
    "",
    "val dynamicity = 2",
  ].join("\n");
  deepStrictEqual(outlineLines(await extractText(kotlin, text)), [
    "class A 1-4",
    "    val dynamic 2-2",
    "    fun b 3-3",
    "fun a 6-8",
    "fun dynamic 11-11 // Returns a dynamic value.",
    "val dynamicity 13-13",
  ]);
});
