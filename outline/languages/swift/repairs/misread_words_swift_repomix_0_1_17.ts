// `if let r = try? a.b {` and `nonisolated(unsafe) var x`: the Swift grammar
// of @repomix/tree-sitter-wasms@0.1.17 reads a call to the end of the file, or
// loses the property. The words are blanked. It can go when the swift_test.ts
// tests pass with blankMisreadWords out of swift.ts's REPAIRS.

// Words the grammar misreads, blanked (same length) where they stand:
// - `try?`, `try!`, `try`, `await` after `let x =` (`if let r = try? a.b {`
//   read `a.b { ... }` as a call with a trailing closure to the end of the
//   file); dropped, the binding parses as Swift means it;
// - `(unsafe)` after `nonisolated`, Swift 6's `nonisolated(unsafe) var`,
//   read as a tuple pattern that lost the property.
const MISREAD_WORDS =
  /(?<=\b(?:let|var)[ \t]+\w+[ \t]*=[ \t]*)(?:(?:try[?!]?|await)[ \t]+)+|(?<=\bnonisolated)\(unsafe\)/g;

/** The text with the words the grammar misreads blanked (not in comments). */
export function blankMisreadWords(source: string): string {
  // Not in comments: a doc is read from this text too. What the current
  // line holds is found once per line (the matches come in order).
  let lineEnd = -1;
  let commentFrom = 0;
  return source.replace(MISREAD_WORDS, (words, offset: number) => {
    if (offset > lineEnd) {
      const lineStart = source.lastIndexOf("\n", offset - 1) + 1;
      lineEnd = source.indexOf("\n", offset);
      if (lineEnd < 0) lineEnd = source.length;
      const line = source.slice(lineStart, lineEnd);
      const first = line.trimStart();
      const slashes = line.indexOf("//");
      commentFrom = first.startsWith("*") || first.startsWith("/*")
        ? lineStart
        : slashes >= 0
        ? lineStart + slashes
        : lineEnd;
    }
    return offset >= commentFrom ? words : " ".repeat(words.length);
  });
}
