// C++: C's symbols plus classes (methods and fields as members), namespaces
// (their declarations as members), templates and qualified out-of-class
// definitions such as `Widget::draw`. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { ExtractOptions, LanguageSpec } from "../_language.ts";
import { extractCFamily, joinCFamily } from "./_c_family.ts";
import { macroRanges } from "./repairs/declaration_macros_c_0_24_1_cpp_0_23_4.ts";
import { constructorMacroRanges } from "./repairs/constructor_macros_cpp_0_23_4.ts";
import { enumIncludeRanges } from "./repairs/enum_includes_c_0_24_1_cpp_0_23_4.ts";
import { declarationDirectiveRanges } from "./repairs/declaration_directives_cpp_0_23_4.ts";
import { blankRanges, codeOnly } from "./c_code.ts";
import { liftOverMacroLines } from "./repairs/macro_lines_c_0_24_1_cpp_0_23_4.ts";

/** C++ (`.cpp`, `.cc`, `.cxx`, `.hpp`, `.hxx`, `.hh`). */
export const cpp: LanguageSpec = {
  name: "C++",
  grammar: "cpp",
  extensions: [".cpp", ".cc", ".cxx", ".hpp", ".hxx", ".hh"],
  prepare: blankCppDeclarationMacros,
  extract: extractCpp,
  join: joinCFamily,
  braces: true,
  preprocessor: true,
};

/**
 * The text with the X-macro lines of enums blanked
 * (repairs/enum_includes_c_0_24_1_cpp_0_23_4.ts), then the declaration macros
 * (repairs/declaration_macros_c_0_24_1_cpp_0_23_4.ts) and the macros before
 * constructors (repairs/constructor_macros_cpp_0_23_4.ts), then the `#if`
 * blocks inside declarations (repairs/declaration_directives_cpp_0_23_4.ts).
 * Most files have no such enum: then the macro passes read the code found
 * once.
 */
export function blankCppDeclarationMacros(source: string): string {
  let text = source;
  let code = codeOnly(text);
  if (text.includes("enum")) {
    const enumRanges = enumIncludeRanges(code);
    if (enumRanges.length > 0) {
      // The macro passes read the code as it is once those lines are gone.
      text = blankRanges(text, enumRanges);
      code = codeOnly(text);
    }
  }
  const constructors = constructorMacroRanges(code);
  const ranges = constructors.length === 0
    ? macroRanges(code)
    : [...macroRanges(code), ...constructors].sort((a, b) => a[0] - b[0]);
  // Directives are judged by the code around them once the macros are gone.
  const directives = declarationDirectiveRanges(blankRanges(code, ranges));
  if (directives.length === 0) return blankRanges(text, ranges);
  return blankRanges(
    text,
    [...ranges, ...directives].sort((a, b) => a[0] - b[0]),
  );
}

function extractCpp(
  root: Node,
  source: string,
  options?: ExtractOptions,
): OutlineSymbol[] {
  return liftOverMacroLines(
    extractCFamily(root, { cpp: true, piece: options?.piece }),
    source,
  );
}
