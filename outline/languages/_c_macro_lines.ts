// A macro alone on the line above a declaration (`_GLIBCXX20_CONSTEXPR`,
// `V8_WARN_UNUSED_RESULT`, `MY_API_EXPORT`) is blanked before the parse (see
// _c_macros.ts), which leaves a blank line between the declaration and its
// doc comment. Read from the original text, such lines are given back to the
// declaration below them, with the comment above them as its doc.
import type { OutlineSymbol } from "../types.ts";
import { MACRO_SPELLING } from "./_c_macros.ts";
import { commentEndingAt } from "./_nodes.ts";

/** A line holding only macro words (with their arguments). */
const MACRO_LINE = new RegExp(
  `^[ \\t]*(?:${MACRO_SPELLING}\\b(?:[ \\t]*\\([^()\\n]*\\))?[ \\t]*)+\\r?$`,
);

/**
 * Mode macros (`_GLIBCXX_BEGIN_NAMESPACE_VERSION`, `FMT_END_NAMESPACE`),
 * member lists (`UV_REQ_FIELDS`, `Q_OBJECT`) and declaring macros
 * (`DECLARE_ASN1_FUNCTIONS(X509)`), which declare something of their own:
 * they belong to no declaration.
 */
const UNATTACHED =
  /BEGIN|END|(?:FIELDS|MEMBERS|HEAD|OBJECT|GADGET)_*\b|^\s*(?:DECLARE|DEFINE|IMPLEMENT)_/;

function attached(line: string): boolean {
  return MACRO_LINE.test(line) && !UNATTACHED.test(line);
}

/**
 * Starts each symbol (members included) at the macro-only lines right above
 * it, and gives one without a doc the comment above those lines.
 */
export function liftOverMacroLines(
  symbols: OutlineSymbol[],
  source: string,
): OutlineSymbol[] {
  let lines: string[] | undefined;
  const visit = (list: OutlineSymbol[]) => {
    for (const symbol of list) {
      lines ??= source.split("\n");
      let above = symbol.startLine - 2; // 0-based index of the line above
      while (above >= 0 && attached(lines[above])) above--;
      if (above < symbol.startLine - 2) {
        symbol.startLine = above + 2;
        // C and C++ take any comment right above as the doc.
        symbol.doc ??= commentEndingAt(lines, above, () => true);
      }
      visit(symbol.children);
    }
  };
  visit(symbols);
  return symbols;
}
