// Review of the session-13 fixes (88374bd, 0dd4fff, 1add141, ac74599): the
// Objective-C scanner and blankObjc(), codeOnly() and the header dialect
// checks, Kotlin's repair pass, Go's directive lines, and the ACP list
// cursor. The faults it found are fixed; each test under a "Fixed fault"
// note failed before its fix. The others pin edge cases that work.
import assert from "node:assert/strict";
import { join } from "node:path";
import { outlineSymbols } from "../mod.ts";
import { isCppHeader, isObjcHeader } from "../outline/_dialect.ts";
import { codeOnly } from "../outline/languages/c_family/c_code.ts";
import { blankObjc, objcBlocks } from "../outline/languages/c_family/_objc.ts";
import { go } from "../outline/languages/go/go.ts";
import { kotlin } from "../outline/languages/kotlin/kotlin.ts";
import { LIST_PAGE, listPage } from "../protocols/_acp_list.ts";
import { extractText, outlineLines } from "./support/outline_languages.ts";
import { withWorkspace } from "./support/workspace.ts";
import { objcLines } from "./support/objc_lines.ts";

// ---------------------------------------------------------------- faults

// Fixed fault (regression from 88374bd): C_ATTRIBUTE blanks its macros on every
// line, preprocessor lines included. `#if NS_BLOCKS_AVAILABLE` (Foundation's
// own guard) becomes an empty `#if`, the C grammar reads an error there and
// the function inside is lost; before the fix it was listed. Expected:
// `function MyKitRun 14-14 // Runs a block.` between the other two.
Deno.test({
  name:
    "objc.extract() keeps a C function inside #if NS_BLOCKS_AVAILABLE (macros in #if lines stay)",
  fn: async () => {
    const header = [
      "#import <Foundation/Foundation.h>",
      "",
      "#ifdef __cplusplus",
      '#define MYKIT_EXTERN extern "C" __attribute__((visibility("default")))',
      "#else",
      '#define MYKIT_EXTERN extern __attribute__((visibility("default")))',
      "#endif",
      "",
      "/** Makes a kit. */",
      "MYKIT_EXTERN NSString *MyKitMake(int a);",
      "",
      "#if NS_BLOCKS_AVAILABLE",
      "/** Runs a block. */",
      "MYKIT_EXTERN void MyKitRun(int a);",
      "#endif",
      "",
      "/** The kit. */",
      "@interface MyKit : NSObject",
      "@end",
      "",
      "/** Stops. */",
      "MYKIT_EXTERN void MyKitStop(void);",
      "",
    ].join("\n");
    assert.deepEqual(await objcLines(header), [
      "function MyKitMake 10-10 // Makes a kit.",
      "function MyKitRun 14-14 // Runs a block.",
      "interface MyKit 18-19 // The kit.",
      "function MyKitStop 22-22 // Stops.",
    ]);
  },
});

// Fixed fault (regression from 88374bd): the usual guard `#ifndef
// FOUNDATION_EXPORT` / `#define FOUNDATION_EXPORT extern` is blanked to an
// empty `#ifndef` and a `#define` of nothing; the error that makes costs the
// next declaration its doc. Expected `// Runs.` as before the fix.
Deno.test({
  name:
    "objc.extract() keeps the doc after an #ifndef/#define of an export macro",
  fn: async () => {
    const header = [
      "@class Foo;",
      "#ifndef FOUNDATION_EXPORT",
      "#define FOUNDATION_EXPORT extern",
      "#endif",
      "/** Runs. */",
      "FOUNDATION_EXPORT void Run(int x);",
      "int after(void);",
      "",
    ].join("\n");
    assert.deepEqual(await objcLines(header), [
      "function Run 6-6 // Runs.",
      "function after 7-7",
    ]);
  },
});

