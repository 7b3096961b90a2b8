// C++: C's symbols plus classes (methods and fields as members), namespaces
// (their declarations as members), templates and qualified out-of-class
// definitions such as `Widget::draw`. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { ExtractOptions, LanguageSpec } from "../_language.ts";
import { extractCFamily, joinCFamily } from "./_c_family.ts";
import {
  blankCMacros,
  macroRanges,
} from "./repairs/declaration_macros_c_0_24_1_cpp_0_23_4.ts";
import { enumIncludeRanges } from "./repairs/enum_includes_c_0_24_1_cpp_0_23_4.ts";
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
 * (repairs/declaration_macros_c_0_24_1_cpp_0_23_4.ts). Most files have no such enum:
 * then both passes read the same code, found once.
 */
export function blankCppDeclarationMacros(source: string): string {
  if (!source.includes("enum")) return blankCMacros(source);
  const code = codeOnly(source);
  const enumRanges = enumIncludeRanges(code);
  if (enumRanges.length === 0) return blankRanges(source, macroRanges(code));
  // The macro pass reads the code as it is once those lines are gone.
  return blankCMacros(blankRanges(source, enumRanges));
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
