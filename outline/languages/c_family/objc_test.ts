// The Objective-C outline: interfaces, categories, protocols, implementations,
// methods, properties and enum macros, from objc.extract() and through
// outlineSymbols() / fileOutline().
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileOutline, outlineSymbols } from "../../../mod.ts";
import { isObjcHeader } from "../../_dialect.ts";
import { objcLines } from "../../../tests/support/objc_lines.ts";
import {
  extractLines,
  lines,
  outlineFile,
  outlineLines,
  type OutlineSnippet,
  testExtract,
  testFixture,
  testOutlines,
} from "../../../tests/support/outline_languages.ts";
import { withWorkspace } from "../../../tests/support/workspace.ts";
import { blankObjc } from "./_objc.ts";
import { objc } from "./objc.ts";

testFixture(objc, {
  name:
    "objc.extract() lists interfaces, categories, protocols, enum macros, methods, properties and the C declarations between them",
  file: "sample_objc.h",
  outline: [
    "enum KVOpenOptions 11-13 // Options for opening a store.",
    "    enumerator KVOpenReadOnly 12-12",
    "interface KVStore 19-35 // A persistent key-value store.",
    "    property name 25-25 // The store's name.",
    "    property onChange 26-26",
    "    method initWithName: 28-28",
    "    class method storeAtPath:options:error: 30-32 // Opens the store at a path.",
    "    method close 33-33",
    "interface KVStore (Observing) 38-40 // The store's observers; an @interface in a comment is not one.",
    "    method addObserver: 39-39",
    "interface KVStore () 42-44",
    "    property open 43-43",
    "protocol KVObserver 47-52 // Told when values change.",
    "    method store:didChangeKey: 49-49",
    "    method storeDidClose: 51-51",
    "function KVCount 55-55 // Counts the entries of a store.",
    "implementation KVEntry 59-65",
    "    method touch 60-64",
    "struct kv_pair 67-67",
    "    field key 67-67",
    "    field value 67-67",
  ],
});

Deno.test("blankObjc() keeps every line and offset, blanking only Objective-C", () => {
  const text = [
    "#import <Foundation/Foundation.h>",
    "@class A;",
    "NS_ASSUME_NONNULL_BEGIN",
    "@interface A : NSObject // é",
    "- (void)run;\r",
    "@end",
    "int add(int a, int b);",
  ].join("\n");
  const blanked = blankObjc(text);
  assert.equal(blanked.length, text.length);
  assert.deepEqual(
    blanked.split("\n").map((line) => line.trim()),
    [
      "#import <Foundation/Foundation.h>",
      "",
      "",
      "",
      "",
      "",
      "int add(int a, int b);",
    ],
  );
  assert.equal(blanked.split("\n")[4], " ".repeat(12) + "\r");
});

Deno.test("objc.extract() leaves a macro wrapping a whole declaration, and glibc's __nonnull ((1)), to the C grammar", async () => {
  const text = [
    "@class A;",
    "/** Old. */",
    "LLVM_ATTRIBUTE_C_DEPRECATED(",
    "    LLVMValueRef LLVMConstGEP(LLVMValueRef V, unsigned N),",
    '    "Use LLVMConstGEP2 instead");',
    "/** Converts. */",
    "extern double atof (const char *__nptr)",
    "     __THROW __attribute_pure__ __nonnull ((1)) __wur;",
    "/** Last. */",
    "SEL _Nullable NSLastSelector(void);",
  ].join("\n");
  const blanked = blankObjc(text).split("\n");
  assert.equal(blanked[2], "LLVM_ATTRIBUTE_C_DEPRECATED(");
  assert.equal(
    blanked[7],
    "     __THROW __attribute_pure__ __nonnull ((1)) __wur;",
  );
  assert.equal(blanked[9], "SEL           NSLastSelector(void);");
  const lines = await extractLines(objc, text);
  assert.ok(lines.includes("function atof 7-8 // Converts."), lines.join("\n"));
  assert.ok(
    lines.includes("function NSLastSelector 10-10 // Last."),
    lines.join("\n"),
  );
});

