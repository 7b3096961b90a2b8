// Symbol counts that decide whether a repaired parse of Kotlin reads better
// than the first. Runs inside the outline worker only.
import type { OutlineSymbol } from "../../types.ts";

/** The symbols in `symbols`, children included. */
export function countSymbols(symbols: OutlineSymbol[]): number {
  let count = symbols.length;
  for (const symbol of symbols) count += countSymbols(symbol.children);
  return count;
}

/** The named symbols in `symbols`, with the children of named ones. */
export function countNamed(symbols: OutlineSymbol[]): number {
  let count = 0;
  for (const symbol of symbols) {
    if (symbol.name.trim() !== "") count += 1 + countNamed(symbol.children);
  }
  return count;
}
