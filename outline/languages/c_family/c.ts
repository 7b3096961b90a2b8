// C: functions (including those inside #if/#ifdef blocks), structs, unions,
// enums and typedefs, with fields and enumerators as members. Runs inside the
// outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { ExtractOptions, LanguageSpec } from "../_language.ts";
import { extractCFamily, joinCFamily } from "./_c_family.ts";
import { blankRanges, codeOnly } from "./c_code.ts";
import { macroRanges } from "./_c_macros.ts";
import { enumIncludeRanges } from "./_c_enum_includes.ts";
import { liftOverMacroLines } from "./_c_macro_lines.ts";
import { trailingAttributeRanges, wrapperRanges } from "./_c_wrappers.ts";
import { append } from "../_nodes.ts";

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
 * The text with what the grammar cannot read blanked: nullability
 * qualifiers and lower-case attributes after a parameter list, then the
 * wrappers of portability headers (_c_wrappers.ts), then the declaration
 * macros around them (_c_macros.ts), each pass reading the code as the
 * compiler sees it.
 */
export function blankCDeclarationMacros(source: string): string {
  let code = codeOnly(source);
  const ranges: [number, number][] = [];
  // Each pass reads the code the passes before it left.
  const passes = [
    (
      code: string,
    ) => [
      ...nullabilityRanges(code),
      ...trailingAttributeRanges(code),
      ...enumIncludeRanges(code),
    ],
    wrapperRanges,
    macroRanges,
  ];
  for (let i = 0; i < passes.length; i++) {
    const found = passes[i](code);
    // The last pass's ranges are read by no pass after it.
    if (i < passes.length - 1) {
      code = blankRanges(code, found.sort((a, b) => a[0] - b[0]));
    }
    append(ranges, found);
  }
  return blankRanges(source, ranges.sort((a, b) => a[0] - b[0]));
}

/**
 * Clang's nullability qualifiers (Apple's C headers), unknown to the grammar;
 * not glibc's `__nonnull ((1))` attribute.
 */
const NULLABILITY =
  /\b(?:_Nullable(?:_result)?|_Nonnull|_Null_unspecified|__nullable|__nonnull(?!\s*\()|__null_unspecified)\b/g;

function nullabilityRanges(code: string): [number, number][] {
  return Array.from(
    code.matchAll(NULLABILITY),
    (match): [number, number] => [match.index, match.index + match[0].length],
  );
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
