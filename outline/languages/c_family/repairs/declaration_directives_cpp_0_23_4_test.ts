// declarationDirectiveRanges(): the #if blocks inside a declaration it
// blanks down to their first branch, and the blocks between declarations it
// leaves; and the outline of libstdc++'s pattern with and without it.
import assert from "node:assert/strict";
import {
  extractLines,
  lines,
} from "../../../../tests/support/outline_languages.ts";
import { blankRanges, codeOnly } from "../c_code.ts";
import { cpp } from "../cpp.ts";
import { declarationDirectiveRanges } from "./declaration_directives_cpp_0_23_4.ts";

function blanked(source: string): string[] {
  const text = blankRanges(
    source,
    declarationDirectiveRanges(codeOnly(source)),
  );
  return text.split("\n").map((line) => line.trimEnd());
}

Deno.test("declarationDirectiveRanges() keeps the first branch of a block inside a declaration", () => {
  assert.deepEqual(
    blanked(lines(
      "template<typename K>",
      "#if __cplusplus >= 201103L",
      "  template<typename A>",
      "#else",
      "  template<typename B>",
      "#endif",
      "  void f(K k,",
      "#if X",
      "         A&& a)",
      "#elif Y",
      "         const A& a)",
      "#else",
      "         A a)",
      "#endif",
      "  { }",
    )),
    [
      "template<typename K>",
      "",
      "  template<typename A>",
      "",
      "",
      "",
      "  void f(K k,",
      "",
      "         A&& a)",
      "",
      "",
      "",
      "",
      "",
      "  { }",
      "",
    ],
  );
});

Deno.test("declarationDirectiveRanges() leaves blocks between declarations, whatever they hold", () => {
  const text = lines(
    "#ifndef A_H",
    "#define A_H",
    "#if defined(X)",
    "#define M(a) \\",
    "  call(a,",
    "void f();",
    "#elif defined(Y)",
    "struct S {",
    "  int a;",
    "};",
    "#else",
    "namespace n {",
    "#endif",
    "#ifdef __cplusplus",
    'extern "C" {',
    "#endif",
    "  // no code",
    "#endif",
  );
  assert.deepEqual(declarationDirectiveRanges(codeOnly(text)), []);
});

Deno.test("cpp's prepare keeps a class whose member templates have #if alternatives, inside a namespace", async () => {
  const text = lines(
    "namespace std {",
    "  template<typename T>",
    "    class tree",
    "    {",
    "    protected:",
    "#if INLINE_VERSION",
    "      template<typename C>",
    "#else",
    "      template<typename C, bool = is_pod(C)>",
    "#endif",
    "        struct impl { C c; };",
    "    public:",
    "      void clear() { }",
    "    };",
    "  template<typename T>",
    "#if NEW",
    "    template<typename A>",
    "#endif",
    "    void tree<T>::insert(A&& a) { }",
    "}",
  );
  assert.deepEqual(await extractLines(cpp, text), [
    "namespace std 1-20",
    "    class tree 2-14",
    "        struct impl 7-11",
    "            field c 11-11",
    "        method clear 13-13",
    "    function tree<T>::insert 15-19",
  ]);
  // Without the repair the grammar loses the class.
  const unrepaired = await extractLines({ ...cpp, prepare: undefined }, text);
  assert.ok(!unrepaired.some((line) => line.includes("class tree")));
});
