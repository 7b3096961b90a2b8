// The identifiers a parsed file uses, for the repo map's references: every
// leaf whose node type names an identifier in any of the grammars
// (`identifier`, `type_identifier`, `property_identifier`,
// `simple_identifier`, `field_identifier`...), each name once.
import type { Tree } from "web-tree-sitter";

const IDENTIFIER = /identifier$/;

/** Names shorter than this are too common to tell files apart. */
const MIN_LENGTH = 2;

/** The distinct identifier names in `tree`, in order of first use. */
export function identifiersOf(tree: Tree): string[] {
  const names = new Set<string>();
  const cursor = tree.walk();
  try {
    // Depth first: each node once, on arrival.
    while (true) {
      if (IDENTIFIER.test(cursor.nodeType)) {
        const text = cursor.nodeText;
        if (text.length >= MIN_LENGTH) names.add(text);
      }
      if (cursor.gotoFirstChild() || cursor.gotoNextSibling()) continue;
      do {
        if (!cursor.gotoParent()) return [...names];
      } while (!cursor.gotoNextSibling());
    }
  } finally {
    cursor.delete();
  }
}
