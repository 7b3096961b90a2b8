// `abstract final bool isAndroid;` and `external final int f;`: the Dart
// grammar of @repomix/tree-sitter-wasms@0.1.17 does not know abstract
// instance variables (Dart 2.12) nor external final ones, and reads the
// declaration as an error. `abstract`, or `final` after `external`, is
// blanked (same length), leaving a field declaration the grammar reads. It can go when the test beside this
// file passes with blankAbstractFields out of dart.ts's REPAIRS.

// Inside a class body only a variable can be `abstract` (an indented line;
// `abstract class` and its modifiers stay); after `external`, the grammar
// reads a variable without its `final`.
const FIELD_WORDS =
  /^([ \t]+)abstract(?=[ \t]+(?!(?:(?:base|interface|final|sealed|mixin)[ \t]+)*class\b)[\w(])|(?<=^[ \t]+external[ \t]+(?:static[ \t]+)?)final\b/gm;

/** The text with `abstract` and `external final` blanked where they declare fields the grammar misreads. */
export function blankAbstractFields(source: string): string {
  if (!source.includes("abstract") && !source.includes("external")) {
    return source;
  }
  return source.replace(
    FIELD_WORDS,
    (words, indent: string | undefined) =>
      (indent ?? "") + " ".repeat(words.length - (indent ?? "").length),
  );
}
