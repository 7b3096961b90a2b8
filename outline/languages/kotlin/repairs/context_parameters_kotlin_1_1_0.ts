// Kotlin 2.2's context parameters (`context(logger: Logger)` above `fun
// log()`): grammar @tree-sitter-grammars/tree-sitter-kotlin@1.1.0 does not
// know them and loses the declaration. Read as an annotation of the same
// length instead. It can go when "the Kotlin grammar still misreads context
// parameters" fails.
import type { KotlinRepair } from "./_repair.ts";

// `context(` starting a line, its list on that line, then a declaration on
// the same line or the next: `context(logger: Logger)` `fun f()`.
const CONTEXT =
  /^([ \t]*)context\(([^()\n]*(?:\([^()\n]*\)[^()\n]*)*)\)(?=[ \t]*(?:\r?\n[ \t]*)?[@\w])/gm;

/**
 * Rewrites a context parameter list that starts a line (`context(a: A)`,
 * Kotlin 2.2) as an annotation with blank arguments (`@ontext(    )`), so
 * the declaration below is read with it, as with an annotation.
 *
 * @example
 * ```ts
 * contextAsAnnotation("context(a: A)\nfun f() {}\n"); // "@ontext(    )\nfun f() {}\n"
 * ```
 */
export function contextAsAnnotation(text: string): string {
  if (!text.includes("context(")) return text;
  return text.replace(
    CONTEXT,
    (_list, indent: string, parameters: string) =>
      `${indent}@ontext(${" ".repeat(parameters.length)})`,
  );
}

/** Reads context parameter lists as annotations before the parse. */
export const contextParameters: KotlinRepair = (text) => ({
  text: contextAsAnnotation(text),
});
