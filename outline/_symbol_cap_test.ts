import assert from "node:assert/strict";
import { capSymbols, countSymbols } from "./_symbol_cap.ts";
import type { OutlineSymbol } from "./types.ts";

const symbol = (
  name: string,
  children: OutlineSymbol[] = [],
): OutlineSymbol => ({
  kind: "class",
  name,
  startLine: 1,
  endLine: 1,
  children,
});

Deno.test("capSymbols() keeps the first symbols in outline order and counts the rest", () => {
  const tree = [
    symbol("A", [symbol("a1"), symbol("a2")]),
    symbol("B", [symbol("b1")]),
  ];
  assert.equal(countSymbols(tree), 5);
  const { symbols, omitted } = capSymbols(tree, 2);
  assert.deepEqual(symbols, [symbol("A", [symbol("a1")])]);
  assert.equal(omitted, 3);
  assert.deepEqual(capSymbols(tree, 5), { symbols: tree, omitted: 0 });
});