// Fixed fault (regression from 88374bd): C_ATTRIBUTE takes every all-caps word
// that starts with API_, NS_, CF_ or UIKIT_ for an attribute macro, so C
// names that merely have such a prefix are blanked: the enumerators of a
// plain C enum (`API_OK`, `NS_STATE_IDLE`) and a struct field `CF_FLAGS`
// vanish. Before the fix (and as C) they were listed.
Deno.test({
  name:
    "objc.extract() keeps C enumerators and fields whose names start with API_ or NS_",
  fn: async () => {
    const header = [
      "@class A;",
      "/** Status. */",
      "typedef enum {",
      "    API_OK,",
      "    API_ERROR_TIMEOUT = 2,",
      "    NS_STATE_IDLE,",
      "} ApiStatus;",
      "struct Config { int CF_FLAGS; char name[8]; };",
      "",
    ].join("\n");
    assert.deepEqual(await objcLines(header), [
      "typedef ApiStatus 3-7 // Status.",
      "    enumerator API_OK 4-4",
      "    enumerator API_ERROR_TIMEOUT 5-5",
      "    enumerator NS_STATE_IDLE 6-6",
      "struct Config 8-8",
      "    field CF_FLAGS 8-8",
      "    field name 8-8",
    ]);
  },
});

// Fixed fault: _blankAttributes() rebuilds the whole line for every macro it
// blanks (slice + concat per match), so one long line full of macros is
// quadratic: 100k characters take ~0.2 s, 400k 3-12 s, 800k far more on this
// machine (a minified or generated header). Expected: linear, a few ms.
Deno.test({
  name: "blankObjc() blanks an 800,000-character line of macros in linear time",
  fn: () => {
    const text = "@class A;\n" + "NS_A ".repeat(160_000) + "\n";
    const started = performance.now();
    const blanked = blankObjc(text);
    const elapsed = performance.now() - started;
    assert.equal(blanked.length, text.length);
    assert.ok(elapsed < 3000, `took ${elapsed.toFixed(0)} ms`);
  },
});

// Fixed fault: an attribute macro wrapped over two lines above @interface (as
// clang-format wraps API_DEPRECATED_WITH_REPLACEMENT at 80 columns) is not an
// "attribute line": it stays for the C grammar, minus the macro's name, so
// the interface loses its doc, and the error it causes takes the next C
// declaration's doc too. Expected: both docs.
Deno.test({
  name:
    "objc.extract() reads the doc above an attribute macro wrapped over two lines",
  fn: async () => {
    const header = [
      "#import <Foundation/Foundation.h>",
      "",
      "/** Old thing. */",
      'API_DEPRECATED_WITH_REPLACEMENT("NewThing", macos(10.10, 10.15),',
      "                                ios(8.0, 13.0))",
      "@interface OldThing : NSObject",
      "- (void)run;",
      "@end",
      "",
      "/** After. */",
      "int after(void);",
      "",
    ].join("\n");
    assert.deepEqual(await objcLines(header), [
      "interface OldThing 6-8 // Old thing.",
      "    method run 7-7",
      "function after 11-11 // After.",
    ]);
  },
});

// Fixed fault: older Apple SDK headers put the availability macro on the
// @interface line itself (`NS_CLASS_AVAILABLE_IOS(2_0) @interface UIView :
// UIResponder`, iOS 5-8 UIKit). BLOCK_START and isObjcHeader() want `@` at
// the start of the line: the header is outlined as C and the class is lost.
// Expected: Objective-C, `interface UIView 2-4` with its method.
Deno.test({
  name:
    "outlineSymbols() finds an @interface that follows an availability macro on its line",
  fn: async () => {
    await withWorkspace(async (dir) => {
      await Deno.writeTextFile(
        join(dir, "UIView.h"),
        [
          "#import <UIKit/UIKitDefines.h>",
          "NS_CLASS_AVAILABLE_IOS(2_0) @interface UIView : UIResponder",
          "- (void)layoutSubviews;",
          "@end",
          "",
        ].join("\n"),
      );
      const outline = await outlineSymbols("UIView.h", { cwd: dir });
      assert.equal(outline.language, "Objective-C");
      assert.deepEqual(outlineLines(outline.symbols), [
        "interface UIView 2-4",
        "    method layoutSubviews 3-3",
      ]);
    });
  },
});

// Fixed fault: a one-line Foundation enum lists no enumerators (_enumerators()
// only reads the lines between the first and the last), while the same
// one-line enum in plain C lists them. Expected: DirUp and DirDown.
Deno.test({
  name: "objc.extract() lists the enumerators of a one-line NS_ENUM",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        "@class A;\ntypedef NS_ENUM(NSInteger, Dir) { DirUp, DirDown };\n",
      ),
      [
        "enum Dir 2-2",
        "    enumerator DirUp 2-2",
        "    enumerator DirDown 2-2",
      ],
    );
  },
});

