// `library;`, Dart 2.19's library directive without a name: the Dart grammar
// of @repomix/tree-sitter-wasms@0.1.17 wants a name there and reports a
// missing identifier, so a valid file would be refused by the edit tools'
// syntax check. The directive is blanked (same length): the outline does not
// list it, and annotations before it still parse, as they would before the
// next directive or declaration. It can go when the test beside this file
// passes with blankUnnamedLibrary out of dart.ts's REPAIRS.

// At a line's start, so never after code or `//` on the same line.
const UNNAMED_LIBRARY = /^([ \t]*)library[ \t]*;/gm;

/** The text with each unnamed `library;` directive blanked. */
export function blankUnnamedLibrary(source: string): string {
  if (!source.includes("library")) return source;
  return source.replace(
    UNNAMED_LIBRARY,
    (directive) => " ".repeat(directive.length),
  );
}
