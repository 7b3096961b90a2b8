// The C declarations of an Objective-C header (objc.extract()): Apple's export,
// availability and nullability macros read right, and every declaration the
// plain C outline of the same text lists, listed at least as well.
import assert from "node:assert/strict";
import { cLines, objcLines } from "../../../tests/support/objc_lines.ts";
import { testOutlines } from "../../../tests/support/outline_languages.ts";
import { blankObjc } from "./_objc.ts";

// A documented function between __BEGIN_DECLS and __END_DECLS, as Apple's
// headers declare it.
const DECLS_OF_G = [
  "__BEGIN_DECLS",
  "",
  "/** Gees. */",
  "OS_EXPORT CFStringRef g(void);",
  "__END_DECLS",
  "",
];

Deno.test("objc.extract() keeps a macro line above @interface out of the C declarations", async () => {
  for (
    const macro of [
      "NS_SWIFT_NAME(Thing)",
      "API_AVAILABLE(macos(10.15), ios(13.0))",
      "__attribute__((objc_subclassing_restricted))",
    ]
  ) {
    assert.deepEqual(
      await objcLines([
        "/// A thing.",
        macro,
        "@interface Foo : NSObject",
        "@end",
        "",
        "/// Adds.",
        "int add(int a, int b);",
        "int sub(int a, int b);",
      ].join("\n")),
      [
        "interface Foo 3-4 // A thing.",
        "function add 7-7 // Adds.",
        "function sub 8-8",
      ],
      macro,
    );
  }
});

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

Deno.test("objc.extract() does not stretch a declaration over __BEGIN_DECLS", async () => {
  const text = [
    "@class A;",
    "/* Things involving an internal resolver context. */",
    "__BEGIN_DECLS",
    "extern struct __res_state *__res_state(void) __attribute__ ((__const__));",
    "__END_DECLS",
    "",
  ].join("\n");
  assert.deepEqual(await cLines(text), ["function __res_state 4-4"]);
  const ranges = (await objcLines(text)).map((line) =>
    line.replace(/ \/\/.*/, "")
  );
  assert.deepEqual(ranges, ["function __res_state 4-4"]);
});

Deno.test("objc.extract() does not stretch a function over a macro line C lists as a symbol", async () => {
  const text = [
    "@class A;",
    "/** Docs. */",
    "__BEGIN_DECLS",
    "int f(void);",
    "__END_DECLS",
    "/** Gee. */",
    "DECLARE_THING(a, b)",
    "int g(void);",
    "",
  ].join("\n");
  // Plain C blanks the macro line and lists no `function DECLARE_THING`.
  assert.deepEqual((await cLines(text)).slice(1), ["function g 8-8"]);
  // g keeps its own line: the macro call above it is no symbol.
  const objcFunctions = (await objcLines(text)).filter((line) =>
    line.startsWith("function ")
  );
  assert.deepEqual(objcFunctions.slice(-1), ["function g 8-8"]);
});

