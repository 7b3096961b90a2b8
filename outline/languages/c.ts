// C: functions (including those inside #if/#ifdef blocks), structs, unions,
// enums and typedefs, with fields and enumerators as members. Runs inside the
// outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../types.ts";
import type { ExtractOptions, LanguageSpec } from "./_language.ts";
import { extractCFamily, joinCFamily } from "./_c_family.ts";

/** C (`.c`, `.h`): functions, structs, unions, enums and typedefs. */
export const c: LanguageSpec = {
  name: "C",
  grammar: "c",
  extensions: [".c", ".h"],
  extract: extractC,
  join: joinCFamily,
  braces: true,
  preprocessor: true,
};

function extractC(
  root: Node,
  _source: string,
  options?: ExtractOptions,
): OutlineSymbol[] {
  return extractCFamily(root, { cpp: false, piece: options?.piece });
}
