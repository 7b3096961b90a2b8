// Third review of the session-13 Objective-C work (50b6c68, 1fcb6e1): the
// narrower macro blanking of blankObjc(), the wrapped shapes of the
// Objective-C scanner, codeOnly()'s raw strings, the dialect check's macros
// before `@interface`, and Kotlin's backticked names. The faults it found are
// fixed; each test under a "Fixed fault" note failed before its fix. The
// others pin edge cases that work.
import assert from "node:assert/strict";
import { isCppHeader, isObjcHeader } from "../outline/_dialect.ts";
import { codeOnly } from "../outline/languages/c_family/c_code.ts";
import { blankObjc, objcBlocks } from "../outline/languages/c_family/_objc.ts";
import { kotlin } from "../outline/languages/kotlin/kotlin.ts";
import { extractText, outlineLines } from "./support/outline_languages.ts";
import { objcLines } from "./support/objc_lines.ts";

function elapsedMs(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

// ---------------------------------------------------------------- faults

// Fixed fault (regression from 50b6c68): blankObjc() is quadratic in a run of empty
// or comment-only lines: _endsDeclarator() walks back over the whole run for
// every line of it. A 100,000-character block comment of short lines takes
// ~6 s here (100,000 empty lines ~24 s); twice as long takes four times as
// long. On a real header, /usr/include/linux/bpf.h (262 KB, a long block
// comment), it takes ~270 ms against ~20 ms before 50b6c68. Expected: linear,
// a few milliseconds.
Deno.test({
  name:
    "blankObjc() takes linear time on a long block comment and long runs of empty lines",
  fn: () => {
    const inputs = [
      "@class A;\n/*\n" + "*\n".repeat(50_000) + "*/\nint f(void);\n",
      "@class A;\nint f(void)\n" + "\n".repeat(100_000) + "NS_A;\n",
    ];
    for (const text of inputs) {
      const ms = elapsedMs(() => blankObjc(text));
      // Generous: linear is well under 100 ms; quadratic is seconds.
      assert.ok(ms < 1000, `${text.slice(0, 20)}: ${ms.toFixed(0)} ms`);
    }
  },
});

// Fixed fault (new in 50b6c68): codeOnly() memoizes an unclosed raw string per
// delimiter, but every distinct delimiter (up to 16 characters, so without
// bound) still searches the rest of the text for its `)d"`: quadratic. 200,000
// characters of lines `R"<n>()x)` take ~6 s here (100,000 ~1.4 s; the 64 KB
// head isObjcHeader() reads ~0.6 s). Expected: linear (an unclosed raw string
// can only end at a `)` followed by its delimiter, which one pass finds).
Deno.test({
  name: "codeOnly() takes linear time on many distinct unclosed raw strings",
  fn: () => {
    const lines: string[] = [];
    for (let i = 0, size = 0; size < 200_000; i++) {
      lines.push(`R"${i.toString(36)}()x)\n`);
      size += lines.at(-1)!.length;
    }
    const text = lines.join("");
    const ms = elapsedMs(() => codeOnly(text));
    assert.ok(ms < 1000, `${ms.toFixed(0)} ms`);
  },
});

// Fixed fault (regression from 50b6c68): availability and Swift-name macros are
// blanked only after the line's first `)`. A typedef whose name is followed
// by two macros (`NS_TYPED_EXTENSIBLE_ENUM NS_SWIFT_NAME(Bar)`) keeps both,
// and the C grammar reads `NS_SWIFT_NAME(Bar)` as a function declarator: a
// bogus `function NS_SWIFT_NAME` appears. Before 50b6c68 both were blanked.
// Expected: the typedef alone.
Deno.test({
  name:
    "objc.extract() lists no function NS_SWIFT_NAME for a typedef with two trailing macros",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "@class A;",
          "/** A bar. */",
          "typedef NSString * NSBarName NS_TYPED_EXTENSIBLE_ENUM NS_SWIFT_NAME(Bar);",
          "/** Runs. */",
          "int run(void);",
          "",
        ].join("\n"),
      ),
      ["typedef NSBarName 3-3 // A bar.", "function run 5-5 // Runs."],
    );
  },
});