Deno.test("objc.extract() outlines Apple C declarations at least as well as plain C", async () => {
  const text = [
    "@class A;", // 1
    "CF_IMPLICIT_BRIDGING_ENABLED",
    "CF_EXTERN_C_BEGIN",
    "/** A string. */",
    "typedef const struct CF_BRIDGED_TYPE(NSString) __CFString * CFStringRef;", // 5
    "/** Type id. */",
    "CF_EXPORT",
    "CFTypeID CFStringGetTypeID(void);",
    "/** Makes a point. */",
    "CG_INLINE CGPoint CGPointMake(CGFloat x, CGFloat y) { CGPoint p; p.x = x; return p; }", // 10
    "/** Zero. */",
    "CG_EXTERN const CGPoint CGPointZero CG_AVAILABLE_STARTING(10.0, 2.0);",
    "/** Old. */",
    "CF_EXPORT void CFOld(void) CF_DEPRECATED(10_0, 10_5, 2_0, 2_0);",
    "/** Older. */", // 15
    'CF_EXPORT void CFOlder(void) API_DEPRECATED("Use x", macos(10.0, 10.5)) API_UNAVAILABLE(ios);',
    "/** Kinds. */",
    "enum NSFooKind {",
    "    NSFooKindA API_AVAILABLE(ios(13)) = 0,",
    "    NSFooKindC NS_SWIFT_NAME(cee) = 2", // 20
    "};",
    "/** A thing. */",
    "struct NSFooThing {",
    "    int a API_AVAILABLE(macos(10.15));",
    "    int NS_FOO_FIELD;", // 25
    "    unsigned int CF_FLAGS : 3;",
    "};",
    "/** No swift. */",
    'NS_SWIFT_UNAVAILABLE("Use Bar")',
    "FOUNDATION_EXPORT void NSNoSwift(void);", // 30
    "/** Mutation. */",
    "OBJC_EXPORT void objc_enumerationMutation(id obj) OBJC_AVAILABLE(10.5, 2.0, 9.0, 1.0, 2.0);",
    "/** Asyncs. */",
    "API_AVAILABLE(macos(10.6), ios(4.0))",
    "DISPATCH_EXPORT DISPATCH_NONNULL_ALL DISPATCH_NOTHROW", // 35
    "void",
    "dispatch_async(dispatch_queue_t queue, dispatch_block_t block);",
    "CF_EXTERN_C_END",
    "CF_IMPLICIT_BRIDGING_DISABLED",
    "",
  ].join("\n");
  const objcOutline = await objcLines(text);
  assert.deepEqual(objcOutline, [
    "typedef CFStringRef 5-5 // A string.",
    "function CFStringGetTypeID 7-8 // Type id.",
    "function CGPointMake 10-10 // Makes a point.",
    "function CFOld 14-14 // Old.",
    "function CFOlder 16-16 // Older.",
    "enum NSFooKind 18-21 // Kinds.",
    "    enumerator NSFooKindA 19-19",
    "    enumerator NSFooKindC 20-20",
    "struct NSFooThing 23-27 // A thing.",
    "    field a 24-24",
    "    field NS_FOO_FIELD 25-25",
    "    field CF_FLAGS 26-26",
    "function NSNoSwift 29-30 // No swift.",
    "function objc_enumerationMutation 32-32 // Mutation.",
    "function dispatch_async 34-37 // Asyncs.",
  ]);
  // Every symbol plain C finds, but for the macros it takes for names (and
  // `typedef NSString`, read from CF_BRIDGED_TYPE's argument), is at the same
  // depth over the same line.
  const ranges = objcOutline.map((line) =>
    /^( *)\S+ .* (\d+)-(\d+)/.exec(line)!
  );
  for (const line of await cLines(text)) {
    const [, indent, name, start] = /^( *)\S+ (\S+) (\d+)-/.exec(line)!;
    if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/.test(name)) continue;
    assert.ok(
      ranges.some((range) =>
        range[1] === indent && +range[2] <= +start && +start <= +range[3]
      ),
      `plain C lists ${line.trim()}`,
    );
  }
});

Deno.test("objc.extract() stays fast on a large plain C header read as Objective-C", async () => {
  // Generous: this only proves it ends (about 0.5 s on a quiet machine).
  const block = [
    "/** Runs. */",
    "CF_EXPORT int run_0(int a, const char *b) CF_AVAILABLE(10_0, 2_0);",
    "typedef struct { int x; int NS_FOO; } Point_0;",
    "enum { K_A = 1, K_END",
    "};",
    "__BEGIN_DECLS",
    "API_AVAILABLE(ios(13))",
    "extern void f_0(void) __attribute__((x));",
    "__END_DECLS",
    "",
  ].join("\n");
  const parts = ["@class Foo;"];
  for (let i = 0; parts.length < 3000; i++) {
    parts.push(block.replaceAll("_0", `_${i}`));
  }
  const text = parts.join("\n");
  const started = performance.now();
  const lines = await objcLines(text);
  const ms = performance.now() - started;
  assert.ok(lines.length > 3000, `${lines.length} lines`);
  assert.ok(ms < 20_000, `${text.length} characters: ${ms.toFixed(0)} ms`);
});

