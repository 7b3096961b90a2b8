// enumIncludeRanges(): the X-macro lines it blanks in an enum, and the enums it leaves.
import { deepStrictEqual } from "node:assert/strict";
import { blankRanges, codeOnly } from "../c_code.ts";
import { enumIncludeRanges } from "./enum_includes_c_0_24_1_cpp_0_23_4.ts";

// What the C and C++ text passes do with the ranges.
function blankEnumIncludes(source: string): string {
  return blankRanges(source, enumIncludeRanges(codeOnly(source)));
}

Deno.test("enumIncludeRanges() covers the X-macro lines of an enum that includes a list", () => {
  const text = [
    "#include <a.h>",
    "enum class Atom : int {",
    "#define HANDLE(ID, NAME) NAME = ID,",
    '#include "Dwarf.def"',
    "#ifdef X",
    "  #  include \\",
    '    "More.def"',
    "#endif",
    "  lo = 1,",
    "};",
    '#include "after.h"',
  ].join("\n");
  const blanked = blankEnumIncludes(text).split("\n");
  deepStrictEqual(blanked.map((line) => line.trim()), [
    "#include <a.h>",
    "enum class Atom : int {",
    "",
    "",
    "#ifdef X",
    "",
    "",
    "#endif",
    "lo = 1,",
    "};",
    '#include "after.h"',
  ]);
  // With no #include, a #define stays (the grammars read it there).
  const uv = "enum {\n#define XX(a) a,\n  MAP(XX)\n#undef XX\n};";
  deepStrictEqual(blankEnumIncludes(uv), uv);
  // Lines and columns stay where they were.
  deepStrictEqual(
    blanked.map((line) => line.length),
    text.split("\n").map((line) => line.length),
  );
});

Deno.test("enumIncludeRanges() skips a variable of an enum type and an unclosed body", () => {
  deepStrictEqual(
    enumIncludeRanges(
      'enum E e = f({\n#include "x"\n});\nenum F {\n#include "y"',
    ),
    [],
  );
  deepStrictEqual(enumIncludeRanges('enum {\n#include "x"\n};'), [[7, 19]]);
});
