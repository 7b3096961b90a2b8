/**
 * Public types of the outline engine.
 *
 * @module
 */

/**
 * One symbol of a file outline. Lines are 1-based and inclusive.
 *
 * A type only: needs no permission.
 *
 * @example Print an outline as an indented tree
 * ```ts
 * import { type OutlineSymbol, outlineSymbols } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function tree(symbols: OutlineSymbol[], depth = 0): string[] {
 *   return symbols.flatMap((symbol) => [
 *     `${"  ".repeat(depth)}${symbol.kind} ${symbol.name} ${symbol.startLine}-${symbol.endLine}`,
 *     ...tree(symbol.children, depth + 1),
 *   ]);
 * }
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.py`, "class A:\n    def f(self):\n        pass\n");
 * const { symbols } = await outlineSymbols("a.py", { cwd });
 * assert.deepEqual(tree(symbols), ["class A 1-3", "  method f 2-3"]);
 * ```
 */
export interface OutlineSymbol {
  /** The label, e.g. `function`, `class`, `property`, `func`, `heading`. */
  kind: string;
  /** The symbol's name as written. */
  name: string;
  /** First line. */
  startLine: number;
  /** Last line. */
  endLine: number;
  /** The first meaningful line of the doc comment (or Python docstring), if any. */
  doc?: string;
  /** Members: methods, fields, properties, nested declarations. */
  children: OutlineSymbol[];
}

/**
 * The structured outline of one file.
 *
 * A type only: needs no permission (outlining requires `--allow-read`).
 *
 * @example Count a file's top-level symbols
 * ```ts
 * import { type OutlineResult, outlineSymbols } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.ts`, "export function f() {}\nexport class C {}\n");
 * const outline: OutlineResult = await outlineSymbols("a.ts", { cwd });
 * assert.equal(`${outline.language}: ${outline.symbols.length} symbols in ${outline.totalLines} lines`, "TypeScript: 2 symbols in 2 lines");
 * ```
 */
export interface OutlineResult {
  /** The language's display name, e.g. `TypeScript`. */
  language: string;
  /** Line count as ReadFile counts it (a final newline does not start a line). */
  totalLines: number;
  /** Top-level symbols. */
  symbols: OutlineSymbol[];
  /**
   * Symbols counted but not listed, past the cap: the caller's `maxSymbols`
   * or 200,000 (set only when some were left out).
   */
  omitted?: number;
}

/**
 * One syntax error the grammar found: an ERROR node (text it could not
 * place) or a MISSING node (a token it had to assume). Lines and columns are
 * 1-based; a column counts UTF-16 code units from the start of the line (a
 * tab is one, a byte order mark none).
 *
 * A type only: needs no permission.
 *
 * @example Show an error under its line, as the edit tools do
 * ```ts
 * import type { SyntaxErrorInfo } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const error: SyntaxErrorInfo = { line: 1, column: 12, source: "const x = (1;", caret: 11, missing: ")" };
 * const caret = " ".repeat(error.caret) + "^";
 * assert.equal(`${error.line}:${error.column}: missing "${error.missing}"\n${error.source}\n${caret}`,
 *   '1:12: missing ")"\nconst x = (1;\n           ^');
 * ```
 */
export interface SyntaxErrorInfo {
  /** The line of the error's start. */
  line: number;
  /** The column of the error's start. */
  column: number;
  /** For a MISSING node: what the grammar expected there (`)`, `;`, `identifier`). */
  missing?: string;
  /** For an ERROR node: the start of the text it could not place (on its first line). */
  unexpected?: string;
  /**
   * The source line, without its line ending; a long line is cut around the
   * column (`…` marks a cut).
   */
  source: string;
  /** Where in `source` the error starts (0-based): the caret's place. */
  caret: number;
}