/**
 * Asserts that outlineSymbols() reads `text`, saved as `file`, as
 * Objective-C with exactly `outline`.
 */
async function assertObjcFile(
  { file, text, outline }: Required<OutlineSnippet>,
): Promise<void> {
  const { language, symbols } = await outlineFile(file, text);
  assert.equal(language, "Objective-C");
  assert.deepEqual(outlineLines(symbols), outline);
}

Deno.test('outlineSymbols() reads an Objective-C header with @"image/*" in a string', async () => {
  assert.equal(
    isObjcHeader('x = @"image/*";\n@interface A : NSObject\n@end\n'),
    true,
  );
  await assertObjcFile({
    file: "Mime.h",
    text: lines(
      "#import <Foundation/Foundation.h>",
      'static NSString *const kImage = @"image/*";',
      "@interface A : NSObject",
      "- (void)a;",
      "@end",
      "int after(void);",
    ),
    outline: ["interface A 3-5", "    method a 4-4", "function after 6-6"],
  });
});

Deno.test("fileOutline() ends an unterminated @interface at the file's last line", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      join(dir, "U.h"),
      "@interface A : NSObject\n- (void)a;\n",
    );
    const outline = await outlineSymbols("U.h", { cwd: dir });
    assert.equal(outline.totalLines, 2);
    assert.equal(outline.symbols[0].endLine, 2);
    const text = await fileOutline("U.h", { cwd: dir });
    assert.ok(text.includes("interface A (lines 1-2)"), text);
  });
});

Deno.test("outlineSymbols() outlines an Apple-SDK-style Objective-C header with its C declarations", async () => {
  const header = [
    "// NSWidget.h", // 1
    "#import <Foundation/Foundation.h>",
    "NS_HEADER_AUDIT_BEGIN(nullability, sendability)",
    "",
    "/// Widget kinds.", // 5
    "typedef NS_ENUM(NSInteger, NSWidgetKind) {",
    "    NSWidgetKindPlain, // plain",
    "#if TARGET_OS_OSX",
    "    NSWidgetKindMac API_AVAILABLE(macos(10.15)) = 7,",
    "#endif", // 10
    "} NS_SWIFT_NAME(Widget.Kind);",
    "",
    "/// A generic widget.",
    "@interface NSWidget<__covariant ObjectType> : NSObject <NSCopying> {",
    "  @private", // 15
    "    struct { int a; } _flags;",
    "}",
    "/// Whether it is open.",
    "@property (nonatomic, getter=isOpen) BOOL open;",
    "@property (nonatomic, readonly) NSArray<ObjectType> *items;", // 20
    "- (void)runWithCompletion:(void (^)(NSError *_Nullable error))completion",
    "    API_AVAILABLE(ios(13.0)) NS_SWIFT_NAME(run(completion:));",
    "/** Makes one.",
    " * Long. */",
    "+ (instancetype)widgetWithName:(NSString *)name", // 25
    "                         kind:(NSWidgetKind)kind;",
    "- (void (^)(void))handler;",
    "@end",
    "",
    "@interface NSWidget<ObjectType> (Extras)", // 30
    "@optional",
    "- (void)extra; /* @end in a comment */",
    "@required",
    "@end",
    "", // 35
    "/// Counts widgets.",
    "NSUInteger NSWidgetCount(NSWidget *w);",
    "typedef void (^NSWidgetHandler)(NSError *_Nullable error);",
    "",
    "NS_HEADER_AUDIT_END(nullability, sendability)", // 40
    "struct NSWidgetPair { int a; int b; };",
  ].join("\r\n");
  const outline = await outlineFile("NSWidget.h", header);
  assert.equal(outline.language, "Objective-C");
  assert.equal(outline.totalLines, 41);
  assert.deepEqual(outlineLines(outline.symbols), [
    "enum NSWidgetKind 6-11 // Widget kinds.",
    "    enumerator NSWidgetKindPlain 7-7",
    "    enumerator NSWidgetKindMac 9-9",
    "interface NSWidget 14-28 // A generic widget.",
    "    property open 19-19 // Whether it is open.",
    "    property items 20-20",
    "    method runWithCompletion: 21-22",
    "    class method widgetWithName:kind: 25-26 // Makes one.",
    "    method handler 27-27",
    "interface NSWidget (Extras) 30-34",
    "    method extra 32-32",
    "function NSWidgetCount 37-37 // Counts widgets.",
    "typedef NSWidgetHandler 38-38",
    "struct NSWidgetPair 41-41",
    "    field a 41-41",
    "    field b 41-41",
  ]);
});