// Fixed fault: `@end` on the line of the last member (`- (void)a; @end`) is not
// seen (only a line starting with @end ends a block), so the block runs on
// to the next @end: the C function in between is blanked away and the next
// @interface is swallowed. Expected: A 1-2, `after` with its doc, then B.
Deno.test({
  name: "objc.extract() ends a block at an @end after its last member",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "@interface A : NSObject",
          "- (void)a; @end",
          "/** After. */",
          "int after(void);",
          "@interface B : NSObject",
          "@end",
          "",
        ].join("\n"),
      ),
      [
        "interface A 1-2",
        "    method a 2-2",
        "function after 4-4 // After.",
        "interface B 5-6",
      ],
    );
  },
});

// Fixed fault: an enum macro whose arguments are wrapped (`typedef
// NS_OPTIONS(NSUInteger,` / `Name) {`, clang-format's shape for long names)
// is not seen by ENUM_START; C_ATTRIBUTE then blanks NS_OPTIONS, and the enum
// and its values are lost. Expected: the enum with its two values.
Deno.test({
  name: "objc.extract() reads an NS_OPTIONS whose arguments wrap",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        [
          "@class A;",
          "typedef NS_OPTIONS(NSUInteger,",
          "                   SplitOptions) {",
          "    SplitA = 1 << 0,",
          "    SplitB = 1 << 1,",
          "};",
          "",
        ].join("\n"),
      ),
      [
        "enum SplitOptions 2-6",
        "    enumerator SplitA 4-4",
        "    enumerator SplitB 5-5",
      ],
    );
  },
});

// Fixed fault: a function-pointer property is named after its return type:
// `@property (nonatomic) int (*callback)(int);` is listed as `property int`
// (_propertyName() drops every parenthesized group, the name's included).
// Expected: `callback`.
Deno.test({
  name: "objc.extract() names a function-pointer property",
  fn: async () => {
    assert.deepEqual(
      await objcLines(
        "@interface A : NSObject\n@property (nonatomic) int (*callback)(int);\n@end\n",
      ),
      ["interface A 1-3", "    property callback 2-2"],
    );
  },
});

// Fixed fault: since 0dd4fff the Kotlin repair pass also runs on a file that
// parses cleanly but has an unnamed symbol (`var dynamic: Int`), and its
// "terminate one-line bodies" step inserts `;` inside a backticked name
// (`fun \`reads {a} as a\`()` comes out as `reads {a;} as a`). Before the
// change that name was right. Expected: the property named and the function
// name untouched.
Deno.test({
  name:
    "kotlin.extract() names var dynamic without changing a backticked name holding braces",
  fn: async () => {
    const lines = outlineLines(
      await extractText(
        kotlin,
        [
          "class T {",
          "    var dynamic: Int = 0",
          "    fun `reads {a} as a`() {}",
          "}",
          "",
        ].join("\n"),
      ),
    );
    assert.deepEqual(lines, [
      "class T 1-4",
      "    var dynamic 2-2",
      "    fun `reads {a} as a` 3-3",
    ]);
  },
});

// Fixed fault (minor): codeOnly() does not know C++ raw strings, so a raw string
// that holds an `@interface` line makes a C++ header Objective-C (outlined
// with the C grammar, its namespace lost). Expected: C++, not Objective-C.
Deno.test({
  name: "isObjcHeader() ignores @interface inside a C++ raw string",
  fn: () => {
    const head = 'auto s = R"(\n@interface Foo\n)";\nnamespace a {\n}\n';
    assert.equal(isObjcHeader(head), false);
    assert.equal(isCppHeader(head), true);
  },
});

// ---------------------------------------------------------------- edge cases