Deno.test("objc.extract() blanks __BEGIN_DECLS after an NS_ENUM or @interface {", async () => {
  const afterEnum = [
    "@class A;",
    "typedef NS_ENUM(NSInteger, NSFooKind) {",
    "    NSFooKindA,",
    "};",
    ...DECLS_OF_G,
  ].join("\n");
  assert.ok((await cLines(afterEnum)).includes("function g 8-8 // Gees."));
  assert.deepEqual(await objcLines(afterEnum), [
    "enum NSFooKind 2-4",
    "    enumerator NSFooKindA 3-3",
    "function g 8-8 // Gees.",
  ]);
  const afterInterface = [
    "@class A;",
    "@interface Foo : NSObject {",
    "    int _x;",
    "}",
    "@end",
    ...DECLS_OF_G.filter((line) => line !== ""),
    "",
  ].join("\n");
  assert.deepEqual(
    (await objcLines(afterInterface)).filter((line) =>
      line.startsWith("function")
    ),
    ["function g 8-8 // Gees."],
  );
});

Deno.test('objc.extract() blanks __BEGIN_DECLS inside an extern "C" { guard', async () => {
  const text = [
    "@class A;",
    "#ifdef __cplusplus",
    'extern "C" {',
    "#endif",
    ...DECLS_OF_G,
  ].join("\n");
  assert.deepEqual(await cLines(text), ["function g 8-8 // Gees."]);
  assert.deepEqual(await objcLines(text), ["function g 8-8 // Gees."]);
  // Likewise os/object.h's `OS_ASSUME_NONNULL_BEGIN` (no Apple-family word).
  const nonnull = text.replace("__BEGIN_DECLS", "OS_ASSUME_NONNULL_BEGIN")
    .replace("\n\n/** Gees", "\n/** Gees")
    .replace("__END_DECLS", "OS_ASSUME_NONNULL_END");
  assert.deepEqual(await cLines(nonnull), ["function g 7-7 // Gees."]);
  assert.deepEqual(await objcLines(nonnull), ["function g 7-7 // Gees."]);
});

Deno.test("objc.extract() keeps the doc of an xpc / os function over its attribute line", async () => {
  const text = [
    "@class A;",
    "/** Retains. */",
    "XPC_EXPORT XPC_MALLOC XPC_RETURNS_RETAINED XPC_WARN_RESULT XPC_NONNULL1",
    "xpc_object_t",
    "xpc_retain(xpc_object_t object);",
    "/** Logs. */",
    "OS_EXPORT OS_NOTHROW OS_NOT_TAIL_CALLED",
    "void",
    "_os_log_impl(void *dso, os_log_t log, os_log_type_t type,",
    "    const char *format, uint8_t *buf, uint32_t size);",
    "int next(void);",
    "",
  ].join("\n");
  assert.ok(
    (await cLines(text)).includes("function xpc_retain 3-5 // Retains."),
  );
  assert.deepEqual(await objcLines(text), [
    "function xpc_retain 3-5 // Retains.",
    "function _os_log_impl 7-10 // Logs.",
    "function next 11-11",
  ]);
});

