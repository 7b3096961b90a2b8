// An import type followed by type arguments or `[]` (`import("./x").Name<T>`):
// tree-sitter-typescript@0.23.2 (TypeScript and TSX) gives a syntax error.
// Written as a name of the same length. It can go when the TypeScript outline
// tests pass with blankImportTypes out of _ts_text.ts's REPAIRS.
import { commentTest } from "./_comments.ts";

/**
 * An import type, `import("./types.js")`, where type arguments or `[]`
 * follow it (`import("./x").Name<T>` is an error to the grammar): written as
 * a plain name of the same length, it reads as a qualified type name, and
 * `await import("x")` as a name. Not a method (`.import(`) or a name ending
 * in `import`; on one line only (a call over several lines is an expression,
 * which the grammar reads), and not in a comment (a doc is read from this
 * text).
 */
const IMPORT_TYPE =
  /(?<![\w$.])import[ \t]*\([ \t]*(["'])[^"'\n\\]*\1[ \t]*\)/g;

/** The text with its import types written as names, not in comments. */
export function blankImportTypes(text: string): string {
  if (!text.includes("import(") && !text.includes("import (")) return text;
  const inComment = commentTest(text);
  return text.replace(
    IMPORT_TYPE,
    (match, _quote, offset: number) =>
      inComment(offset) ? match : "_".repeat(match.length),
  );
}