Deno.test("outlineSymbols() stays fast and whole on an unterminated @interface of 20,000 lines without ;", async () => {
  const text = "@interface A : NSObject\n" +
    "- (void)a:(int)x\n".repeat(20_000) + "@property int p\n".repeat(2_000) +
    "/* never closed\n";
  const started = performance.now();
  const outline = await outlineFile("Big.h", text);
  // Milliseconds here; only proves it does not hang.
  assert.ok(performance.now() - started < 20_000);
  assert.equal(outline.language, "Objective-C");
  assert.equal(outline.symbols.length, 1);
  assert.equal(outline.symbols[0].kind, "interface");
});

Deno.test("outlineSymbols() finds an @interface that follows an availability macro on its line", async () => {
  await assertObjcFile({
    file: "UIView.h",
    text: lines(
      "#import <UIKit/UIKitDefines.h>",
      "NS_CLASS_AVAILABLE_IOS(2_0) @interface UIView : UIResponder",
      "- (void)layoutSubviews;",
      "@end",
    ),
    outline: ["interface UIView 2-4", "    method layoutSubviews 3-3"],
  });
});

testOutlines(({ text }) => objcLines(text), [
  {
    name:
      "objc.extract() ends a method body with // inside a string at its own brace",
    text: [
      "@implementation A",
      "- (void)open {",
      '    if ([u hasPrefix:@"http://"]) {',
      "        x();",
      "    }",
      "    y();",
      "}",
      "- (void)close {}",
      "@end",
    ].join("\n"),
    outline: [
      "implementation A 1-9",
      "    method open 2-7",
      "    method close 8-8",
    ],
  },
  {
    name:
      "objc.extract() ignores braces inside string literals in method bodies",
    text: [
      "@implementation A",
      "- (void)open {",
      '    NSLog(@"{");',
      "}",
      "- (void)close {}",
      "@end",
    ].join("\n"),
    outline: [
      "implementation A 1-6",
      "    method open 2-4",
      "    method close 5-5",
    ],
  },
  {
    name:
      "objc.extract() names properties with _Nullable blocks and trailing attributes",
    text: [
      "@interface P : NSObject",
      "@property (nonatomic, copy) void (^ _Nullable handler)(void);",
      "@property (nonatomic, readonly) UIStatusBarStyle style __TVOS_PROHIBITED;",
      '@property (nonatomic) int old __attribute__((deprecated("no")));',
      "@end",
    ].join("\n"),
    outline: [
      "interface P 1-5",
      "    property handler 2-2",
      "    property style 3-3",
      "    property old 4-4",
    ],
  },
  {
    name: "objc.extract() names a selector with an unnamed keyword foo::",
    text: "@interface A : NSObject\n- (void)foo:(int)a :(int)b;\n@end",
    outline: ["interface A 1-3", "    method foo:: 2-2"],
  },
  {
    name: "objc.extract() ends a one-line @interface ... @end on its line",
    text: "@interface A () @end\n@interface B : NSObject\n- (void)b;\n@end",
    outline: ["interface A () 1-1", "interface B 2-4", "    method b 3-3"],
  },
  {
    name: "objc.extract() lists no enumerator for a continued enumerator value",
    text: [
      "typedef NS_OPTIONS(NSUInteger, Color) {",
      "    ColorRed = 1 << 0,",
      "    ColorAll = ColorRed |",
      "               ColorBlue,",
      "};",
    ].join("\n"),
    outline: [
      "enum Color 1-5",
      "    enumerator ColorRed 2-2",
      "    enumerator ColorAll 3-3",
    ],
  },
  {
    name:
      "objc.extract() keeps C declarations and docs after an @interface split by #if/#else",
    text: [
      "#if TARGET_OS_IPHONE",
      "@interface Foo : UIView",
      "#else",
      "@interface Foo : NSView",
      "#endif",
      "- (void)x;",
      "@end",
      "",
      "/// Adds.",
      "int add(int a, int b);",
      "struct S { int a; };",
    ].join("\n"),
    outline: [
      "interface Foo 2-7",
      "    method x 6-6",
      "function add 10-10 // Adds.",
      "struct S 11-11",
      "    field a 11-11",
    ],
  },
  {
    name:
      "objc.extract() skips method bodies with braces in comments, and block comments holding @end",
    text: [
      "@implementation A",
      "- (void)open",
      "{",
      "    /* } @end { */",
      "    if (x) { y(); } // }",
      "}",
      "/*",
      "@end",
      "*/",
      "- (void)close {}",
      "@end",
      "int after(void);",
    ].join("\n"),
    outline: [
      "implementation A 1-11",
      "    method open 2-6",
      "    method close 10-10",
      "function after 12-12",
    ],
  },
  {
    name: "objc.extract() lists the enumerators of a one-line NS_ENUM",
    text: "@class A;\ntypedef NS_ENUM(NSInteger, Dir) { DirUp, DirDown };\n",
    outline: [
      "enum Dir 2-2",
      "    enumerator DirUp 2-2",
      "    enumerator DirDown 2-2",
    ],
  },
  {
    name: "objc.extract() ends a block at an @end after its last member",
    text: [
      "@interface A : NSObject",
      "- (void)a; @end",
      "/** After. */",
      "int after(void);",
      "@interface B : NSObject",
      "@end",
      "",
    ].join("\n"),
    outline: [
      "interface A 1-2",
      "    method a 2-2",
      "function after 4-4 // After.",
      "interface B 5-6",
    ],
  },
  {
    name: "objc.extract() reads an NS_OPTIONS whose arguments wrap",
    text: [
      "@class A;",
      "typedef NS_OPTIONS(NSUInteger,",
      "                   SplitOptions) {",
      "    SplitA = 1 << 0,",
      "    SplitB = 1 << 1,",
      "};",
      "",
    ].join("\n"),
    outline: [
      "enum SplitOptions 2-6",
      "    enumerator SplitA 4-4",
      "    enumerator SplitB 5-5",
    ],
  },
  {
    name: "objc.extract() names a function-pointer property",
    text:
      "@interface A : NSObject\n@property (nonatomic) int (*callback)(int);\n@end\n",
    outline: ["interface A 1-3", "    property callback 2-2"],
  },
  {
    name:
      "objc.extract() outlines an Apple-style header: generics, ivars, block properties, wrapped selectors, enum macros",
    text: [
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
    ].join("\n"),
    outline: [
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
    ],
  },
  {
    name:
      "objc.extract() reads forward, error, closed and typed enum macros with wrapped values and #if lines",
    text: [
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
    ].join("\n"),
    outline: [
      "enum Fwd 2-2",
      "enum MyError 4-9 // Errors.",
      "    enumerator MyErrorBad 5-5",
      "    enumerator MyErrorWorse 6-6",
      "    enumerator MyErrorWorst 8-8",
      "typedef MyName 11-11 // Names.",
      "enum Closed 13-18 // Closed.",
      "    enumerator ClosedA 15-15",
      "    enumerator ClosedB 17-17",
    ],
  },
]);

testExtract(objc, [
  {
    name:
      "objc.extract() runs an unterminated block to the end and skips method bodies",
    text: [
      "@implementation A",
      "- (int)count {",
      "    if (x) { return 1; }",
      "    - (void)notAMethod;",
      "    return 0;",
      "}",
      "+ (void)load {}",
      "@property int size;",
    ].join("\n"),
    outline: [
      "implementation A 1-8",
      "    method count 2-6",
      "    class method load 7-7",
      "    property size 8-8",
    ],
  },
]);
