// The Kotlin outline: kotlin.extract() on fixtures and snippets and Kotlin
// files through outlineSymbols(): annotations, soft keywords, backticked
// names, nested classes and the repairs for what the grammar misreads.
import assert, { deepStrictEqual, ok } from "node:assert/strict";
import { createParser } from "../../../grammars/grammars.ts";
import {
  extractLines,
  lines,
  testExtract,
  testFixture,
  testOutlineFiles,
} from "../../../tests/support/outline_languages.ts";
import { kotlin } from "./kotlin.ts";

testFixture(kotlin, {
  name:
    "kotlin.extract() lists classes, objects, functions, properties and typealiases",
  file: "sample.kt",
  outline: [
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
  ],
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

  deepStrictEqual(await extractLines(kotlin, ONE_LINERS), [
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

Deno.test("kotlin.extract() keeps backticked names with braces in files with errors and in templates", async () => {
  const lines = async (text: string) => await extractLines(kotlin, text);
  assert.deepEqual(
    await lines(
      "class T { val a = 1 }\nclass U {\n    fun `x {y}`() { val q: dynamic = 1 }\n}\n",
    ),
    ["class T 1-1", "    val a 1-1", "class U 2-4", "    fun `x {y}` 3-3"],
  );
  assert.deepEqual(
    await lines(
      "class T { fun a() { val c = '`'; val d = 2 } }\nfun `b }`() {}\n",
    ),
    ["class T 1-1", "    fun a 1-1", "fun `b }` 2-2"],
  );
  assert.deepEqual(
    await lines('val s = "${`a b`}"\nclass X { fun y() = 1 }\n'),
    ["val s 1-1", "class X 2-2", "    fun y 2-2"],
  );
});

testExtract(kotlin, [
  {
    name: "kotlin.extract() keeps the rest of a file with a when guard",
    text: lines(
      "class Parser {",
      "  fun sign(x: Any) = when (x) {",
      "    is Int if x > 0 -> 1",
      "    else -> 0",
      "  }",
      "  fun reset() {}",
      "}",
      "",
      "class Lexer {",
      "  fun next() {}",
      "}",
    ),
    outline: [
      "class Parser 1-7",
      "    fun sign 2-5",
      "    fun reset 6-6",
      "class Lexer 9-11",
      "    fun next 10-10",
    ],
  },
  {
    name:
      "kotlin.extract() outlines a class whose primary constructor is annotated on its own line",
    text: ANNOTATED_CONSTRUCTOR,
    outline: [
      "class Manager 2-14 // A view manager.",
      "    val callback 7-7",
      "    fun getName 9-9",
      "    companion object Companion 11-13",
      "        val NAME 12-12",
      "fun helper 16-16",
    ],
  },
  {
    name:
      "kotlin.extract() goes on past the soft keyword dynamic used as a name",
    text: [
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
    ].join("\n"),
    outline: [
      "class A 1-4",
      "    val dynamic 2-2",
      "    fun b 3-3",
      "fun a 6-8",
      "fun dynamic 11-11 // Returns a dynamic value.",
      "val dynamicity 13-13",
    ],
  },
  {
    name: "kotlin.extract() lists an annotated marker annotation class",
    text: lines(
      "package expo.modules.kotlin.records",
      "",
      "/** Marks a required field. */",
      "@Target(AnnotationTarget.PROPERTY)",
      "@Retention(AnnotationRetention.RUNTIME)",
      "annotation class Required",
      "",
      "@Keep",
      "enum class Mode { ON }",
      "",
      "class After",
    ),
    outline: [
      "annotation class Required 4-6 // Marks a required field.",
      "enum class Mode 8-9",
      "    constant ON 9-9",
      "class After 11-11",
    ],
  },
  {
    name: "kotlin.extract() keeps the KDoc and annotations of a Hilt module",
    text: lines(
      "/** Provides the app's singletons. */",
      "@Module",
      "@InstallIn(SingletonComponent::class)",
      "object AppModule {",
      "  @Provides fun clock(): Clock = Clock.systemUTC()",
      "}",
      "",
      "class After",
    ),
    outline: [
      "object AppModule 2-6 // Provides the app's singletons.",
      "    fun clock 5-5",
      "class After 8-8",
    ],
  },
  {
    name:
      "kotlin.extract() lists the body of a delegating class that ends the file",
    text: lines(
      "class FilteredReadableMap(",
      "  private val backingMap: ReadableMap,",
      ") : ReadableMap by backingMap {",
      "  override val entryIterator = backingMap.entryIterator",
      "",
      "  /** Iterates the keys left. */",
      "  override fun keySetIterator(): Iterator = backingMap.keySetIterator()",
      "}",
    ),
    outline: [
      "class FilteredReadableMap 1-8",
      "    val backingMap 2-2",
      "    val entryIterator 4-4",
      "    fun keySetIterator 7-7 // Iterates the keys left.",
    ],
  },
  {
    name: "kotlin.extract() labels a data object as one",
    text: lines(
      "sealed interface UiState {",
      "    data object Loading : UiState",
      "    data class Success(val items: List<String>) : UiState",
      "}",
    ),
    outline: [
      "sealed interface UiState 1-4",
      "    data object Loading 2-2",
      "    data class Success 3-3",
      "        val items 3-3",
    ],
  },
  {
    name: "kotlin.extract() reads past a call named override( in a lambda",
    text: lines(
      "data class SourceMap(",
      "  val uri: String? = null,",
      ") : Source {",
      "  override fun createGlideOptions(context: Context): RequestOptions {",
      "    return RequestOptions().customize(width != 0) {",
      "      override(width, height)",
      "    }",
      "  }",
      "",
      "  private fun getCustomHeaders(): Headers = headers",
      "}",
    ),
    outline: [
      "data class SourceMap 1-11",
      "    val uri 2-2",
      "    fun createGlideOptions 4-8",
      "    fun getCustomHeaders 10-10",
    ],
  },
  {
    name:
      "kotlin.extract() finds declarations under annotation lines in a CRLF file",
    text: [
      "@Preview",
      "@Composable",
      "private fun P() {",
      "}",
      "",
      "fun q() {}",
      "",
    ].join("\r\n"),
    outline: [
      "fun P 1-4",
      "fun q 6-6",
    ],
  },
  {
    name:
      "kotlin.extract() keeps a top-level declaration under two annotation lines",
    text: lines(
      '@SuppressLint("RestrictedApi")',
      "@OptIn(CheckoutSessionPreview::class)",
      "internal object CheckoutConfigurationMapper {",
      "  fun map(params: ReadableMap): Int = 1",
      "}",
      "",
      "private const val HEX_COLOR_LENGTH_RGB = 6",
    ),
    outline: [
      "object CheckoutConfigurationMapper 1-5",
      "    fun map 4-4",
      "val HEX_COLOR_LENGTH_RGB 7-7",
    ],
    also: [
      {
        text: lines(
          "@Preview",
          "@Composable",
          "private fun GreetingPreview() {",
          '  Greeting("Android")',
          "}",
          "",
          "@Singleton",
          "@Keep",
          "class Repo {",
          "}",
          "",
          "@Composable",
          "fun Greeting(name: String) {}",
        ),
        outline: [
          "fun GreetingPreview 1-5",
          "class Repo 7-10",
          "fun Greeting 12-13",
        ],
      },
    ],
  },
  // No syntax error here: the grammar reads a class, then a member
  // `constructor` that takes the class's body.
  {
    name:
      "kotlin.extract() keeps a nested class whose internal constructor starts the next line",
    text: [
      "class Helper {",
      "  class Config",
      "  @Inject internal constructor(val min: Int) {",
      "    companion object {",
      "      fun from(): Config = Config(0)",
      "    }",
      "  }",
      "  fun start() {}",
      "}",
    ].join("\n"),
    outline: [
      "class Helper 1-9",
      "    class Config 2-7",
      "        val min 3-3",
      "        companion object Companion 4-6",
      "            fun from 5-5",
      "    fun start 8-8",
    ],
  },
  {
    name: "kotlin.extract() names a typed property called dynamic",
    text: "object O {\n    var dynamic: Int = 0\n    fun g() {}\n}\n",
    outline: ["object O 1-4", "    var dynamic 2-2", "    fun g 3-3"],
  },
  {
    name:
      "kotlin.extract() restores dynamic in class names, receivers, parameters and docs",
    text: [
      'val s = "dynamic"',
      "/** The dynamic thing. */",
      "val dynamic = 1",
      "fun dynamic(x: dynamic) {}",
      "class K(val dynamic: Int) {",
      "    fun h() {}",
      "}",
      "fun last() {}",
    ].join("\n"),
    outline: [
      "val s 1-1",
      "val dynamic 3-3 // The dynamic thing.",
      "fun dynamic 4-4",
      "class K 5-7",
      "    val dynamic 5-5",
      "    fun h 6-6",
      "fun last 8-8",
    ],
  },
  {
    name:
      "kotlin.extract() names var dynamic without changing a backticked name holding braces",
    text: [
      "class T {",
      "    var dynamic: Int = 0",
      "    fun `reads {a} as a`() {}",
      "}",
      "",
    ].join("\n"),
    outline: [
      "class T 1-4",
      "    var dynamic 2-2",
      "    fun `reads {a} as a` 3-3",
    ],
  },
  {
    name: "kotlin.extract() leaves a clean outline alone and names var dynamic",
    text: [
      "class T {",
      "    companion object {",
      "        fun make() = T()",
      "    }",
      '    val x: dynamic = js("{}")',
      "}",
      "object O { fun f() {} }",
      "class U {",
      "    var dynamic: Int = 0",
      "}",
      "",
    ].join("\n"),
    outline: [
      "class T 1-6",
      "    companion object Companion 2-4",
      "        fun make 3-3",
      "    val x 5-5",
      "object O 7-7",
      "    fun f 7-7",
      "class U 8-10",
      "    var dynamic 9-9",
    ],
  },
]);

testOutlineFiles([
  {
    name:
      "outlineSymbols() keeps a nested class whose primary constructor starts the next line (Kotlin)",
    file: "Outer.kt",
    text: lines(
      "class Outer {",
      "  class Page",
      "  private constructor(private val id: Int) {",
      "    fun a() {}",
      "  }",
      "",
      "  class Config",
      "  internal constructor(val min: Int) {",
      "    fun b() {}",
      "  }",
      "",
      "  fun after() {}",
      "}",
    ),
    outline: [
      "class Outer 1-13",
      "    class Page 2-5",
      "        val id 3-3",
      "        fun a 4-4",
      "    class Config 7-10",
      "        val min 8-8",
      "        fun b 9-9",
      "    fun after 12-12",
    ],
  },
  {
    name:
      "outlineSymbols() matches ctags' Kotlin names and lines, starting a symbol at its annotations",
    file: "Point.kt",
    text: lines(
      "package a.b",
      "",
      "/** A point. */",
      "@Keep",
      "data class Point(val x: Int, var y: Int) {",
      "  /** Length. */",
      "  @JvmStatic",
      "  fun String.shout(): String = this",
      "  val size: Int",
      "    get() = 1",
      "  companion object {",
      "    const val ZERO = 0",
      "  }",
      "}",
      "",
      "class Inspector",
      "private constructor(private val id: Int) {",
      "  enum class E { A, B }",
      "}",
      "",
      "typealias Points = List<Point>",
    ),
    outline: [
      "data class Point 4-14 // A point.",
      "    val x 5-5",
      "    var y 5-5",
      "    fun String.shout 7-8 // Length.",
      "    val size 9-10",
      "    companion object Companion 11-13",
      "        val ZERO 12-12",
      "class Inspector 16-19",
      "    val id 17-17",
      "    enum class E 18-18",
      "        constant A 18-18",
      "        constant B 18-18",
      "typealias Points 21-21",
    ],
  },
]);
