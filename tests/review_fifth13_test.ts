// Fifth review of the session-13 Objective-C work: 66539fc (called export
// macros left alone, macro calls after a type read as function names, tags
// after struct/union/enum, nullability qualifiers always blanked, mode lines
// only at brace depth 0, overAttributes() only over blanked lines). The same
// differential as the fourth review (tests/review_fourth13_test.ts): an
// Objective-C header's C declarations must come out at least as well as the
// plain C outline gives them, and Apple-SDK shapes must come out right.
// Every fault it found is fixed; each test under a "Fixed fault" note failed
// before its fix.
import assert from "node:assert/strict";
import { blankObjc } from "../outline/languages/c_family/_objc.ts";
import { cLines, objcLines } from "./support/objc_lines.ts";

// ---------------------------------------------------------------- faults

// Fixed fault (regression against plain C): _scan() counts the braces of a line
// before it hands an `NS_ENUM` / `CF_OPTIONS` head (or an `@interface Foo :
// NSObject {` with ivars) to _enum() / _block(), then jumps past the block's
// last line, so the closing `}` is never counted: the depth stays 1 for the
// rest of the file and no later mode line is blanked. A `__BEGIN_DECLS` (or
// `OS_ASSUME_NONNULL_BEGIN`, any mode macro outside the Apple families) after
// the first enum is read by the grammar as the next declaration's type: the
// documented `g` is lost (plain C lists it), and `OS_EXPORT void g` after
// `OS_ASSUME_NONNULL_BEGIN` starts on that line. This is the layout of
// Apple's Security and os headers (`typedef CF_OPTIONS(...) {` then
// `__BEGIN_DECLS` blocks). Expected: the depth of the text outside the
// blocks (skip a block's lines, braces included, or count none of them).
Deno.test({
  name: "objc.extract() blanks __BEGIN_DECLS after an NS_ENUM or @interface {",
  fn: async () => {
    const afterEnum = [
      "@class A;",
      "typedef NS_ENUM(NSInteger, NSFooKind) {",
      "    NSFooKindA,",
      "};",
      "__BEGIN_DECLS",
      "",
      "/** Gees. */",
      "OS_EXPORT CFStringRef g(void);",
      "__END_DECLS",
      "",
    ].join("\n");
    // Plain C (with its text pass since session 15) finds the doc too.
    assert.ok((await cLines(afterEnum)).includes("function g 8-8 // Gees."));
    // Objective-C gives no g.
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
      "__BEGIN_DECLS",
      "/** Gees. */",
      "OS_EXPORT CFStringRef g(void);",
      "__END_DECLS",
      "",
    ].join("\n");
    // Objective-C gives only ["interface Foo 2-5"].
    assert.deepEqual(
      (await objcLines(afterInterface)).filter((line) =>
        line.startsWith("function")
      ),
      ["function g 8-8 // Gees."],
    );
  },
});

// Fixed fault (regression against plain C): the depth rule also keeps
// `__BEGIN_DECLS` when the header opens the usual C++ guard first
// (`#ifdef __cplusplus` / `extern "C" {` / `#endif`): the `{` is not on a
// preprocessor line, so the depth is 1 for the whole header. The documented
// function after it is lost; plain C lists it; an `OS_ASSUME_NONNULL_BEGIN`
// there starts the next declaration on its line. Expected: a brace of an
// `extern "C" {` does not make the depth (it is a linkage block, whose
// contents are top-level declarations), so `g 8-8 // Gees.`.
Deno.test({
  name: 'objc.extract() blanks __BEGIN_DECLS inside an extern "C" { guard',
  fn: async () => {
    const text = [
      "@class A;",
      "#ifdef __cplusplus",
      'extern "C" {',
      "#endif",
      "__BEGIN_DECLS",
      "",
      "/** Gees. */",
      "OS_EXPORT CFStringRef g(void);",
      "__END_DECLS",
      "",
    ].join("\n");
    assert.deepEqual(await cLines(text), ["function g 8-8 // Gees."]);
    // Objective-C gives [].
    assert.deepEqual(await objcLines(text), ["function g 8-8 // Gees."]);
    // Likewise `OS_ASSUME_NONNULL_BEGIN` (os/object.h's, not an Apple-family
    // word): Objective-C gives [] (`g 5-7` without doc for `void g`); plain
    // C `g 7-7`.
    const nonnull = text.replace("__BEGIN_DECLS", "OS_ASSUME_NONNULL_BEGIN")
      .replace("\n\n/** Gees", "\n/** Gees")
      .replace("__END_DECLS", "OS_ASSUME_NONNULL_END");
    assert.deepEqual(await cLines(nonnull), ["function g 7-7 // Gees."]);
    assert.deepEqual(await objcLines(nonnull), ["function g 7-7 // Gees."]);
  },
});

