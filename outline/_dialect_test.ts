import assert from "node:assert/strict";
import { isCppHeader, isFlowScript, isObjcHeader } from "./_dialect.ts";

const CPP_HEADERS: Record<string, string> = {
  "a namespace": "#pragma once\nnamespace llvm {\nint f();\n}\n",
  "an anonymous namespace": "namespace {\nint hidden;\n}\n",
  "a nested namespace": "namespace a::b {\n}\n",
  "a template": "template <typename T>\nT max(T a, T b);\n",
  "a class": "class Widget {\n  int size;\n};\n",
  "a class with a base": "class Button : public Widget {\n};\n",
  "a class, its brace below": "class Widget\n{\n};\n",
  "a final class": "class Leaf final {\n};\n",
  "an access label": "struct S {\npublic:\n  int x;\n};\n",
  "using namespace": "using namespace std;\n",
  'extern "C++"': 'extern "C++" {\nint f(int);\n}\n',
  "a standard C++ include": "#include <vector>\nint f();\n",
};

const C_HEADERS: Record<string, string> = {
  "plain C":
    "#include <stdio.h>\nstruct point { int x, y; };\nint add(int a, int b);\n",
  'extern "C" guard':
    '#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n#ifdef __cplusplus\n}\n#endif\n',
  "class as an identifier": "int class;\nstruct s { int class; };\n",
  "markers in comments":
    "/* class Widget {\nnamespace x {\n*/\n// template <typename T>\nint f(void);\n",
  "label in a switch":
    "int f(int x) {\n  switch (x) {\n  default:\n    return 0;\n  }\n}\n",
  "include with a path": "#include <sys/types.h>\n#include <linux/limits.h>\n",
  "a name that starts with public": "int public_count;\npublic_count = 1;\n",
};

for (const [name, text] of Object.entries(CPP_HEADERS)) {
  Deno.test(`isCppHeader() sees C++ in a header with ${name}`, () => {
    assert.equal(isCppHeader(text), true);
  });
}

for (const [name, text] of Object.entries(C_HEADERS)) {
  Deno.test(`isCppHeader() keeps a C header as C: ${name}`, () => {
    assert.equal(isCppHeader(text), false);
  });
}

const FLOW_SCRIPTS: Record<string, string> = {
  "a line comment": "// @flow\nexport type A = number;\n",
  "a license comment":
    "/**\n * Copyright\n *\n * @flow strict\n * @format\n */\n\nimport x from 'x';\n",
  "a shebang": "#!/usr/bin/env node\n/* @flow */\nmain();\n",
};

const PLAIN_SCRIPTS: Record<string, string> = {
  "no pragma": "/** Adds. */\nexport function add(a, b) { return a + b; }\n",
  "@noflow": "/* @flow @noflow */\nrun();\n",
  "@flow after code": "run();\n// @flow\n",
  "another word": "// @flowtype is a different tag\nrun();\n",
};

for (const [name, text] of Object.entries(FLOW_SCRIPTS)) {
  Deno.test(`isFlowScript() finds @flow in ${name}`, () => {
    assert.equal(isFlowScript(text), true);
  });
}

for (const [name, text] of Object.entries(PLAIN_SCRIPTS)) {
  Deno.test(`isFlowScript() keeps a plain script: ${name}`, () => {
    assert.equal(isFlowScript(text), false);
  });
}

Deno.test("isObjcHeader() sees @interface, @protocol and @implementation lines, not ones in comments", () => {
  assert.equal(
    isObjcHeader("#import <UIKit/UIKit.h>\n@interface A : B\n@end\n"),
    true,
  );
  assert.equal(isObjcHeader("  @protocol P <NSObject>\n@end\n"), true);
  assert.equal(isObjcHeader("@implementation A\n@end\n"), true);
  assert.equal(isObjcHeader("/* @interface A\n@end */\nint f(void);\n"), false);
  assert.equal(isObjcHeader("// @protocol P\nint f(void);\n"), false);
  assert.equal(
    isObjcHeader("#import <Foundation/Foundation.h>\nint f(void);\n"),
    false,
  );
  assert.equal(isObjcHeader("@class A;\nint f(void);\n"), false);
});
