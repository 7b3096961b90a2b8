// The identifiers a parsed file uses, for the repo map's references: every
// leaf whose node type names an identifier in any of the grammars
// (`identifier`, `type_identifier`, `property_identifier`,
// `simple_identifier`, `field_identifier`...), each name once.
import type { Language, Tree } from "web-tree-sitter";

const IDENTIFIER = /identifier$/;

/** Per grammar, the node type ids that name an identifier. */
const identifierTypes = new WeakMap<Language, Set<number>>();

// Comparing ids keeps the walk off the node type strings, which cost a
// decode from WASM memory per node.
function typesOf(language: Language): Set<number> {
  let ids = identifierTypes.get(language);
  if (ids === undefined) {
    ids = new Set();
    for (let id = 0; id < language.nodeTypeCount; id++) {
      const type = language.nodeTypeForId(id);
      if (type !== null && IDENTIFIER.test(type)) ids.add(id);
    }
    identifierTypes.set(language, ids);
  }
  return ids;
}

/** Names shorter than this are too common to tell files apart. */
const MIN_LENGTH = 2;

/** The distinct identifier names in `tree`, in order of first use. */
export function identifiersOf(tree: Tree): string[] {
  const names = new Set<string>();
  const wanted = typesOf(tree.language);
  const cursor = tree.walk();
  try {
    // Depth first: each node once, on arrival.
    while (true) {
      if (wanted.has(cursor.nodeTypeId)) {
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