testOutlines(({ text }) => objcLines(text), [
  {
    name:
      "objc.extract() lists a C function declared with FOUNDATION_EXPORT and an Objective-C type",
    text: [
      "@interface W : NSObject",
      "@end",
      "/// Counts widgets.",
      "FOUNDATION_EXPORT NSUInteger NSWidgetCount(W *w);",
      "UIKIT_EXTERN NSString *NSWidgetName(W *w);",
    ].join("\n"),
    outline: [
      "interface W 1-2",
      "function NSWidgetCount 4-4 // Counts widgets.",
      "function NSWidgetName 5-5",
    ],
  },
  {
    name:
      "objc.extract() lists no function NS_SWIFT_NAME for a typedef with two trailing macros",
    text: [
      "@class A;",
      "/** A bar. */",
      "typedef NSString * NSBarName NS_TYPED_EXTENSIBLE_ENUM NS_SWIFT_NAME(Bar);",
      "/** Runs. */",
      "int run(void);",
      "",
    ].join("\n"),
    outline: ["typedef NSBarName 3-3 // A bar.", "function run 5-5 // Runs."],
  },
  {
    name:
      "objc.extract() keeps C functions with macros between the export macro and the type",
    text: [
      "@class A;",
      "/** Copies. */",
      "CF_EXPORT CF_RETURNS_RETAINED CFStringRef g(void);",
      "/** Makes. */",
      "UIKIT_EXTERN API_AVAILABLE(ios(13.0)) NSString *UIFoo(void);",
      "/** Runs. */",
      "int run(void);",
      "",
    ].join("\n"),
    outline: [
      "function g 3-3 // Copies.",
      "function UIFoo 5-5 // Makes.",
      "function run 7-7 // Runs.",
    ],
  },
  {
    name:
      "objc.extract() keeps the declaration after CF_IMPLICIT_BRIDGING_DISABLED",
    text: [
      "@class A;",
      "CF_IMPLICIT_BRIDGING_DISABLED",
      "/** Copies. */",
      "CF_EXPORT CFStringRef g(void);",
      "/** Runs. */",
      "int run(void);",
      "",
    ].join("\n"),
    outline: ["function g 4-4 // Copies.", "function run 6-6 // Runs."],
  },
  {
    name: "objc.extract() names a CF_BRIDGED_TYPE typedef by its declarator",
    text: [
      "@class A;",
      "/** A string. */",
      "typedef const struct CF_BRIDGED_TYPE(NSString) __CFString * CFStringRef;",
      "",
    ].join("\n"),
    outline: ["typedef CFStringRef 3-3 // A string."],
  },
  {
    name:
      "objc.extract() keeps the doc of a function after a leading macro call",
    text: [
      "@class A;",
      "/** Foos. */",
      'NS_SWIFT_UNAVAILABLE("Use x") FOUNDATION_EXPORT void NSFoo(void);',
      "",
    ].join("\n"),
    outline: ["function NSFoo 3-3 // Foos."],
  },
  {
    name:
      "objc.extract() keeps NS_/API_ enumerators after #if defined(...) and after a ( ) value",
    text: [
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
    outline: [
      "typedef NSFooKind 2-8",
      "    enumerator NS_FOO_A 3-3",
      "    enumerator NS_FOO_B 5-5",
      "    enumerator NS_FOO_C 7-7",
      "enum (anonymous) 9-9",
      "    enumerator API_A 9-9",
      "    enumerator API_B 9-9",
    ],
  },
  {
    name:
      "objc.extract() keeps the doc of a C function under an API_AVAILABLE(...) line",
    text: [
      "@class A;",
      "/** Bazzes. */",
      "API_AVAILABLE(macos(10.15))",
      "NSString *NSBaz(void);",
      "/** Quxes. */",
      "NS_REFINED_FOR_SWIFT",
      "int NSQux(void);",
      "",
    ].join("\n"),
    outline: ["function NSBaz 3-4 // Bazzes.", "function NSQux 6-7 // Quxes."],
  },
  {
    name:
      "objc.extract() takes the doc comment right below a preprocessor line",
    text: [
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
    outline: [
      "function f 3-3 // Effs.",
      "function last 7-7 // Lasts.",
      "function next 9-9 // Nexts.",
      "interface A 10-11",
    ],
  },
  {
    name:
      "objc.extract() reads declarations with _Nullable / _Nonnull after a pointer",
    text: [
      "@class A;",
      "/** Foos. */",
      "FOUNDATION_EXPORT NSString * _Nullable NSFoo(id _Nullable x);",
      "/** Images. */",
      "UIKIT_EXTERN UIImage * _Nullable UIFoo(NSData * _Nonnull data) API_AVAILABLE(ios(10.0));",
      "struct objc_method_description {",
      "    SEL _Nullable name;",
      "    char * _Nullable types;",
      "};",
      "",
    ].join("\n"),
    outline: [
      "function NSFoo 3-3 // Foos.",
      "function UIFoo 5-5 // Images.",
      "struct objc_method_description 6-9",
      "    field name 7-7",
      "    field types 8-8",
    ],
  },
  {
    name: "objc.extract() reads MediaPlayer's MP_API(...) as availability",
    text: [
      "@class A;",
      "/** Shows. */",
      "MP_EXTERN void MPVolumeSettingsAlertShow(void) MP_API(ios(2.0)) MP_PROHIBITED(tvos, macos);",
      "/** Hides. */",
      "MP_EXTERN void MPVolumeSettingsAlertHide(void) MP_API(ios(2.0)) MP_PROHIBITED(tvos);",
      "int next(void);",
      "/** Foos. */",
      "MP_API(ios(3.0))",
      "MP_EXTERN void MPFoo(void);",
      "",
    ].join("\n"),
    outline: [
      "function MPVolumeSettingsAlertShow 3-3 // Shows.",
      "function MPVolumeSettingsAlertHide 5-5 // Hides.",
      "function next 6-6",
      "function MPFoo 8-9 // Foos.",
    ],
  },
  {
    name: "objc.extract() names fields marked OBJC2_UNAVAILABLE",
    text: [
      "@class A;",
      "struct objc_class {",
      "    Class _Nonnull isa  OBJC_ISA_AVAILABILITY;",
      "    Class _Nullable super_class                              OBJC2_UNAVAILABLE;",
      "    const char * _Nonnull name                               OBJC2_UNAVAILABLE;",
      "};",
      "",
    ].join("\n"),
    outline: [
      "struct objc_class 2-6",
      "    field isa 3-3",
      "    field super_class 4-4",
      "    field name 5-5",
    ],
  },
  {
    name:
      "objc.extract() reads Apple C declarations around the new macro rules",
    text: [
      "@class A;",
      "/** Retains. */",
      'CF_EXPORT CFTypeRef CFRetain(CFTypeRef cf) CF_SWIFT_UNAVAILABLE("Core Foundation objects are automatically memory managed");',
      "/** Booleans. */",
      "typedef struct CF_BRIDGED_TYPE(id) __CFBoolean * CFBooleanRef;", // 5
      "/** Ranges. */",
      "NS_INLINE NSRange NSMakeRange(NSUInteger loc, NSUInteger len) {",
      "    NSRange r = NS_MAKE_RANGE(loc, len);",
      "    return NS_RANGE_ID(r);",
      "}", // 10
      "/** Handlers. */",
      "typedef void (*NSFooHandler)(void * _Nullable info, const char * _Nonnull name);",
      "/** Calls. */",
      "CF_EXPORT void CFFoo(void (* _Nullable cb)(void * _Nullable ctx), void * __nullable ctx);",
      "/** Logs. */", // 15
      "FOUNDATION_EXPORT void NSLog(NSString *format, ...) NS_FORMAT_FUNCTION(1,2) NS_NO_TAIL_CALL;",
      "/** Formats. */",
      "CF_EXPORT CFStringRef CFStringCreateWithFormat(CFAllocatorRef alloc, CFStringRef format, ...) CF_FORMAT_FUNCTION(2,3);",
      "/** Bridges. */",
      "NS_INLINE id _Nullable CFBridgingRelease(CFTypeRef CF_CONSUMED _Nullable X) {", // 20
      "    return (__bridge_transfer id)X;",
      "}",
      "/** Selectors. */",
      "OBJC_EXPORT SEL _Nonnull sel_registerName(const char * _Nonnull str)",
      "    OBJC_AVAILABLE(10.0, 2.0, 9.0, 1.0, 2.0);", // 25
      "/** Keys. */",
      "FOUNDATION_EXPORT NSString * const NSFooKey NS_SWIFT_NAME(foo);",
      "/** Ends. */",
      "int end(void);",
      "",
    ].join("\n"),
    outline: [
      "function CFRetain 3-3 // Retains.",
      "typedef CFBooleanRef 5-5 // Booleans.",
      "function NSMakeRange 7-10 // Ranges.",
      "typedef NSFooHandler 12-12 // Handlers.",
      "function CFFoo 14-14 // Calls.",
      "function NSLog 16-16 // Logs.",
      "function CFStringCreateWithFormat 18-18 // Formats.",
      "function CFBridgingRelease 20-22 // Bridges.",
      "function sel_registerName 24-25 // Selectors.",
      "function end 29-29 // Ends.",
    ],
  },
  {
    name:
      "objc.extract() keeps a C function inside #if NS_BLOCKS_AVAILABLE (macros in #if lines stay)",
    text: [
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
    ].join("\n"),
    outline: [
      "function MyKitMake 10-10 // Makes a kit.",
      "function MyKitRun 14-14 // Runs a block.",
      "interface MyKit 18-19 // The kit.",
      "function MyKitStop 22-22 // Stops.",
    ],
  },
  {
    name:
      "objc.extract() keeps the doc after an #ifndef/#define of an export macro",
    text: [
      "@class Foo;",
      "#ifndef FOUNDATION_EXPORT",
      "#define FOUNDATION_EXPORT extern",
      "#endif",
      "/** Runs. */",
      "FOUNDATION_EXPORT void Run(int x);",
      "int after(void);",
      "",
    ].join("\n"),
    outline: [
      "function Run 6-6 // Runs.",
      "function after 7-7",
    ],
  },
  {
    name:
      "objc.extract() keeps C enumerators and fields whose names start with API_ or NS_",
    text: [
      "@class A;",
      "/** Status. */",
      "typedef enum {",
      "    API_OK,",
      "    API_ERROR_TIMEOUT = 2,",
      "    NS_STATE_IDLE,",
      "} ApiStatus;",
      "struct Config { int CF_FLAGS; char name[8]; };",
      "",
    ].join("\n"),
    outline: [
      "typedef ApiStatus 3-7 // Status.",
      "    enumerator API_OK 4-4",
      "    enumerator API_ERROR_TIMEOUT 5-5",
      "    enumerator NS_STATE_IDLE 6-6",
      "struct Config 8-8",
      "    field CF_FLAGS 8-8",
      "    field name 8-8",
    ],
  },
  {
    name:
      "objc.extract() reads the doc above an attribute macro wrapped over two lines",
    text: [
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
    ].join("\n"),
    outline: [
      "interface OldThing 6-8 // Old thing.",
      "    method run 7-7",
      "function after 11-11 // After.",
    ],
  },
  // CFGetHook returns a function pointer, a shape C lists too.
  {
    name:
      "objc.extract() names a function pointer with a _Nullable return before (*name)",
    text: [
      "@class A;",
      "/** Implementations. */",
      "typedef id _Nullable (*IMP)(id _Nonnull, SEL _Nonnull, ...);",
      "/** Allocates. */",
      "typedef void * _Nullable (*CFAllocatorAllocateCallBack)(CFIndex size);",
      "/** Hooks. */",
      "CF_EXPORT void * __nullable (*CFGetHook(void))(int);",
      "int next(void);",
      "",
    ].join("\n"),
    outline: [
      "typedef IMP 3-3 // Implementations.",
      "typedef CFAllocatorAllocateCallBack 5-5 // Allocates.",
      "function CFGetHook 7-7 // Hooks.",
      "function next 8-8",
    ],
  },
]);

// Each as plain C outlines the same text.
testOutlines(async ({ text, outline }) => {
  assert.deepEqual(await cLines(text), outline);
  return objcLines(text);
}, [
  {
    name:
      "objc.extract() keeps C functions whose export macro takes the return type",
    text: [
      "@class A;",
      "/** Mallocs. */",
      "NSPR_API(void *) PR_Malloc(PRUint32 size);",
      "/** Faces. */",
      "FT_EXPORT( FT_Error )",
      "FT_New_Face( FT_Library library, FT_Long face_index );",
      "/** Codes. */",
      "extern LZMA_API(lzma_ret) lzma_code(lzma_stream *strm, lzma_action action)",
      "\t\tlzma_nothrow lzma_attr_warn_unused_result;",
      "extern NCURSES_EXPORT(int) addch (const chtype);",
      "/** Ends. */",
      "int end(void);",
      "",
    ].join("\n"),
    outline: [
      "function PR_Malloc 3-3 // Mallocs.",
      "function FT_New_Face 5-6 // Faces.",
      "function lzma_code 8-9 // Codes.",
      "function addch 10-10",
      "function end 12-12 // Ends.",
    ],
  },
  {
    name: "objc.extract() names GL_API ... GL_APIENTRY functions",
    text: [
      "@class A;",
      "GL_API void GL_APIENTRY glDepthRangexOES (GLfixed n, GLfixed f);",
      "GL_API void GL_APIENTRY glFogxOES (GLenum pname, GLfixed param);",
      "GL_API void GL_APIENTRY glFogxvOES (GLenum pname, const GLfixed *param);",
      "GL_API void GL_APIENTRY glFrustumxOES (GLfixed l, GLfixed r);",
      "",
    ].join("\n"),
    outline: [
      "function glDepthRangexOES 2-2",
      "function glFogxOES 3-3",
      "function glFogxvOES 4-4",
      "function glFrustumxOES 5-5",
    ],
  },
  {
    name: "objc.extract() keeps a last enumerator named FOO_END or FOO_BEGIN",
    text: [
      "@class A;",
      "/** Kinds. */",
      "typedef enum {",
      "    FOO_A, FOO_B,",
      "    FOO_END",
      "} FooKind;",
      "/** Phases. */",
      "enum Phase {",
      "    PHASE_BEGIN",
      "};",
      "",
    ].join("\n"),
    outline: [
      "typedef FooKind 3-6 // Kinds.",
      "    enumerator FOO_A 4-4",
      "    enumerator FOO_B 4-4",
      "    enumerator FOO_END 5-5",
      "enum Phase 8-10 // Phases.",
      "    enumerator PHASE_BEGIN 9-9",
    ],
  },
  {
    name: "objc.extract() names a typedef spelled like a deprecation macro",
    text: [
      "@class A;",
      "/* make GCC warn */",
      "typedef int __BLAPI_DEPRECATED __attribute__((deprecated));",
      "int g(void);",
      "",
    ].join("\n"),
    outline: [
      "typedef __BLAPI_DEPRECATED 3-3 // make GCC warn",
      "function g 4-4",
    ],
  },
  {
    name: "objc.extract() keeps declared names spelled like Apple macros",
    text: [
      "@class A;",
      "struct API_CONFIG { int a; };",
      "typedef struct NS_FOO_S NS_FOO_S;",
      "void NS_LOG(const char *fmt);",
      "int next(void);",
      "",
    ].join("\n"),
    outline: [
      "struct API_CONFIG 2-2",
      "    field a 2-2",
      "typedef NS_FOO_S 3-3",
      "function NS_LOG 4-4",
      "function next 5-5",
    ],
  },
  {
    name:
      "objc.extract() reads struct/union/enum before a macro as whole words",
    text: [
      "@class A;",
      "/** Logs. */",
      "extern my_struct NS_LOG(const char *fmt);",
      "int next(void);",
      "",
    ].join("\n"),
    outline: ["function NS_LOG 3-3 // Logs.", "function next 4-4"],
  },
  {
    name:
      "objc.extract() keeps a documented export-macro function right after __BEGIN_DECLS",
    text: [
      "@class A;",
      "__BEGIN_DECLS",
      "",
      "/** Gees. */",
      "OS_EXPORT CFStringRef g(void);",
      "",
      "/** Aitches. */",
      "OS_EXPORT int h(void);",
      "__END_DECLS",
      "",
    ].join("\n"),
    outline: [
      "function g 5-5 // Gees.",
      "function h 8-8 // Aitches.",
    ],
  },
  {
    name:
      "objc.extract() keeps a CG_EXTERN function with __nullable return and parameter",
    text: [
      "@class A;",
      "/** Bitmap. */",
      "CG_EXTERN CGContextRef __nullable CGBitmapContextCreate(void * __nullable data,",
      "    size_t width, uint32_t bitmapInfo)",
      "    CG_AVAILABLE_STARTING(10.0, 2.0);",
      "/** Next. */",
      "int next(void);",
      "",
    ].join("\n"),
    outline: [
      "function CGBitmapContextCreate 3-5 // Bitmap.",
      "function next 7-7 // Next.",
    ],
  },
]);
