// The soft keyword `dynamic` (Kotlin/JS) used as a name (`val dynamic = 1`):
// grammar @tree-sitter-grammars/tree-sitter-kotlin@1.1.0 takes it for a
// keyword everywhere and loses the rest of the file. A stand-in of the same
// length is read as a name and put back after. It can go when "the Kotlin
// grammar still misreads dynamic as a name" fails.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../../types.ts";
import { countNamed, countSymbols } from "../_counts.ts";
import type { KotlinRepair } from "./_repair.ts";

/** `dynamic` with a Cyrillic `і`: a name to the grammar, as long in UTF-16. */
const DYNAMIC_STAND_IN = "dynam\u0456c";

/**
 * Replaces each word `dynamic` (Kotlin/JS's dynamic type, a soft keyword the
 * grammar takes for a keyword everywhere) with a stand-in the grammar reads
 * as a name.
 */
export function standInForDynamic(text: string): string {
  return text.includes("dynamic")
    ? text.replace(/\bdynamic\b/g, DYNAMIC_STAND_IN)
    : text;
}

function _restoreDynamic(symbols: OutlineSymbol[]): OutlineSymbol[] {
  for (const symbol of symbols) {
    symbol.name = symbol.name.replaceAll(DYNAMIC_STAND_IN, "dynamic");
    if (symbol.doc !== undefined) {
      symbol.doc = symbol.doc.replaceAll(DYNAMIC_STAND_IN, "dynamic");
    }
    _restoreDynamic(symbol.children);
  }
  return symbols;
}

/**
 * Stands in for the word `dynamic`, and puts it back after; needed when a
 * typed `var dynamic: Int` parsed without an error, but unnamed.
 */
export const dynamicAsName: KotlinRepair = Object.assign(
  (text: string) => ({
    text: standInForDynamic(text),
    restore: _restoreDynamic,
  }),
  {
    needed: (root: Node, symbols: OutlineSymbol[]) =>
      countNamed(symbols) < countSymbols(symbols) &&
      root.text.includes("dynamic"),
  },
);
