// Annotations on the line after a class's name, before its primary
// constructor (`class A` / `@Inject constructor(b: B)`): grammar
// @tree-sitter-grammars/tree-sitter-kotlin@1.1.0 loses the rest of the file.
// Blanked, they cost nothing. It can go when "kotlin.extract() outlines a
// class whose primary constructor is annotated on its own line" passes with
// it left out of REPAIRS (kotlin.ts).
import type { KotlinRepair } from "./_repair.ts";

// Annotations (`@JvmOverloads`, `@Inject`, `@ReactModule(name = X)`) that
// start the line after `class Name ...`, up to `[visibility] constructor`.
// Each part matches one way only (whitespace only between annotations), so a
// failed match backtracks in linear time.
const CONSTRUCTOR_ANNOTATIONS =
  /(?<=\bclass[ \t]+[^\n{}=]*\n)[ \t]*(?:@[\w.:]+(?:\((?:[^()]|\([^()]*\))*\))?\s*)+(?=(?:(?:public|private|protected|internal)\s+)?constructor\b)/g;

/**
 * Replaces with spaces (newlines kept) the annotations between a class's
 * name and its primary constructor when they start a line.
 */
export function blankConstructorAnnotations(text: string): string {
  return text.replace(
    CONSTRUCTOR_ANNOTATIONS,
    (annotations) => annotations.replace(/[^\n]/g, " "),
  );
}

/** Blanks annotations before a primary constructor that starts a line. */
export const constructorAnnotations: KotlinRepair = (text) => ({
  text: blankConstructorAnnotations(text),
});