// Fixed fault (regression from 50b6c68): only the first export macro of a line is
// blanked, and a macro between it and the declarator stays (no `)` before
// it). `CF_EXPORT CF_RETURNS_RETAINED CFStringRef g(void);` loses g entirely;
// `UIKIT_EXTERN API_AVAILABLE(ios(13.0)) NSString *UIFoo(void);` loses its
// doc. Before 50b6c68 both were listed with their docs.
Deno.test({
  name:
    "objc.extract() keeps C functions with macros between the export macro and the type",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "@class A;",
          "/** Copies. */",
          "CF_EXPORT CF_RETURNS_RETAINED CFStringRef g(void);",
          "/** Makes. */",
          "UIKIT_EXTERN API_AVAILABLE(ios(13.0)) NSString *UIFoo(void);",
          "/** Runs. */",
          "int run(void);",
          "",
        ].join("\n"),
      ),
      [
        "function g 3-3 // Copies.",
        "function UIFoo 5-5 // Makes.",
        "function run 7-7 // Runs.",
      ],
    );
  },
});

// Fixed fault (regression from 50b6c68): a macro alone on its line that is neither
// a `_BEGIN`/`_END` marker nor after a `)` is no longer blanked:
// CoreFoundation's `CF_IMPLICIT_BRIDGING_ENABLED` / `_DISABLED` run into the
// next declaration, which is lost. Before 50b6c68 it was listed.
Deno.test({
  name:
    "objc.extract() keeps the declaration after CF_IMPLICIT_BRIDGING_DISABLED",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "@class A;",
          "CF_IMPLICIT_BRIDGING_DISABLED",
          "/** Copies. */",
          "CF_EXPORT CFStringRef g(void);",
          "/** Runs. */",
          "int run(void);",
          "",
        ].join("\n"),
      ),
      ["function g 4-4 // Copies.", "function run 6-6 // Runs."],
    );
  },
});

// Fixed fault (regression from 50b6c68): a macro call before the declarator is not
// blanked (no `)` before it), so CoreFoundation's `typedef const struct
// CF_BRIDGED_TYPE(NSString) __CFString * CFStringRef;` is outlined as
// `typedef NSString`. Before 50b6c68: `typedef CFStringRef`.
Deno.test({
  name: "objc.extract() names a CF_BRIDGED_TYPE typedef by its declarator",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "@class A;",
          "/** A string. */",
          "typedef const struct CF_BRIDGED_TYPE(NSString) __CFString * CFStringRef;",
          "",
        ].join("\n"),
      ),
      ["typedef CFStringRef 3-3 // A string."],
    );
  },
});

// Fixed fault (regression from 50b6c68): an availability macro before the export
// macro (`NS_SWIFT_UNAVAILABLE("...") FOUNDATION_EXPORT void f(void);`) is
// kept, and so is FOUNDATION_EXPORT (not at the line's start): the function
// loses its doc. Before 50b6c68 it had it.
Deno.test({
  name: "objc.extract() keeps the doc of a function after a leading macro call",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "@class A;",
          "/** Foos. */",
          'NS_SWIFT_UNAVAILABLE("Use x") FOUNDATION_EXPORT void NSFoo(void);',
          "",
        ].join("\n"),
      ),
      ["function NSFoo 3-3 // Foos."],
    );
  },
});

