// Two top-level annotation lines above a declaration (`@Preview` `@Composable`
// `private fun P() {}`): grammar @tree-sitter-grammars/tree-sitter-kotlin@1.1.0
// may read an annotated expression and lose it. It can go when the Kotlin
// outline tests pass with it left out of REPAIRS (kotlin.ts).
//
// Misread too: one annotation above `annotation class X` or a one-line `enum
// class`, with no syntax error. Blanked (the same lines, spaces for their
// text) the declarations parse; the symbols then get their annotation lines
// and the KDoc above them back.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../../types.ts";
import { commentEndingAt } from "../../_nodes.ts";
import type { KotlinRepair } from "./_repair.ts";

// A line of annotations only, at column 0: `@Module`, `@InstallIn(X::class)`,
// `@Target(AnnotationTarget.PROPERTY) @Keep`. Not `@file:` annotations,
// which belong to the file.
// Arguments hold one level of parentheses at most; each part matches one way
// only, so a line that does not end as one fails in linear time (a `[^\n]*`
// there backtracked exponentially in the number of annotations).
const ANNOTATION_LINE =
  /^@(?!file:)[\w.]+(?:\((?:[^()\n]|\([^()\n]*\))*\))?(?:[ \t]+@[\w.]+(?:\((?:[^()\n]|\([^()\n]*\))*\))?)*[ \t]*\r?$/;

/** A run of annotation lines, 0-based and inclusive. */
interface Run {
  first: number;
  last: number;
}

/** The text with its top-level annotation lines blanked, and where they were. */
export function blankTopLevelAnnotations(
  text: string,
): { text: string; runs: Run[] } {
  const lines = text.split("\n");
  const runs: Run[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!ANNOTATION_LINE.test(lines[i])) continue;
    const last = runs.at(-1);
    if (last !== undefined && last.last === i - 1) last.last = i;
    else runs.push({ first: i, last: i });
    // A CRLF line keeps its \r.
    lines[i] = lines[i].replace(/[^\r]/g, " ");
  }
  return { text: runs.length === 0 ? text : lines.join("\n"), runs };
}

/**
 * Gives each top-level symbol that starts right below a run of blanked
 * annotations its annotation lines and the KDoc above them, read from the
 * original `text`.
 */
export function restoreAnnotations(
  symbols: OutlineSymbol[],
  { text, runs }: { text: string; runs: Run[] },
): OutlineSymbol[] {
  if (runs.length === 0) return symbols;
  const byNextLine = new Map(runs.map((run) => [run.last + 2, run]));
  let lines: string[] | undefined;
  for (const symbol of symbols) {
    const run = byNextLine.get(symbol.startLine);
    if (run === undefined) continue;
    symbol.startLine = run.first + 1;
    lines ??= text.split("\n");
    symbol.doc ??= commentEndingAt(lines, run.first - 1);
  }
  return symbols;
}

/**
 * Blanks top-level annotation lines, and gives them back after; needed when
 * the first parse read annotations as an expression of their own.
 */
export const topLevelAnnotations: KotlinRepair = Object.assign(
  (text: string) => {
    const { text: blanked, runs } = blankTopLevelAnnotations(text);
    return {
      text: blanked,
      restore: (symbols: OutlineSymbol[], original: string) =>
        restoreAnnotations(symbols, { text: original, runs }),
    };
  },
  {
    needed: (root: Node) =>
      root.namedChildren.some((child) => child.type === "annotated_expression"),
    evenOnTie: true,
  },
);