Deno.test("blankObjc() keeps length, line breaks and \\r on random Objective-C text", () => {
  const pieces = [
    "@interface A : B",
    "@end",
    "@protocol P",
    "@property (nonatomic) int x;",
    "- (void)a:(int)b;",
    "{",
    "}",
    "/*",
    "*/",
    "//",
    '"',
    "'",
    "\\",
    '@"a/*"',
    "NS_A(x)",
    "API_AVAILABLE(ios(1))",
    "__attribute__((a(b)))",
    "FOUNDATION_EXPORT",
    "typedef NS_ENUM(int, E) {",
    "A,",
    "};",
    "#if 0",
    "\r\n",
    "\n",
    "\r",
    "日本",
    "😀",
    "(",
    ")",
    "NS_ASSUME_NONNULL_BEGIN",
    "@class X;",
    "@interface A () @end",
  ];
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let round = 0; round < 1500; round++) {
    let text = "";
    for (let k = 1 + next(25); k > 0; k--) {
      text += pieces[next(pieces.length)] + [" ", "\n", ""][next(3)];
    }
    for (
      const out of [blankObjc(text), codeOnly(text)]
    ) {
      assert.equal(out.length, text.length, JSON.stringify(text));
      for (let i = 0; i < text.length; i++) {
        // Every character stays or becomes a space; line breaks stay.
        if (out[i] !== text[i]) {
          assert.equal(out[i], " ", JSON.stringify(text));
          assert.notEqual(text[i], "\n", JSON.stringify(text));
        }
      }
    }
    objcBlocks(text);
  }
  // A blanked line keeps its \r; a blanked macro leaves the rest alone.
  assert.equal(
    blankObjc("@interface A\r\n@end\r\nint f(void) NS_B;\r\n"),
    "            \r\n    \r\nint f(void)     ;\r\n",
  );
});

Deno.test("blankObjc(), objcBlocks() and the dialect checks stay linear on 100k-character inputs", () => {
  const n = 100_000;
  const inputs = [
    "@interface A\n" + " ".repeat(n) + "x\n@end\n",
    "@class A;\n" + "NS_A(x) ".repeat(n / 8) + "\n",
    "@class A;\n" + "__attribute__((a)) ".repeat(n / 19) + "\n",
    "@class A;\n" + "A_EXPOR".repeat(n / 7) + "\n",
    "@class A;\n" + "NS_A(".repeat(n / 5) + "\n",
    "@class A;\n" + "__attribute__((".repeat(n / 15) + "\n",
    "@class A;\n" + "_ ".repeat(n / 2) + "\n",
    "@class A;\nA_END" + " ".repeat(n) + "x\n",
    "typedef NS_ENUM(a," + " ".repeat(n) + "\n",
    "@interface A\n- (void)" + "a:".repeat(n / 2) + ";\n@end\n",
    "@interface A\n@property " + "(^".repeat(n / 2) + ";\n@end\n",
    "@interface " + "<".repeat(n) + "\n@end\n",
    "@interface A @end\n".repeat(n / 18),
    "@interface A\n" + "NS_A\n- (void)a;\n".repeat(n / 16) + "@end\n",
    "NS_A(x)\n".repeat(n / 8) + "@interface A\n@end\n",
    "/*".repeat(n / 2),
    "'".repeat(n) + "\n@interface",
  ];
  for (const text of inputs) {
    const started = performance.now();
    blankObjc(text);
    objcBlocks(text);
    isCppHeader(text);
    isObjcHeader(text);
    const elapsed = performance.now() - started;
    // Generous: each takes well under 100 ms here; quadratic would be seconds.
    assert.ok(elapsed < 2000, `${text.slice(0, 30)}: ${elapsed.toFixed(0)} ms`);
  }
});