// Fixed fault (fix of the previous review's API_/NS_/CF_ names is incomplete): a
// preprocessor line ending in `)` (`#if defined(NS_EXTRA)`) counts as a
// declarator the next line continues, and a `)` earlier on a line (an
// enumerator's value) opens the rest of it: NS_/API_ enumerators there are
// blanked and lost. Expected: every enumerator listed.
Deno.test({
  name:
    "objc.extract() keeps NS_/API_ enumerators after #if defined(...) and after a ( ) value",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "@class A;",
          "typedef enum {",
          "    NS_FOO_A,",
          "#if defined(NS_EXTRA)",
          "    NS_FOO_B,",
          "#endif",
          "    NS_FOO_C",
          "} NSFooKind;",
          "enum { API_A = (1), API_B = (2) };",
          "",
        ].join("\n"),
      ),
      [
        "typedef NSFooKind 2-8",
        "    enumerator NS_FOO_A 3-3",
        "    enumerator NS_FOO_B 5-5",
        "    enumerator NS_FOO_C 7-7",
        "enum (anonymous) 9-9",
        "    enumerator API_A 9-9",
        "    enumerator API_B 9-9",
      ],
    );
  },
});

// Fixed fault (regression from 50b6c68): _propertyName() takes the first `(^...)` or
// `(*...)` group as a block or function-pointer declarator, also inside a
// generic type argument, where it is unnamed: `NSArray<void (^)(void)>
// *handlers` and `NSDictionary<NSString *, void (*)(int)> *table` are dropped
// (before 50b6c68 `table` was listed). Expected: both properties named.
Deno.test({
  name:
    "objc.extract() names properties whose generic types hold block or function types",
  fn: () => {
    const blocks = objcBlocks(
      [
        "@interface A : NSObject",
        "@property (nonatomic, copy) NSArray<void (^)(void)> *handlers;",
        "@property (nonatomic) NSDictionary<NSString *, void (*)(int)> *table;",
        "@end",
        "",
      ].join("\n"),
    );
    assert.deepEqual(outlineLines(blocks), [
      "interface A 1-4",
      "    property handlers 2-2",
      "    property table 3-3",
    ]);
  },
});

// Fixed fault (minor, not a regression): an availability or Swift-name macro call
// alone on the line above a C function is not blanked (its own `)` is the
// line's first), so the function loses its doc; the same shape with a macro
// without arguments (`NS_REFINED_FOR_SWIFT`) keeps it, as lines 9-10 show.
// Expected: `function NSBaz 3-4 // Bazzes.` like NSQux.
Deno.test({
  name:
    "objc.extract() keeps the doc of a C function under an API_AVAILABLE(...) line",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "@class A;",
          "/** Bazzes. */",
          "API_AVAILABLE(macos(10.15))",
          "NSString *NSBaz(void);",
          "/** Quxes. */",
          "NS_REFINED_FOR_SWIFT",
          "int NSQux(void);",
          "",
        ].join("\n"),
      ),
      ["function NSBaz 3-4 // Bazzes.", "function NSQux 6-7 // Quxes."],
    );
  },
});

// Fixed fault (C extractor, not from these commits; Objective-C inherits it): a
// doc comment right below a preprocessor line (`#include`, `#endif`, the last
// line of a `#define`) is not taken as the next declaration's doc. Expected:
// `// Effs.` and `// Lasts.` as for `next`, whose comment follows a
// declaration.
Deno.test({
  name: "objc.extract() takes the doc comment right below a preprocessor line",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "#import <Foundation/Foundation.h>",
          "/** Effs. */",
          "void f(void);",
          "#define M(x) \\",
          "    x",
          "/** Lasts. */",
          "int last(void);",
          "/** Nexts. */",
          "int next(void);",
          "@interface A",
          "@end",
          "",
        ].join("\n"),
      ),
      [
        "function f 3-3 // Effs.",
        "function last 7-7 // Lasts.",
        "function next 9-9 // Nexts.",
        "interface A 10-11",
      ],
    );
  },
});

// ---------------------------------------------------------------- edge cases

