// The identifiers a parsed file uses, for the repo map's references: every
// node whose type names an identifier in any of the grammars (`identifier`,
// `type_identifier`, `property_identifier`, `simple_identifier`,
// `field_identifier`...), each name once.
import type { Language, Tree } from "web-tree-sitter";

const IDENTIFIER = /identifier$/;

/** Per grammar, the node types that name an identifier. */
const identifierTypes = new WeakMap<Language, string[]>();

function typesOf(language: Language): string[] {
  let types = identifierTypes.get(language);
  if (types === undefined) {
    types = [];
    for (let id = 0; id < language.nodeTypeCount; id++) {
      const type = language.nodeTypeForId(id);
      if (type !== null && IDENTIFIER.test(type) && !types.includes(type)) {
        types.push(type);
      }
    }
    identifierTypes.set(language, types);
  }
  return types;
}

/** Names shorter than this are too common to tell files apart. */
const MIN_LENGTH = 2;

/** The distinct identifier names in `tree`, in order of first use. */
export function identifiersOf(tree: Tree): string[] {
  const names = new Set<string>();
  // One call walks the whole tree inside WASM: a walk by cursor from here
  // crosses into WASM several times for every node of the file.
  for (const node of tree.rootNode.descendantsOfType(typesOf(tree.language))) {
    const text = node.text;
    if (text.length >= MIN_LENGTH) names.add(text);
  }
  return [...names];
}
