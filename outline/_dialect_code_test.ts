// isObjcHeader() and isCppHeader() read only code: markers in comments,
// strings, raw strings and char literals do not count; macros may stand
// before @interface.
import assert from "node:assert/strict";
import { isCppHeader, isObjcHeader } from "./_dialect.ts";
import { codeOnly } from "./languages/c_family/c_code.ts";

/** Asserts what isCppHeader() and isObjcHeader() say of each head (a check left out is not made). */
function assertHeaders(
  expected: { cpp?: boolean; objc?: boolean },
  heads: string[],
): void {
  for (const head of heads) {
    if (expected.cpp !== undefined) {
      assert.equal(isCppHeader(head), expected.cpp, head);
    }
    if (expected.objc !== undefined) {
      assert.equal(isObjcHeader(head), expected.objc, head);
    }
  }
}

Deno.test("isObjcHeader() ignores Objective-C words in comments and mid-line", () => {
  assertHeaders({ objc: false }, [
    "/*\n@interface A\n*/\nint a;\n",
    "// @protocol P\nint a;\n",
    'const char *s = "@interface";\n',
  ]);
  assertHeaders({ objc: true }, ["\t@protocol P <NSObject>\n@end\n"]);
});

Deno.test("isObjcHeader() ignores @interface inside a C++ raw string", () => {
  assertHeaders({ objc: false, cpp: true }, [
    'auto s = R"(\n@interface Foo\n)";\nnamespace a {\n}\n',
  ]);
});

Deno.test("codeOnly() and the header checks read char literals, apostrophes in #error/#if 0 and digit separators as C does", () => {
  // C stays C: markers inside literals, comments and unterminated '...' lines.
  assertHeaders({ cpp: false, objc: false }, [
    "char q = '\"';\nint f(void);\n/* namespace a { */\n",
    "char q = '\\'';\nconst char *s = \"namespace a {\";\nint f(void);\n",
    "#error Don't include this directly\nint f(void);\n// class A {\n",
    "#if 0\nIt's old: class A {\n#endif\nint f(void);\n",
    "#warning This header's deprecated\nint x;\n",
    '#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n',
    'const char *s = "@interface A";\n// @protocol P\nint f(void);\n',
  ]);
  // C++ stays C++ after a quote, an escaped quote, an apostrophe or 1'000.
  assertHeaders({ cpp: true, objc: false }, [
    "#error Don't\nnamespace a {\n}\n",
    "char q = '\"';\nnamespace a {\n}\n",
    "char q = '\\\\';\nnamespace a {\n}\n",
    "int x = 1'000;\nnamespace a {\n}\n",
    'auto s = R"(a " b)";\nnamespace a {\n}\n',
    'extern "C++" {\nint f();\n}\n',
  ]);
  // Objective-C stays Objective-C after an apostrophe or a quote in @"...".
  assertHeaders({ objc: true }, [
    "#pragma mark - It's\n@interface A\n@end\n",
    'x = @"a\'b\\"";\n@interface A\n@end\n',
  ]);
  assert.equal(
    codeOnly("a = '\"'; /* x */ b = \"'\"; // c\r\n"),
    "a = ' '; " + " ".repeat(7) + ' b = " "; ' + " ".repeat(5) + "\n",
  );
});

Deno.test("isObjcHeader() takes macros before @interface, not C or C++ lines with macros", () => {
  assertHeaders({ objc: true }, [
    "UIKIT_EXTERN API_AVAILABLE(ios(2.0)) @interface V\n@end\n",
  ]);
  assertHeaders({ objc: false }, [
    "EXTERN_C int f(void);\nFOO(x) BAR(y(z)) int g;\n",
    "// Ann <ann@interface.org>\nAPI(x) int f(void);\n",
    '#define DECL(x) "@interface"\nint f(void);\n',
    'MACRO(x) auto s = R"(\nA @interface B\n)";\n',
  ]);
  assertHeaders({ objc: false, cpp: true }, [
    "API_EXPORT(x)\nnamespace a {\nclass B;\n}\n",
  ]);
});
