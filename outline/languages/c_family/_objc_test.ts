// The Objective-C text passes of _objc.ts: blankObjc() keeps every offset and
// line break, objcBlocks() reads blocks and members, overAttributes() widens
// over attribute lines, each in linear time.
import assert from "node:assert/strict";
import {
  assertBlankedOnly,
  randomTexts,
} from "../../../tests/support/blanked_text.ts";
import { isCppHeader, isObjcHeader } from "../../_dialect.ts";
import type { OutlineSymbol } from "../../types.ts";
import { elapsedMs } from "../../../tests/support/elapsed.ts";
import { outlineLines } from "../../../tests/support/outline_languages.ts";
import { codeOnly } from "./c_code.ts";
import { blankObjc, objcBlocks, overAttributes } from "./_objc.ts";

Deno.test("objc.extract() names properties whose generic types hold block or function types", () => {
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
  const texts = randomTexts(pieces, {
    seed: 7,
    count: 1500,
    most: 25,
    between: [" ", "\n", ""],
  });
  for (const text of texts) {
    // Every character stays or becomes a space; line breaks stay.
    for (const out of [blankObjc(text), codeOnly(text)]) {
      assertBlankedOnly(out, text);
    }
    objcBlocks(text);
  }
  // A blanked line keeps its \r; a blanked macro leaves the rest alone.
  assert.equal(
    blankObjc("@interface A\r\n@end\r\nint f(void) NS_B;\r\n"),
    "            \r\n    \r\nint f(void)     ;\r\n",
  );
});

Deno.test("blankObjc() blanks an 800,000-character line of macros in linear time", () => {
  const text = "@class A;\n" + "NS_A ".repeat(160_000) + "\n";
  const started = performance.now();
  const blanked = blankObjc(text);
  const elapsed = performance.now() - started;
  assert.equal(blanked.length, text.length);
  // A rebuild of the line per macro took seconds at 400,000 characters.
  assert.ok(elapsed < 10_000, `took ${elapsed.toFixed(0)} ms`);
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

Deno.test("blankObjc() takes linear time on a long block comment and long runs of empty lines", () => {
  const inputs = [
    "@class A;\n/*\n" + "*\n".repeat(50_000) + "*/\nint f(void);\n",
    "@class A;\nint f(void)\n" + "\n".repeat(100_000) + "NS_A;\n",
  ];
  for (const text of inputs) {
    const ms = elapsedMs(() => blankObjc(text));
    // Generous: linear is well under 100 ms; quadratic is seconds.
    assert.ok(ms < 1000, `${text.slice(0, 20)}: ${ms.toFixed(0)} ms`);
  }
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

Deno.test("blankObjc() takes linear time on nested macro calls left to C", () => {
  const n = 10_000;
  for (
    const body of [
      "int NS_A(".repeat(n) + ")".repeat(n) + ";\n",
      "void f(void) NS_A(".repeat(n) + ")".repeat(n) + ";\n",
    ]
  ) {
    const text = `@class A;\n${body}`;
    const started = performance.now();
    const blanked = blankObjc(text);
    const ms = performance.now() - started;
    assert.equal(blanked.length, text.length);
    // Generous: linear is a few milliseconds; quadratic is seconds.
    assert.ok(ms < 500, `${text.length} characters: ${ms.toFixed(0)} ms`);
  }
});

Deno.test("overAttributes() takes linear time on many symbols sharing a start line", () => {
  const text = `@class A;\n${"API_A ".repeat(20_000)}\nint f(void);\n`;
  const symbols: OutlineSymbol[] = [];
  for (let i = 0; i < 4000; i++) {
    symbols.push({
      kind: "function",
      name: `f${i}`,
      startLine: 3,
      endLine: 3,
      children: [],
    });
  }
  const started = performance.now();
  overAttributes(symbols, text);
  const ms = performance.now() - started;
  assert.equal(symbols[0].startLine, 2);
  // Generous: linear is a few milliseconds; quadratic is seconds.
  assert.ok(ms < 1000, `${ms.toFixed(0)} ms`);
});

Deno.test("objcBlocks() takes linear time on long words and long runs of spaces", () => {
  const inputs = [
    `@interface A : NSObject\n- (void)${"a".repeat(100_000)}\n@end\n`,
    `typedef NS_ENUM(${" ".repeat(100_000)}x\n`,
    `@protocol ${" ".repeat(100_000)}x\n`,
  ];
  for (const input of inputs) {
    const started = performance.now();
    objcBlocks(input);
    assert.ok(performance.now() - started < 2_000, input.slice(0, 20));
  }
});
