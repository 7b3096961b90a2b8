/**
 * Public types of the outline engine.
 *
 * @module
 */

/** One symbol of a file outline. Lines are 1-based and inclusive. */
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

/** The structured outline of one file. */
export interface OutlineResult {
  /** The language's display name, e.g. `TypeScript`. */
  language: string;
  /** Line count as ReadFile counts it (a final newline does not start a line). */
  totalLines: number;
  /** Top-level symbols. */
  symbols: OutlineSymbol[];
}