Deno.test('objc.extract() keeps Swift names after a declarator, macros in parameters, inline bodies and extern "C"', async () => {
  const header = [
    "#import <Foundation/Foundation.h>",
    "#ifdef __cplusplus",
    'extern "C" {',
    "#endif",
    "int first(void);",
    "/** Effs. */",
    "void f(void) NS_SWIFT_NAME(g());",
    "/** Runs. */",
    "void h(void (^block)(void) NS_NOESCAPE, int y);",
    "/** Wraps. */",
    "int wrapped(int a,",
    "            int b)",
    "    NS_SWIFT_NAME(wrapped(a:b:));",
    "/** Makes a range. */",
    "NS_INLINE NSRange NSMakeRange(NSUInteger loc,",
    "                              NSUInteger len) {",
    "    NSRange r;",
    "    return (r.location == loc)",
    "        && NS_SAME(r, len) ? r : r;",
    "}",
    "#define NS_MAKE(x) \\",
    "    NS_SWIFT_NAME(x) API_AVAILABLE(ios(1))",
    "int spacer(void);",
    "/** Lasts. */",
    "int last(void);",
    "#ifdef __cplusplus",
    "}",
    "#endif",
    "@interface A",
    "@end",
    "",
  ].join("\n");
  assert.deepEqual(await objcLines(header), [
    "function first 5-5",
    "function f 7-7 // Effs.",
    "function h 9-9 // Runs.",
    "function wrapped 11-13 // Wraps.",
    "function NSMakeRange 15-20 // Makes a range.",
    "function spacer 23-23",
    "function last 25-25 // Lasts.",
    "interface A 29-30",
  ]);
  // The #define and its continuation keep their macros.
  assert.equal(
    blankObjc(header).split("\n")[21],
    "    NS_SWIFT_NAME(x) API_AVAILABLE(ios(1))",
  );
});

Deno.test("objcBlocks() reads wrapped attribute macros, macros on the @interface line and @end after a member", () => {
  const blocks = objcBlocks(
    [
      "@interface A : NSObject",
      "@property (nonatomic) int (*callback)(int);",
      "@property (nonatomic, copy) void (^(^maker)(int))(void);",
      "- (void)run; @end",
      "NS_CLASS_AVAILABLE(10_0, 2_0) @interface B : NSObject",
      "- (void)b;",
      "@end",
      "/** Sees. */",
      "API_AVAILABLE(macos(10.15),",
      "              ios(13.0))",
      "API_UNAVAILABLE(watchos)",
      "@interface C : NSObject",
      "- (void)c;",
      "@end",
      "",
    ].join("\n"),
  );
  assert.deepEqual(outlineLines(blocks), [
    "interface A 1-4",
    "    property callback 2-2",
    "    property maker 3-3",
    "    method run 4-4",
    "interface B 5-7",
    "    method b 6-6",
    "interface C 12-14 // Sees.",
    "    method c 13-13",
  ]);
});

Deno.test("codeOnly() keeps length and line breaks on random raw strings, prefixes and long delimiters", () => {
  const pieces = [
    'R"',
    'u8R"',
    'LR"',
    'uR"',
    'xR"',
    '"',
    "'",
    "(",
    ")",
    "abcdefghijklmnopq",
    "d",
    ')d"',
    ')"',
    "\\",
    "\n",
    "\r\n",
    "/*",
    "*/",
    "//",
    "1'000",
    " ",
    "@end",
    "@interface A",
    "NS_A(x)",
    "#define X \\",
    "{",
    "}",
    "😀",
  ];
  let seed = 11;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let round = 0; round < 1500; round++) {
    let text = "";
    for (let k = 1 + next(30); k > 0; k--) text += pieces[next(pieces.length)];
    for (
      const out of [codeOnly(text), blankObjc(text)]
    ) {
      assert.equal(out.length, text.length, JSON.stringify(text));
      for (let i = 0; i < text.length; i++) {
        if (out[i] !== text[i]) {
          assert.equal(out[i], " ", JSON.stringify(text));
          assert.notEqual(text[i], "\n", JSON.stringify(text));
        }
      }
    }
  }
  assert.equal(codeOnly('u8R"x(a/*b)x" /* c */'), 'u8R"x(    )x"        ');
  assert.equal(codeOnly('LR"(a")" // c'), 'LR"(  )"     ');
  // After an identifier, R is a name and the string a plain one.
  assert.equal(codeOnly('xR"(a)" b'), 'xR"   " b');
  // A 17-character delimiter is no raw string: a plain one to the line's end.
  assert.equal(
    codeOnly('R"abcdefghijklmnopq(a)abcdefghijklmnopq" /*x*/\nint f;'),
    'R"' + " ".repeat(37) + '"      \nint f;',
  );
  assert.equal(codeOnly('"a\\\nb" /*x*/ c'), '"  \n "       c');
  assert.equal(codeOnly('R"(\n/*\n)" int f;'), 'R"(\n  \n)" int f;');
});