// Fixed fault (regression against the commit before, and against plain C's range):
// overAttributes() now widens only when the top line of the attribute run is
// blank in blankObjc()'s output. Apple's os, xpc and dispatch headers put the
// export macro first and their own attribute macros after it on the same
// line (`XPC_EXPORT XPC_MALLOC XPC_RETURNS_RETAINED ...`, `OS_EXPORT
// OS_NOTHROW OS_NOT_TAIL_CALLED`), which are not Apple-family words and stay:
// the line is not blank, so the declaration loses its doc and, for
// xpc_retain, starts a line below where plain C starts it (4-5, plain C 3-5).
// Before 66539fc both came out `3-5 // Retains.` and `3-6 // Logs.`.
// Expected: those, e.g. widen over a line the grammar read as part of this
// very declaration (it starts the declaration in plain C), or over lines of
// macro words whatever was blanked.
Deno.test({
  name:
    "objc.extract() keeps the doc of an xpc / os function over its attribute line",
  fn: async () => {
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
    // Objective-C gives `xpc_retain 4-5` and `_os_log_impl 8-10`, no docs.
    assert.deepEqual(await objcLines(text), [
      "function xpc_retain 3-5 // Retains.",
      "function _os_log_impl 7-10 // Logs.",
      "function next 11-11",
    ]);
  },
});

// Fixed fault (Objective-C specific; plain C is as wrong): rule 4 keeps any
// nullability qualifier followed by `(`, which only glibc's `__nonnull ((1))`
// attribute needs; clang's `_Nullable` / `_Nonnull` / `__nullable` never take
// arguments. A function-pointer typedef or declarator with a nullable return
// keeps it, and the grammar takes the qualifier for the name: objc/objc.h's
// own `typedef id _Nullable (*IMP)(id _Nonnull, SEL _Nonnull, ...);` is
// `typedef _Nullable`, and `CF_EXPORT void * __nullable (*CFGetHook(void))
// (int);` is `function __nullable`. Expected: `typedef IMP`, `function
// CFGetHook` (blank every nullability word but glibc's `__nonnull (`).
Deno.test({
  name:
    "objc.extract() names a function pointer with a _Nullable return before (*name)",
  fn: async () => {
    const text = [
      "@class A;",
      "/** Implementations. */",
      "typedef id _Nullable (*IMP)(id _Nonnull, SEL _Nonnull, ...);",
      "/** Allocates. */",
      "typedef void * _Nullable (*CFAllocatorAllocateCallBack)(CFIndex size);",
      "/** Hooks. */",
      "CF_EXPORT void * __nullable (*CFGetHook(void))(int);",
      "int next(void);",
      "",
    ].join("\n");
    // Objective-C gave `typedef _Nullable` twice, `function __nullable`.
    // CFGetHook returns a function pointer, a shape C lists too.
    assert.deepEqual(await objcLines(text), [
      "typedef IMP 3-3 // Implementations.",
      "typedef CFAllocatorAllocateCallBack 5-5 // Allocates.",
      "function CFGetHook 7-7 // Hooks.",
      "function next 8-8",
    ]);
  },
});