Deno.test("objc.extract() outlines an Apple-style header: generics, ivars, block properties, wrapped selectors, enum macros", async () => {
  const header = [
    "#import <Foundation/Foundation.h>",
    "",
    "NS_ASSUME_NONNULL_BEGIN",
    "",
    "@class NSData, NSArray<ObjectType>;",
    "@protocol UIFooDelegate;",
    "",
    "/** Content modes. */",
    "typedef NS_ENUM(NSInteger, Mode)",
    "{",
    "    /// Scales.",
    "    ModeScale,",
    "    ModeFit,      // fits",
    "    ModeRedraw API_AVAILABLE(ios(7.0)),",
    "    ModeCenter = 1 << 2,",
    "} API_AVAILABLE(ios(2.0));",
    "",
    "/** A generic list. */",
    "UIKIT_EXTERN API_AVAILABLE(ios(2.0)) NS_SWIFT_UI_ACTOR",
    "@interface List<__covariant ObjectType> : NSObject <NSCopying,",
    "    NSSecureCoding>",
    "{",
    "  @private",
    "    int _count;",
    "}",
    "/** Count. */",
    "@property (nonatomic, readonly) NSUInteger count API_AVAILABLE(ios(9.0));",
    "@property (nonatomic, copy, nullable) void (^completionHandler)(NSData * _Nullable data, NSError * _Nullable error);",
    "/// Adds.",
    "- (void)addObject:(ObjectType)object",
    "          atIndex:(NSUInteger)index NS_SWIFT_NAME(add(_:at:));",
    "+ (instancetype)listWithObjects:(ObjectType)first, ... NS_REQUIRES_NIL_TERMINATION;",
    "- (nullable instancetype)init NS_DESIGNATED_INITIALIZER;",
    "@end",
    "",
    "@interface List<ObjectType> (Extras)",
    "- (void)shuffle;",
    "@end",
    "",
    "@protocol UIFooDelegate <NSObject>",
    "@optional",
    "- (void)foo:(id)foo didBar:(BOOL)bar;",
    "@end",
    "",
    "/** Does it. */",
    'FOUNDATION_EXPORT NSString *NSDoIt(NSString *s) NS_SWIFT_NAME(doIt(_:)) API_DEPRECATED("use NSDoIt2() (faster)", macos(10.0, 10.5));',
    "",
    "/** Makes a range. */",
    "NS_INLINE NSRange NSMakeRangeX(NSUInteger loc, NSUInteger len) {",
    "    NSRange r;",
    "    r.location = loc;",
    "    return r;",
    "}",
    "",
    "/** Wrapped availability. */",
    'FOUNDATION_EXPORT int MakeThing(int a) API_DEPRECATED("use MakeThing2()",',
    "    macos(10.0, 10.5), ios(2.0, 9.0));",
    "",
    "NS_ASSUME_NONNULL_END",
    "",
  ].join("\n");
  assert.deepEqual(await objcLines(header), [
    "enum Mode 9-16 // Content modes.",
    "    enumerator ModeScale 12-12 // Scales.",
    "    enumerator ModeFit 13-13",
    "    enumerator ModeRedraw 14-14",
    "    enumerator ModeCenter 15-15",
    "interface List 20-34 // A generic list.",
    "    property count 27-27 // Count.",
    "    property completionHandler 28-28",
    "    method addObject:atIndex: 30-31 // Adds.",
    "    class method listWithObjects: 32-32",
    "    method init 33-33",
    "interface List (Extras) 36-38",
    "    method shuffle 37-37",
    "protocol UIFooDelegate 40-43",
    "    method foo:didBar: 42-42",
    "function NSDoIt 46-46 // Does it.",
    "function NSMakeRangeX 49-53 // Makes a range.",
    "function MakeThing 56-57 // Wrapped availability.",
  ]);
});

Deno.test("objc.extract() reads forward, error, closed and typed enum macros with wrapped values and #if lines", async () => {
  const header = [
    "@class A;",
    "typedef NS_ENUM(NSInteger, Fwd);",
    "/** Errors. */",
    "typedef NS_ERROR_ENUM(MyErrorDomain, MyError) {",
    "    MyErrorBad = 1,",
    "    MyErrorWorse = MyErrorBad |",
    "        2,",
    "    MyErrorWorst,",
    "};",
    "/** Names. */",
    "typedef NSString *MyName NS_TYPED_EXTENSIBLE_ENUM;",
    "/** Closed. */",
    "typedef NS_CLOSED_ENUM(NSUInteger, Closed) {",
    "#if TARGET_OS_IPHONE",
    "    ClosedA,",
    "#endif",
    "    ClosedB",
    "};",
    "",
  ].join("\n");
  assert.deepEqual(await objcLines(header), [
    "enum Fwd 2-2",
    "enum MyError 4-9 // Errors.",
    "    enumerator MyErrorBad 5-5",
    "    enumerator MyErrorWorse 6-6",
    "    enumerator MyErrorWorst 8-8",
    "typedef MyName 11-11 // Names.",
    "enum Closed 13-18 // Closed.",
    "    enumerator ClosedA 15-15",
    "    enumerator ClosedB 17-17",
  ]);
});

