// The outline result as it crosses from a worker to the main thread: the
// numbers of every symbol in one Int32Array (transferred, not copied) and its
// strings in one array, in depth-first order. For tens of thousands of
// symbols this costs about half of JSON.stringify + JSON.parse, and a third of
// a structured clone of the objects themselves.
import type { OutlineResult, OutlineSymbol } from "./types.ts";

/** An {@linkcode OutlineResult} packed for postMessage. */
export interface PackedOutline {
  language: string;
  totalLines: number;
  /** How many top-level symbols. */
  count: number;
  /** Per symbol: startLine, endLine, number of children, 1 if it has a doc. */
  numbers: Int32Array<ArrayBuffer>;
  /** Per symbol: kind, name, then its doc when it has one. */
  strings: string[];
  /** Symbols past the cap, counted only. */
  omitted?: number;
}

const FIELDS = 4;

/**
 * Packs a result; {@linkcode unpackOutline} gives back an equal one, its
 * lines moved down by `lineOffset` (a piece of a file counts from its start).
 */
export function packOutline(
  result: OutlineResult,
  lineOffset = 0,
): PackedOutline {
  const numbers: number[] = [];
  const strings: string[] = [];
  const walk = (symbols: OutlineSymbol[]): void => {
    for (const symbol of symbols) {
      const hasDoc = symbol.doc !== undefined;
      numbers.push(
        symbol.startLine + lineOffset,
        symbol.endLine + lineOffset,
        symbol.children.length,
        hasDoc ? 1 : 0,
      );
      strings.push(symbol.kind, symbol.name);
      if (hasDoc) strings.push(symbol.doc!);
      walk(symbol.children);
    }
  };
  walk(result.symbols);
  return {
    language: result.language,
    totalLines: result.totalLines,
    count: result.symbols.length,
    numbers: new Int32Array(numbers),
    strings,
    ...(result.omitted ? { omitted: result.omitted } : {}),
  };
}

/**
 * Rebuilds the result, each symbol's keys in the order the extractors create
 * them (kind, name, startLine, endLine, children, doc), as JSON would.
 */
export function unpackOutline(packed: PackedOutline): OutlineResult {
  const { numbers, strings } = packed;
  let at = 0;
  let text = 0;
  const read = (count: number): OutlineSymbol[] => {
    const symbols: OutlineSymbol[] = new Array(count);
    for (let i = 0; i < count; i++) {
      const symbol: OutlineSymbol = {
        kind: strings[text++],
        name: strings[text++],
        startLine: numbers[at],
        endLine: numbers[at + 1],
        children: [],
      };
      const children = numbers[at + 2];
      const hasDoc = numbers[at + 3] === 1;
      at += FIELDS;
      if (hasDoc) symbol.doc = strings[text++];
      symbol.children = read(children);
      symbols[i] = symbol;
    }
    return symbols;
  };
  return {
    language: packed.language,
    totalLines: packed.totalLines,
    symbols: read(packed.count),
    ...(packed.omitted ? { omitted: packed.omitted } : {}),
  };
}
