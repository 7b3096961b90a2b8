// A nested class's primary `constructor(` on the line after its name
// (`  class B` / `  internal constructor(x: X) {`): grammar
// @tree-sitter-grammars/tree-sitter-kotlin@1.1.0 reads a member `constructor`
// and loses the body. The line break moves after the `(`. It can go when
// "kotlin.extract() keeps a nested class whose internal constructor starts
// the next line" passes with it left out of REPAIRS (kotlin.ts).
import type { Node } from "web-tree-sitter";
import type { KotlinRepair } from "./_repair.ts";
import { blankConstructorAnnotations } from "./constructor_annotations_kotlin_1_1_0.ts";

// A class head (`private data class Page<T>`, annotations allowed before it)
// ending its line, then the lines up to `[visibility] constructor(`. The head
// must start its line, so `// the class` in a comment above a secondary
// constructor is not joined to it.
const CONSTRUCTOR_ON_NEXT_LINE =
  /^([ \t]*(?:[@\w.]+(?:\([^()\n]*\))?[ \t]+)*class[ \t]+[^\r\n{}=/]*)(\r?\n\s*)((?:(?:public|private|protected|internal)[ \t]+)?constructor[ \t]*\()/gm;

/**
 * Moves the line breaks between a class's head and its primary
 * `constructor(` to just after the `(`: inside a class body the grammar
 * (1.1.0) reads a constructor that starts a line as a member of its own and
 * loses the rest of the body. Lines are kept, so symbols keep their lines.
 */
export function joinConstructorLines(text: string): string {
  if (!text.includes("constructor")) return text;
  return text.replace(
    CONSTRUCTOR_ON_NEXT_LINE,
    (_match, head: string, between: string, constructor: string) =>
      `${head} ${constructor}${between.replace(/[^\r\n]/g, "")}`,
  );
}

// Annotations between (`@Inject internal constructor`) as the repair
// blanks them. Only a nested (indented) class counts: at the top level the
// grammar reads the split head, and the Dagger style (`class Foo` /
// `@Inject constructor(...)`) would cost every such file a second parse.
function hasConstructorOnNextLine(text: string): boolean {
  if (!text.includes("constructor")) return false;
  for (
    const match of blankConstructorAnnotations(text).matchAll(
      CONSTRUCTOR_ON_NEXT_LINE,
    )
  ) {
    if (match[1].startsWith(" ") || match[1].startsWith("\t")) return true;
  }
  return false;
}

/**
 * Joins a class head and its primary constructor; needed (the first parse
 * shows no error) when a nested class's constructor starts the next line.
 */
export const constructorOnNextLine: KotlinRepair = Object.assign(
  (text: string) => ({ text: joinConstructorLines(text) }),
  {
    needed: (root: Node) => hasConstructorOnNextLine(root.text),
    evenOnTie: true,
  },
);