Deno.test("codeOnly() and the header checks read char literals, apostrophes in #error/#if 0 and digit separators as C does", () => {
  // C stays C: markers inside literals, comments and unterminated '...' lines.
  for (
    const head of [
      "char q = '\"';\nint f(void);\n/* namespace a { */\n",
      "char q = '\\'';\nconst char *s = \"namespace a {\";\nint f(void);\n",
      "#error Don't include this directly\nint f(void);\n// class A {\n",
      "#if 0\nIt's old: class A {\n#endif\nint f(void);\n",
      "#warning This header's deprecated\nint x;\n",
      '#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n',
      'const char *s = "@interface A";\n// @protocol P\nint f(void);\n',
    ]
  ) {
    assert.equal(isCppHeader(head), false, head);
    assert.equal(isObjcHeader(head), false, head);
  }
  // C++ stays C++ after a quote, an escaped quote, an apostrophe or 1'000.
  for (
    const head of [
      "#error Don't\nnamespace a {\n}\n",
      "char q = '\"';\nnamespace a {\n}\n",
      "char q = '\\\\';\nnamespace a {\n}\n",
      "int x = 1'000;\nnamespace a {\n}\n",
      'auto s = R"(a " b)";\nnamespace a {\n}\n',
      'extern "C++" {\nint f();\n}\n',
    ]
  ) {
    assert.equal(isCppHeader(head), true, head);
    assert.equal(isObjcHeader(head), false, head);
  }
  // Objective-C stays Objective-C after an apostrophe or a quote in @"...".
  assert.equal(isObjcHeader("#pragma mark - It's\n@interface A\n@end\n"), true);
  assert.equal(isObjcHeader('x = @"a\'b\\"";\n@interface A\n@end\n'), true);
  assert.equal(
    codeOnly("a = '\"'; /* x */ b = \"'\"; // c\r\n"),
    "a = ' '; " + " ".repeat(7) + ' b = " "; ' + " ".repeat(5) + "\n",
  );
});

Deno.test("kotlin.extract() leaves a clean outline alone and names var dynamic", async () => {
  const lines = outlineLines(
    await extractText(
      kotlin,
      [
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
    ),
  );
  assert.deepEqual(lines, [
    "class T 1-6",
    "    companion object Companion 2-4",
    "        fun make 3-3",
    "    val x 5-5",
    "object O 7-7",
    "    fun f 7-7",
    "class U 8-10",
    "    var dynamic 9-9",
  ]);
});

Deno.test("go.extract() drops directives as go/ast does, and keeps look-alikes", async () => {
  const source = [
    "package p",
    "",
    "//go:noinline",
    "// Foo does x.",
    "func Foo() {}",
    "",
    "// Bar does y.",
    "//",
    "//go:generate stringer -type=X",
    "//nolint:errcheck",
    "func Bar() {}",
    "",
    "//lint:ignore U1000 unused",
    "func Qux() {}",
    "",
    "// TODO: not a directive",
    "func Todo() {}",
    "",
    "//export",
    "func NoSpace() {}",
    "",
    "//a:B",
    "func Upper() {}",
    "",
    "//line foo.go:10",
    "func Line() {}",
    "",
  ].join("\n");
  assert.deepEqual(outlineLines(await extractText(go, source)), [
    "package p 1-1",
    "func Foo 5-5 // Foo does x.",
    "func Bar 11-11 // Bar does y.",
    "func Qux 14-14",
    "func Todo 17-17 // TODO: not a directive",
    // go/ast: `export` needs a space, `a:B` a lowercase letter or digit.
    "func NoSpace 20-20 // export",
    "func Upper 23-23 // a:B",
    "func Line 26-26",
  ]);
});

Deno.test("listPage() pages through sessions whose times hold non-Latin-1 text and lone surrogates", () => {
  const times = ["2026-01-01 日本", "2026-01-01 😀", "2026-01-01 \ud800", ""];
  const listings = Array.from({ length: LIST_PAGE * 2 + 3 }, (_, i) => ({
    path: `/saved/s${String(i).padStart(3, "0")}.json`,
    cwd: "/w",
    updated: times[i % times.length],
  }));
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 5; page++) {
    const result = listPage(listings, { cursor });
    seen.push(...result.sessions.map((s) => s.sessionId));
    cursor = result.nextCursor ?? undefined;
    if (cursor === undefined) break;
    assert.match(cursor, /^[A-Za-z0-9+/]+=*$/);
  }
  assert.equal(cursor, undefined);
  assert.equal(seen.length, listings.length);
  assert.equal(new Set(seen).size, listings.length);
  // Latin-1 bytes that are not UTF-8 are refused, not misread.
  assert.throws(
    () => listPage(listings, { cursor: btoa('["\xe9","s001"]') }),
    /unknown cursor/,
  );
});
