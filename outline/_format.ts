// Renders an outline in the specification's plain-text format.
import type { OutlineResult, OutlineSymbol } from "./types.ts";
import { countSymbols } from "./_symbol_cap.ts";

const INDENT = "    ";

/** The text of an outline; `maxSymbols` caps the symbol lines. */
export function formatOutline(
  path: string,
  result: OutlineResult,
  maxSymbols: number = Infinity,
): string {
  const lines = [
    `File: ${path}`,
    `Language: ${result.language}`,
    `Total lines: ${result.totalLines}`,
    "─── Symbols ───",
  ];
  const listed = countSymbols(result.symbols);
  const total = listed + (result.omitted ?? 0);
  if (total === 0) {
    lines.push("(no symbols found)");
    return lines.join("\n");
  }
  const limit = Math.max(0, Math.floor(maxSymbols));
  _render(result.symbols, 0, lines, { left: limit });
  const shown = Math.min(listed, limit);
  if (shown < total) {
    lines.push(
      `... ${
        total - shown
      } more symbols left out (showing ${shown} of ${total}); read the file by line ranges for the rest`,
    );
  }
  return lines.join("\n");
}

function _render(
  symbols: OutlineSymbol[],
  depth: number,
  lines: string[],
  budget: { left: number },
): void {
  for (const symbol of symbols) {
    if (budget.left <= 0) return;
    budget.left--;
    lines.push(INDENT.repeat(depth) + _line(symbol));
    _render(symbol.children, depth + 1, lines, budget);
  }
}

function _line(symbol: OutlineSymbol): string {
  const range = symbol.startLine === symbol.endLine
    ? `(line ${symbol.startLine})`
    : `(lines ${symbol.startLine}-${symbol.endLine})`;
  const doc = symbol.doc === undefined ? "" : `  // ${symbol.doc}`;
  return `${symbol.kind} ${symbol.name} ${range}${doc}`;
}
