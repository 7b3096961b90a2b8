// C: functions (including those inside #if/#ifdef blocks), structs, unions,
// enums and typedefs, with fields and enumerators as members. Runs inside the
// outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { ExtractOptions, LanguageSpec } from "../_language.ts";
import { extractCFamily, joinCFamily } from "./_c_family.ts";
import { blankRanges, codeOnly } from "./c_code.ts";
import { macroRanges } from "./repairs/declaration_macros_c_0_24_1_cpp_0_23_4.ts";
import { enumIncludeRanges } from "./repairs/enum_includes_c_0_24_1_cpp_0_23_4.ts";
import { liftOverMacroLines } from "./repairs/macro_lines_c_0_24_1_cpp_0_23_4.ts";
import {
  trailingAttributeRanges,
  wrapperRanges,
} from "./repairs/portability_wrappers_c_0_24_1.ts";
import { append } from "../_nodes.ts";
import { nullabilityRanges } from "./repairs/nullability_c_0_24_1.ts";

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

// What the grammar cannot read, blanked before the parse, in stages: each
// stage's repairs read the code as the stages before it left it (the
// portability wrappers wrap what the macros pass then reads as C). One
// repair per line, each in its file of repairs/.
const REPAIR_STAGES: readonly ((code: string) => [number, number][])[][] = [
  [nullabilityRanges, trailingAttributeRanges, enumIncludeRanges],
  [wrapperRanges],
  [macroRanges],
];

/**
 * The text with what the grammar cannot read blanked (see REPAIR_STAGES),
 * each stage reading the code as the compiler sees it.
 */
export function blankCDeclarationMacros(source: string): string {
  let code = codeOnly(source);
  const ranges: [number, number][] = [];
  for (let i = 0; i < REPAIR_STAGES.length; i++) {
    const found: [number, number][] = [];
    for (const repair of REPAIR_STAGES[i]) append(found, repair(code));
    // The last stage's ranges are read by no stage after it.
    if (i < REPAIR_STAGES.length - 1) {
      code = blankRanges(code, found.sort((a, b) => a[0] - b[0]));
    }
    append(ranges, found);
  }
  return blankRanges(source, ranges.sort((a, b) => a[0] - b[0]));
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
