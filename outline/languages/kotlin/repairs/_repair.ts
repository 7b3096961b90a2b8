// The shape of a repair of the Kotlin grammar's gaps: a rewrite of the text
// the grammar reads better (every line kept where it was), with what to give
// the symbols back after the parse. kotlin.ts runs its list of them.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../../types.ts";

/** The text rewritten for the grammar, and how to undo it in the symbols. */
export interface Repaired {
  /** The rewritten text: the same lines, each where it was. */
  text: string;
  /** Gives the symbols what the rewrite took; `original` is the file's text. */
  restore?(symbols: OutlineSymbol[], original: string): OutlineSymbol[];
}

/**
 * A repair: rewrites `text` (the file's text, as the repairs before it in
 * the list left it). With `needed`, the repair also asks for the second
 * parse when the first one shows no syntax error; with `evenOnTie`, the
 * repaired outline wins over the first one when it names as many symbols.
 */
export interface KotlinRepair {
  (text: string): Repaired;
  needed?(root: Node, symbols: OutlineSymbol[]): boolean;
  evenOnTie?: boolean;
}
