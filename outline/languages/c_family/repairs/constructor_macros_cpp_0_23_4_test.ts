// constructorMacroRanges(): the macros it blanks before constructors with an
// initializer list, and the words it leaves.
import { deepStrictEqual } from "node:assert/strict";
import { blankRanges, codeOnly } from "../c_code.ts";
import { constructorMacroRanges } from "./constructor_macros_cpp_0_23_4.ts";

function blanked(source: string): string[] {
  const text = blankRanges(source, constructorMacroRanges(codeOnly(source)));
  return text.split("\n").map((line) => line.trim());
}

Deno.test("constructorMacroRanges() covers a macro before a constructor with an initializer list", () => {
  deepStrictEqual(
    blanked([
      "struct V {",
      "  _GLIBCXX20_CONSTEXPR",
      "  V() _GLIBCXX_NOEXCEPT",
      "  : a() { }",
      "  explicit _GLIBCXX20_CONSTEXPR MY_INLINE",
      "  V(int n) noexcept(true) : a(n) { }",
      "  /* A_B */ _GLIBCXX20_CONSTEXPR V(long n) throw() : x() {}",
      "};",
    ].join("\n")),
    [
      "struct V {",
      "",
      "V() _GLIBCXX_NOEXCEPT",
      ": a() { }",
      "explicit",
      "V(int n) noexcept(true) : a(n) { }",
      // The comment stays; the macro after it opens the line's code.
      `/* A_B */ ${" ".repeat(20)} V(long n) throw() : x() {}`,
      "};",
    ],
  );
});

Deno.test("constructorMacroRanges() leaves a macro-spelled type before a function or a call", () => {
  const text = [
    "MY_TYPE f(int a);",
    "SQLITE_API int g(void) { return 0; }",
    "  _GLIBCXX20_CONSTEXPR",
    "  V(V&&) noexcept = default;",
    "  HANDLE_IT(a) : b;",
    "  A_B std::f() {}",
    "  A_B c(d) ? e : f;",
  ].join("\n");
  deepStrictEqual(constructorMacroRanges(codeOnly(text)), []);
});
