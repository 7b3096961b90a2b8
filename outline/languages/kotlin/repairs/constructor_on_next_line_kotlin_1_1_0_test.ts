// joinConstructorLines(): where it moves a primary constructor's line break.
import { deepStrictEqual } from "node:assert/strict";
import { joinConstructorLines } from "./constructor_on_next_line_kotlin_1_1_0.ts";

Deno.test("joinConstructorLines() moves the line break after a primary constructor's (", () => {
  deepStrictEqual(
    joinConstructorLines(
      "class O {\n  class Page\n  private constructor(val id: Int) {}\n}",
    ),
    "class O {\n  class Page private constructor(\nval id: Int) {}\n}",
  );
  // Blank lines (annotations blanked before) and CRLF move along, kept.
  deepStrictEqual(
    joinConstructorLines("class A<T>\r\n   \r\n constructor()"),
    "class A<T> constructor(\r\n\r\n)",
  );
  // A comment that mentions a class, above a secondary constructor, stays.
  const untouched = "  // makes a class\n  constructor(x: Int) : this()";
  deepStrictEqual(joinConstructorLines(untouched), untouched);
});
