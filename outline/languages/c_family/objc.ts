// Objective-C headers: a `.h` file whose start has `@interface`, `@protocol`
// or `@implementation` (see _dialect.ts). Its C declarations come from the C
// grammar, with the Objective-C lines blanked out; its classes, protocols and
// their methods and properties come from a line scanner (_objc.ts). Runs
// inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { LanguageSpec } from "../_language.ts";
import { extractCFamily, joinCFamily } from "./_c_family.ts";
import { blankObjc, objcBlocks, overAttributes } from "./_objc.ts";
import { blankCDeclarationMacros } from "./c.ts";

/** Objective-C headers: interfaces, protocols, methods, properties, and C. */
export const objc: LanguageSpec = {
  name: "Objective-C",
  grammar: "c",
  extensions: [],
  // Its own lines first; then what C's pass blanks in the C that is left.
  prepare: (source) => blankCDeclarationMacros(blankObjc(source)),
  extract: extractObjc,
  join: joinCFamily,
  parseWhole: true,
};

function extractObjc(root: Node, source: string): OutlineSymbol[] {
  const symbols = [
    ...overAttributes(extractCFamily(root, { cpp: false }), source),
    ...objcBlocks(source),
  ];
  return symbols.sort((a, b) => a.startLine - b.startLine);
}
