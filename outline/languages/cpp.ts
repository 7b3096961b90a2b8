// C++: C's symbols plus classes (methods and fields as members), namespaces
// (their declarations as members), templates and qualified out-of-class
// definitions such as `Widget::draw`. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../types.ts";
import type { ExtractOptions, LanguageSpec } from "./_language.ts";
import { extractCFamily, joinCFamily } from "./_c_family.ts";
import { blankCMacros } from "./_c_macros.ts";
import { blankEnumIncludes } from "./_c_enum_includes.ts";
import { liftOverMacroLines } from "./_c_macro_lines.ts";

/** C++ (`.cpp`, `.cc`, `.cxx`, `.hpp`, `.hxx`, `.hh`). */
export const cpp: LanguageSpec = {
  name: "C++",
  grammar: "cpp",
  extensions: [".cpp", ".cc", ".cxx", ".hpp", ".hxx", ".hh"],
  prepare: (source) => blankCMacros(blankEnumIncludes(source)),
  extract: extractCpp,
  join: joinCFamily,
  braces: true,
  preprocessor: true,
};

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
