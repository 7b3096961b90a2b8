// blankCMacros(), C++'s declaration-macro pass: which macro words it blanks,
// and that it ends on long lines and long continued directives.
import assert, { equal } from "node:assert/strict";
import { elapsedMs } from "../../../../tests/support/elapsed.ts";
import { blankCMacros } from "./declaration_macros_c_0_24_1_cpp_0_23_4.ts";

// The text with every blanked character shown as `.` (line breaks kept).
function marked(text: string): string {
  const blanked = blankCMacros(text);
  equal(blanked.length, text.length);
  return [...text].map((char, i) =>
    blanked[i] === char ? char : (blanked[i] === " " ? "." : "?")
  ).join("");
}

// Each text, marked, as expected.
function assertMarked(cases: [string, string][]): void {
  for (const [text, expected] of cases) equal(marked(text), expected, text);
}

Deno.test("blankCMacros() blanks export, attribute and namespace macros before a declaration", () => {
  assertMarked([
    [
      "SQLITE_API sqlite3_int64 f(void);\n",
      ".......... sqlite3_int64 f(void);\n",
    ],
    [
      '  V8_DEPRECATED("x") Local<Value> Old();\n',
      "  .................. Local<Value> Old();\n",
    ],
    [
      "FMT_BEGIN_NAMESPACE\ntemplate <class T> class A;\n",
      "...................\ntemplate <class T> class A;\n",
    ],
    ["class V8_EXPORT Isolate {};\n", "class ......... Isolate {};\n"],
    [
      "namespace std _GLIBCXX_VISIBILITY(default)\n{\n}\n",
      "namespace std ............................\n{\n}\n",
    ],
    [
      "void GL_APIENTRY glClear(int m);\n",
      "void ........... glClear(int m);\n",
    ],
  ]);
});

Deno.test("blankCMacros() keeps capitalised types, names, values and enumerators", () => {
  const kept = [
    "MY_TYPE x;\n",
    "MY_TYPE *p;\n",
    "MY_TYPE f(void);\n",
    "MY_RET\nf(int x)\n{\n}\n",
    "enum e {\n  ONLY_ONE\n};\n",
    "enum e {\n  A_1,\n  B_2\n};\n",
    "int x = (int) SIZE_MAX;\n",
    "struct MY_TAG f(void);\n",
    "typedef int __BLAPI_DEPRECATED __attribute__((deprecated));\n",
    "#define X_Y FOO_BAR int\n",
    "struct s {\n  MY_T const *p;\n};\n",
    "class A {\n  FORWARD_METHOD(getName)\n  FORWARD_METHOD(getType)\n};\n",
  ];
  for (const text of kept) equal(blankCMacros(text), text, text);
});

Deno.test("blankCMacros() blanks a macro after a function's parameters, not after a call or a cast", () => {
  assertMarked([
    [
      "  _Vector_impl_data() _GLIBCXX_NOEXCEPT\n  { }\n",
      "  _Vector_impl_data() .................\n  { }\n",
    ],
    [
      "  int size() const LLVM_READONLY;\n",
      "  int size() const .............;\n",
    ],
    [
      "  static V8_INLINE Local<T> New();\n",
      "  static ......... Local<T> New();\n",
    ],
    // One after another, and after glibc's `__THROW`.
    [
      "int f(int a) GCC_DEPRECATED(x) /* c */\n  GCC_PRINTFLIKE(1,2);\n",
      "int f(int a) ................. /* c */\n  ...................;\n",
    ],
    [
      "void g(void) __THROW\n  __RESOLV_DEPRECATED;\n",
      "void g(void) __THROW\n  ...................;\n",
    ],
  ]);
  const kept = [
    "class A {\n  FORWARD_METHOD(getName)\n  FORWARD_METHOD(getType)\n};\n",
    "int x = (int) SIZE_MAX;\n",
    "void f(void) { if (x) FOO_BAR; }\n",
  ];
  for (const text of kept) equal(blankCMacros(text), text, text);
});

Deno.test("blankCMacros() takes linear time over long runs of comment lines", () => {
  assertMarked([
    // Each blank line once scanned on to the next code: quadratic in a
    // comment's length (sqlite3.c's took 0.9 s of 1.3).
  ]);
  const text = `/*\n${" *\n".repeat(200_000)}*/\nSQLITE_API int f(void);\n`;
  const start = performance.now();
  const blanked = blankCMacros(text);
  const ms = performance.now() - start;
  equal(blanked.endsWith("           int f(void);\n"), true);
  equal(ms < 3_000, true, `blankCMacros() took ${Math.round(ms)} ms`);
});

