// The other half of declaration_macros_c_0_24_1_cpp_0_23_4.ts (tree-sitter-c
// @0.24.1, tree-sitter-cpp@0.23.4): a macro line it blanked above a
// declaration is given back to it, with its doc. It goes with that repair.
//
// A macro alone on the line above a declaration (`_GLIBCXX20_CONSTEXPR`,
// `V8_WARN_UNUSED_RESULT`, `MY_API_EXPORT`) is blanked before the parse,
// which leaves a blank line between the declaration and its doc comment. Read from the original text, such lines are given back to the
// declaration below them, with the comment above them as its doc.
import type { OutlineSymbol } from "../../../types.ts";
import { MACRO_SPELLING } from "./declaration_macros_c_0_24_1_cpp_0_23_4.ts";
import { commentEndingAt } from "../../_nodes.ts";

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
  let lines: _Lines | undefined;
  const visit = (list: OutlineSymbol[]) => {
    for (let i = 0; i < list.length; i++) {
      const symbol = list[i];
      lines ??= new _Lines(source);
      let above = symbol.startLine - 2; // 0-based index of the line above
      while (above >= 0 && lines.attached(above)) above--;
      if (above < symbol.startLine - 2) {
        symbol.startLine = above + 2;
        // C and C++ take any comment right above as the doc.
        symbol.doc ??= commentEndingAt(lines.all(), above, () => true);
      }
      visit(symbol.children);
    }
  };
  visit(symbols);
  return symbols;
}

/**
 * The lines of the source, read through a cursor that moves from line to
 * line: symbols come in the order of their lines, so the cursor goes over
 * the source about once, and the line above nearly every symbol is no macro
 * line, which its first character shows. The source is split into strings
 * only when a symbol is lifted (a large file has tens of thousands of lines,
 * and a fresh worker runs this before V8 optimizes it: a table of every
 * line's start took twice as long as the walk).
 */
class _Lines {
  #source: string;
  /** The cursor: line `#line` (0-based) starts at `#start`. */
  #line = 0;
  #start = 0;
  #all: string[] | undefined;

  constructor(source: string) {
    this.#source = source;
  }

  /** Whether line `index` (0-based) holds only macros that attach below. */
  attached(index: number): boolean {
    if (!this.#moveTo(index)) return false;
    const source = this.#source;
    const start = this.#start;
    let first = start;
    for (let char = source.charCodeAt(first); char === 32 || char === 9;) {
      char = source.charCodeAt(++first);
    }
    // A macro's spelling starts with `_` or a capital.
    const char = source.charCodeAt(first);
    if (char !== 95 && (char < 65 || char > 90)) return false;
    const end = source.indexOf("\n", start);
    return attached(source.slice(start, end === -1 ? source.length : end));
  }

  /** Every line, as `source.split("\n")` gives them. */
  all(): string[] {
    return this.#all ??= this.#source.split("\n");
  }

  // Moves the cursor to line `index`; false when the source has no such line.
  #moveTo(index: number): boolean {
    const source = this.#source;
    while (this.#line < index) {
      const end = source.indexOf("\n", this.#start);
      if (end === -1) return false;
      this.#start = end + 1;
      this.#line++;
    }
    while (this.#line > index) {
      // The line before starts after the line break before its own.
      this.#start = this.#start >= 2
        ? source.lastIndexOf("\n", this.#start - 2) + 1
        : 0;
      this.#line--;
    }
    return true;
  }
}
