// A class that delegates an interface (`class A : I by d {`) at the end of
// the file: grammar @tree-sitter-grammars/tree-sitter-kotlin@1.1.0 reads `d {
// ... }` as a call and the class has no body. A `;` on a line of its own
// after the text ends it. It can go when the Kotlin outline tests pass with
// it left out of REPAIRS (kotlin.ts).
import type { Node } from "web-tree-sitter";
import type { KotlinRepair } from "./_repair.ts";

// The file ends with a class that delegates an interface and, to the
// grammar, has no body (see below).
function endsInDelegation(root: Node): boolean {
  const last = root.lastNamedChild;
  return last?.type === "class_declaration" &&
    !last.namedChildren.some((child) => child.type === "class_body") &&
    / by /.test(last.text);
}

/** Adds a `;` line after the text; needed when the file ends so. */
export const trailingDelegation: KotlinRepair = Object.assign(
  (text: string) => ({ text: `${text}\n;` }),
  { needed: endsInDelegation },
);
