/**
 * Where a symbol's doc comment starts: the outline gives a symbol's own
 * lines (decorators and attributes included) and the first line of its doc;
 * reading or replacing the symbol whole takes the comment above it too.
 *
 * @module
 */
import { isToolDirective } from "./languages/_nodes.ts";
import type { OutlineSymbol } from "./types.ts";

/**
 * The 1-based first line of `symbol` with its doc comment: the block comment
 * or run of line comments right above it (lint directives between them
 * included), or a `/**` block one blank line above (JSDoc's rule). A symbol
 * without a doc starts at its own first line, and so does any Python one (its
 * docstring is inside its body) and a Markdown heading.
 *
 * Needs no permission.
 *
 * @example A function with a JSDoc block
 * ```ts
 * import { docStartLine } from "./doc_start.ts";
 * import assert from "node:assert/strict";
 *
 * const lines = ["import x;", "/**", " * Adds.", " *\/", "function add() {}"];
 * const add = { kind: "function", name: "add", startLine: 5, endLine: 5, doc: "Adds.", children: [] };
 * assert.equal(docStartLine(lines, add, "TypeScript"), 2);
 * ```
 *
 * @param lines The file's lines (split at `\n`).
 * @param symbol The symbol, as its outline lists it.
 * @param language The outline's language name (`Python`, `Markdown`, ...).
 * @returns The first line, 1-based.
 */
export function docStartLine(
  lines: readonly string[],
  symbol: OutlineSymbol,
  language: string,
): number {
  const own = symbol.startLine;
  if (symbol.doc === undefined || language === "Python") return own;
  // 0-based: the symbol's first line, and the line above what is taken.
  let top = own - 1;
  let above = top - 1;
  let run = above;
  while (run >= 0 && lines[run].trimStart().startsWith("//")) run--;
  if (run < above) {
    const directivesOnly = lines.slice(run + 1, top).every((line) =>
      isToolDirective(line.trimStart())
    );
    if (!directivesOnly) return run + 2;
    top = run + 1;
    above = run;
  } else if (
    above >= 1 && lines[above].trim() === "" &&
    lines[above - 1].trimEnd().endsWith("*/")
  ) {
    above--;
  }
  if (above < 0 || !lines[above].trimEnd().endsWith("*/")) return top + 1;
  let start = above;
  while (start >= 0 && !lines[start].includes("/*")) start--;
  // Code before the comment on its first line: not a doc of its own line.
  if (start < 0 || lines[start].slice(0, lines[start].indexOf("/*")).trim()) {
    return top + 1;
  }
  return start + 1;
}
