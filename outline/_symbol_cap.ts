// A cap on the symbols an outline holds. Each costs about 1 KB between the
// worker, the transfer, the main thread and the cache, and a 64 MB file of
// Markdown headings holds 16 million: past the cap they are counted, not
// kept. The worker applies it before the transfer; the main thread again
// when it joins pieces.
import type { OutlineSymbol } from "./types.ts";

/** The most symbols an outline lists when the caller names no cap. */
export const MAX_SYMBOLS = 200_000;

/** The first `limit` symbols in outline order (a symbol before its members). */
export function capSymbols(
  symbols: OutlineSymbol[],
  limit: number,
): { symbols: OutlineSymbol[]; omitted: number } {
  // Nearly always under the cap: the symbols as they are, nothing copied.
  if (_fits(symbols, limit)) return { symbols, omitted: 0 };
  const budget = { left: limit, omitted: 0 };
  return { symbols: _take(symbols, budget), omitted: budget.omitted };
}

// Whether there are at most `limit` symbols, counting no further than that.
function _fits(symbols: OutlineSymbol[], limit: number): boolean {
  let left = limit;
  const visit = (list: OutlineSymbol[]): boolean => {
    left -= list.length;
    if (left < 0) return false;
    for (const symbol of list) {
      if (symbol.children.length > 0 && !visit(symbol.children)) return false;
    }
    return true;
  };
  return visit(symbols);
}

function _take(
  symbols: OutlineSymbol[],
  budget: { left: number; omitted: number },
): OutlineSymbol[] {
  const kept: OutlineSymbol[] = [];
  for (const symbol of symbols) {
    if (budget.left <= 0) {
      budget.omitted += countSymbols([symbol]);
      continue;
    }
    budget.left--;
    kept.push({ ...symbol, children: _take(symbol.children, budget) });
  }
  return kept;
}

/** How many symbols, members included. */
export function countSymbols(symbols: OutlineSymbol[]): number {
  let count = symbols.length;
  for (const symbol of symbols) count += countSymbols(symbol.children);
  return count;
}
