// C: functions (including those inside #if/#ifdef blocks), structs, unions,
// enums and typedefs, with fields and enumerators as members. Runs inside the
// outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../types.ts";
import type { ExtractOptions, LanguageSpec } from "./_language.ts";
import { extractCFamily, joinCFamily } from "./_c_family.ts";
import { blankRanges, codeOnly } from "./_c_code.ts";
import { macroRanges } from "./_c_macros.ts";
import { liftOverMacroLines } from "./_c_macro_lines.ts";
import { wrapperRanges } from "./_c_wrappers.ts";

/** C (`.c`, `.h`): functions, structs, unions, enums and typedefs. */
export const c: LanguageSpec = {
  name: "C",
  grammar: "c",
  extensions: [".c", ".h"],
  prepare: blankCDeclarationMacros,
  extract: extractC,
  join: joinCFamily,
  braces: true,
  preprocessor: true,
};

/**
 * The text with the macros the grammar cannot read blanked: the wrappers of
 * portability headers first (_c_wrappers.ts), so that the declaration
 * macros around them (_c_macros.ts) are read in the code the compiler sees.
 */
function blankCDeclarationMacros(source: string): string {
  const code = codeOnly(source);
  const wrappers = wrapperRanges(code);
  const macros = macroRanges(blankRanges(code, wrappers));
  const ranges = [...wrappers, ...macros].sort((a, b) => a[0] - b[0]);
  return blankRanges(source, ranges);
}

function extractC(
  root: Node,
  source: string,
  options?: ExtractOptions,
): OutlineSymbol[] {
  return liftOverMacroLines(
    extractCFamily(root, { cpp: false, piece: options?.piece }),
    source,
  );
}
