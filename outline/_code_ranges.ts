// The parts of a text that a parse is given when a language can tell where
// its code bodies are (LanguageSpec.codeBodies): everything else, as
// tree-sitter's included ranges. Indices and columns are UTF-16 code units,
// as web-tree-sitter counts them for string input.
import type { Point, Range } from "web-tree-sitter";
import { lastAtOrBefore } from "../internal/last_at_or_before.ts";

/**
 * The ranges of `text` outside `bodies` ([start, end) offsets, in order and
 * apart), covering the whole text when there are none.
 *
 * @example Two ranges around one body
 * ```ts
 * import { rangesOutside } from "./_code_ranges.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "func f() {\n  g()\n}\n";
 * const ranges = rangesOutside(text, [[10, 17]]);
 * assert.deepEqual(ranges.map((r) => [r.startIndex, r.endIndex]), [[0, 10], [17, 19]]);
 * assert.deepEqual(ranges[1].startPosition, { row: 2, column: 0 });
 * ```
 */
export function rangesOutside(
  text: string,
  bodies: readonly (readonly [number, number])[],
): Range[] {
  const lines = _lineStarts(text);
  const point = (index: number): Point => {
    const row = lastAtOrBefore(lines, index);
    return { row, column: index - lines[row] };
  };
  const ranges: Range[] = [];
  let from = 0;
  for (const [start, end] of [...bodies, [text.length, text.length] as const]) {
    if (start < from) continue;
    ranges.push({
      startIndex: from,
      endIndex: start,
      startPosition: point(from),
      endPosition: point(start),
    });
    from = end;
  }
  return ranges;
}

function _lineStarts(text: string): number[] {
  const starts = [0];
  for (
    let at = text.indexOf("\n");
    at !== -1;
    at = text.indexOf("\n", at + 1)
  ) {
    starts.push(at + 1);
  }
  return starts;
}