Deno.test("isObjcHeader() takes macros before @interface, not C or C++ lines with macros", () => {
  assert.equal(
    isObjcHeader("UIKIT_EXTERN API_AVAILABLE(ios(2.0)) @interface V\n@end\n"),
    true,
  );
  for (
    const head of [
      "EXTERN_C int f(void);\nFOO(x) BAR(y(z)) int g;\n",
      "// Ann <ann@interface.org>\nAPI(x) int f(void);\n",
      '#define DECL(x) "@interface"\nint f(void);\n',
    ]
  ) {
    assert.equal(isObjcHeader(head), false, head);
  }
  assert.equal(
    isObjcHeader('MACRO(x) auto s = R"(\nA @interface B\n)";\n'),
    false,
  );
  const cpp = "API_EXPORT(x)\nnamespace a {\nclass B;\n}\n";
  assert.equal(isObjcHeader(cpp), false);
  assert.equal(isCppHeader(cpp), true);
});

Deno.test("blankObjc(), objcBlocks(), codeOnly() and isObjcHeader() stay linear on more 100k-character shapes", () => {
  const n = 100_000;
  const inputs = [
    "@class A;\n" + ")".repeat(n / 2) + " NS_A".repeat(n / 10) + "\n",
    "@class A;\n" + "f(x)\n".repeat(n / 5),
    "@class A;\n" + "f(x)\nNS_A(y) NS_B\n".repeat(n / 18),
    "@interface A\n" + "@end\n".repeat(n / 5),
    "typedef NS_ENUM(int, E) {" + "{".repeat(n) + "\n",
    "typedef NS_ENUM(int, E) {\n" + "{\n".repeat(n / 4) + "}\n".repeat(n / 4),
    "typedef NS_ENUM(\n".repeat(n / 17),
    "@class A;\n#define A \\\n" + "NS_A(x) \\\n".repeat(n / 10),
    "A\nA\nA\n@interface X\n".repeat(n / 20),
    "A(".repeat(n / 2) + "\n@interface X\n",
    "A (x) ".repeat(n / 6) + "\n@interface X\n",
    "A(x)(".repeat(n / 5) + "\n@interface X\n",
    'u8R"('.repeat(n / 5),
    "@interface A\n- (void)a {\n" + "{\n".repeat(n / 2) + "@end\n",
  ];
  for (const text of inputs) {
    const ms = elapsedMs(() => {
      blankObjc(text);
      objcBlocks(text);
      codeOnly(text);
      isObjcHeader(text.slice(0, 64 * 1024));
    });
    assert.ok(ms < 2000, `${text.slice(0, 30)}: ${ms.toFixed(0)} ms`);
  }
});

Deno.test("kotlin.extract() keeps backticked names with braces in files with errors and in templates", async () => {
  const lines = async (text: string) =>
    outlineLines(await extractText(kotlin, text));
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