Deno.test("blankCMacros() blanks macros after a class's name and macro calls before it", () => {
  assertMarked([
    [
      "class U_COMMON_API Iter U_FINAL : public UObject {};\n",
      "class ............ Iter ....... : public UObject {};\n",
    ],
    [
      'struct ABSL_DEPRECATED("x") Breakdown {\n  int y;\n};\n',
      "struct .................... Breakdown {\n  int y;\n};\n",
    ],
  ]);
  const kept = [
    "struct stat ST_BUF;\n",
    "struct s {\n  int f FOO_BITS : 3;\n};\n",
    "struct MY_TAG f(int x) {\n}\n",
  ];
  for (const text of kept) equal(blankCMacros(text), text, text);
});

Deno.test("blankCMacros() blanks an annotation after a field's name, not a function spelled in capitals", () => {
  assertMarked([
    [
      "  bool done_ ABSL_GUARDED_BY(mu_);\n",
      "  bool done_ ....................;\n",
    ],
    [
      "  T* p_ ABSL_PT_GUARDED_BY(mu_) = nullptr;\n",
      "  T* p_ ....................... = nullptr;\n",
    ],
  ]);
  const kept = [
    "static foo_t MY_FUNC(int x);\n",
    "unsigned long MY_FUNC(int x);\n",
    "const foo_t MY_FUNC(int x);\n",
    // Words on a `#define` line are no type and name (linux/rtnetlink.h).
    "enum e {\n\tA_Bc,\n#define A_Bc\tA_Bc\n\tA_NOP2,\n};\n",
  ];
  for (const text of kept) equal(blankCMacros(text), text, text);
  assertMarked([
    // The export macro goes, the function stays.
    [
      "EXPORT_API foo_t MY_FUNC(int x);\n",
      ".......... foo_t MY_FUNC(int x);\n",
    ],
  ]);
});

Deno.test("blankCMacros() blanks a macro after an operator's ref-qualifier", () => {
  equal(
    marked("  const T& operator*() const& ABSL_LIFETIME_BOUND {\n  }\n"),
    "  const T& operator*() const& ................... {\n  }\n",
  );
});

Deno.test("blankCMacros() blanks calling conventions in function pointers and before a name", () => {
  assertMarked([
    [
      "typedef SECStatus(PR_CALLBACK *Fn)(int fd);\n",
      "typedef SECStatus(........... *Fn)(int fd);\n",
    ],
    [
      "typedef void (WINAPI *Fn)(int fd);\n",
      "typedef void (...... *Fn)(int fd);\n",
    ],
    [
      "XMLPUBFUN const xmlChar * XMLCALL\n\t\txmlGetProp(int n);\n",
      "XMLPUBFUN const xmlChar * .......\n\t\txmlGetProp(int n);\n",
    ],
  ]);
  const kept = [
    "BOOL CloseHandle(HANDLE h);\n",
    "x = (FOO *) bar(y);\n",
    "int FOO(int x);\n",
    "const BOOL foo(int x);\n",
    "#define F(x) int * FOO bar(x)\n",
  ];
  for (const text of kept) equal(blankCMacros(text), text, text);
});

Deno.test("blankCMacros() blanks X11's _XFUNCPROTOBEGIN, not _Bool", () => {
  equal(
    marked("_XFUNCPROTOBEGIN\ntypedef struct {\n  int a;\n} X;\n"),
    "................\ntypedef struct {\n  int a;\n} X;\n",
  );
  equal(blankCMacros("_Bool ok(void);\n"), "_Bool ok(void);\n");
});

Deno.test("blankCMacros() blanks an export macro before a type and a pointer-returning function", () => {
  equal(
    marked("FcPublic FcBlanks *\nFcBlanksCreate (void);\n"),
    "........ FcBlanks *\nFcBlanksCreate (void);\n",
  );
  const kept = [
    "  return a * f(x);\n",
    "FcPublic FcBool\nFcBlanksAdd (FcBlanks *b);\n",
    "unsigned long *f(void);\n",
    "struct foo * f(void);\n",
  ];
  for (const text of kept) equal(blankCMacros(text), text, text);
});

Deno.test("blankCMacros() takes linear time on one long line of macro calls", () => {
  const text = "static const uint64_t t[] = {" +
    "UINT64_C(12345), ".repeat(40_000) + "};\n";
  const ms = elapsedMs(() => blankCMacros(text));
  assert.ok(ms < 3_000, `blankCMacros() took ${Math.round(ms)} ms`);
});

Deno.test("blankCMacros() takes linear time on a long continued #define", () => {
  const text = "#define LIST(X) \\\n" + "  X(A_B, 1) \\\n".repeat(20_000) +
    "\nint y;\n";
  const ms = elapsedMs(() => blankCMacros(text));
  assert.ok(ms < 3_000, `blankCMacros() took ${Math.round(ms)} ms`);
});