// Fixed fault (Apple SDK shape): rule 1 leaves every called `*_API(...)` macro to
// the grammar as an export macro taking the return type, but MediaPlayer's
// `MP_API(ios(3.0))` is Apple's availability macro (`__API_AVAILABLE`). After
// a declarator with `MP_PROHIBITED(...)` after it the function runs over the
// next one (`MPVolumeSettingsAlertShow 3-5`, overlapping `...Hide 5-5`); on
// the line above a declaration it loses the doc (as plain C does). Expected:
// an `MP_`-family (or any Apple-family) `*_API(...)` is an attribute, or a
// wrapper called right after a declarator's `)` / with a platform-version
// argument is blanked: Show 3-3, Hide 5-5, MPFoo 8-9 with their docs.
Deno.test({
  name: "objc.extract() reads MediaPlayer's MP_API(...) as availability",
  fn: async () => {
    const text = [
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
    ].join("\n");
    // Objective-C gives `MPVolumeSettingsAlertShow 3-5 // Shows.` and `MPFoo
    // 9-9` without its doc.
    assert.deepEqual(await objcLines(text), [
      "function MPVolumeSettingsAlertShow 3-3 // Shows.",
      "function MPVolumeSettingsAlertHide 5-5 // Hides.",
      "function next 6-6",
      "function MPFoo 8-9 // Foos.",
    ]);
  },
});

// Fixed fault (performance): _declarationMacros() finds a called macro's closing
// parenthesis, then leaves it to the grammar (a declarator `int NS_A(...)`;
// or a wrapped declaration `NS_A(void f(...))`) without moving past it, so
// every macro call nested inside is scanned to the same far `)` again:
// quadratic. 100,000 characters of `int NS_A(` nested take ~1.6 s in
// blankObjc() here (80 KB ~1.0 s, 40 KB ~0.2 s; the C outline of the same
// text ~30 ms), 150 KB of `void f(void) NS_A(` ~1.7 s. Expected: linear
// (remember the closing parenthesis found, or skip what was read), a few
// milliseconds (well under a second for 100 KB; the test allows 500 ms).
Deno.test({
  name: "blankObjc() takes linear time on nested macro calls left to C",
  fn: () => {
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
  },
});

// Fixed fault (Apple SDK shape, older than 66539fc; plain C is as wrong): a macro
// before `;` after a word is kept as the declared name (right for `int
// NS_FOO_FIELD;`), also when that word is itself the name after a type.
// objc/runtime.h's `struct objc_class` marks every field so: `Class _Nonnull
// isa OBJC_ISA_AVAILABILITY;`, `const char * _Nonnull name
// OBJC2_UNAVAILABLE;` come out as `field OBJC_ISA_AVAILABILITY` and `field
// OBJC2_UNAVAILABLE`. Expected: `isa`, `super_class`, `name` (a macro word
// after `Type name` is an attribute).
Deno.test({
  name: "objc.extract() names fields marked OBJC2_UNAVAILABLE",
  fn: async () => {
    const text = [
      "@class A;",
      "struct objc_class {",
      "    Class _Nonnull isa  OBJC_ISA_AVAILABILITY;",
      "    Class _Nullable super_class                              OBJC2_UNAVAILABLE;",
      "    const char * _Nonnull name                               OBJC2_UNAVAILABLE;",
      "};",
      "",
    ].join("\n");
    assert.deepEqual(await objcLines(text), [
      "struct objc_class 2-6",
      "    field isa 3-3",
      "    field super_class 4-4",
      "    field name 5-5",
    ]);
  },
});

// Fixed fault (minor, regression against plain C): the tag test slices the six
// characters before the macro and tests `\b(?:struct|union|enum)$`, where
// `\b` always holds at the start of the slice: a type word ending in
// `struct`, `union` or `enum` (`my_struct`, `kind_enum`) makes the macro a
// "tag", so `extern my_struct NS_LOG(const char *fmt);` is blanked and lost.
// Expected: `function NS_LOG`, as plain C gives.
Deno.test({
  name: "objc.extract() reads struct/union/enum before a macro as whole words",
  fn: async () => {
    const text = [
      "@class A;",
      "/** Logs. */",
      "extern my_struct NS_LOG(const char *fmt);",
      "int next(void);",
      "",
    ].join("\n");
    const expected = ["function NS_LOG 3-3 // Logs.", "function next 4-4"];
    assert.deepEqual(await cLines(text), expected);
    assert.deepEqual(await objcLines(text), expected);
  },
});

// ---------------------------------------------------------------- edge cases

Deno.test("objc.extract() reads Apple C declarations around the new macro rules", async () => {
  const text = [
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
  ].join("\n");
  assert.deepEqual(await objcLines(text), [
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
  ]);
});
