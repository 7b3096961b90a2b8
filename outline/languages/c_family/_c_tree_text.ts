// The parsed text of a C or C++ tree, read by offset. Each `.text` or
// `endPosition` of web-tree-sitter is a call into WASM with its arguments
// copied in and out, and a large file's outline makes tens of thousands of
// them: most of its time in a fresh worker, before V8 optimizes any of it.
// Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import { CARRIAGE_RETURN, opensLineAt, parsedText } from "../_tree_text.ts";

/**
 * The text the tree was parsed from (the prepared text, not the file's), for
 * a tree without syntax errors: there every token is what the grammar's
 * lexical rules make of the text (no MISSING token stands in for one), which
 * the readers below rely on. Each answers exactly what web-tree-sitter would.
 */
export class CTreeText {
  #text: string;
  // The offset of `#text` in the parsed text (the root starts at its first
  // token). Tree-sitter's indexes count UTF-16 code units for a string input.
  #base: number;

  private constructor(text: string, base: number) {
    this.#text = text;
    this.#base = base;
  }

  /**
   * The text of `root`'s tree, or undefined when the tree has errors (or its
   * text is not the string it was parsed from).
   */
  static of(root: Node): CTreeText | undefined {
    const parsed = parsedText(root);
    return parsed && new CTreeText(parsed.text, parsed.base);
  }

  /**
   * The text of an identifier token (`identifier` and its aliases, or a
   * `primitive_type`): the run of word characters at its start. The grammar's
   * identifier rule takes the longest run, so the token ends where ASCII word
   * characters do, unless `$`, a `\u` escape or a non-ASCII letter goes on:
   * then WASM is asked.
   */
  word(node: Node): string {
    const text = this.#text;
    const start = node.startIndex - this.#base;
    // A sticky pattern finds the run's end in one call; a loop over its
    // characters runs interpreted in a fresh worker.
    WORD_RUN.lastIndex = start;
    WORD_RUN.test(text);
    const end = WORD_RUN.lastIndex;
    const next = end < text.length ? text.charCodeAt(end) : 0;
    if (end === start || next === DOLLAR || next === BACKSLASH || next > 127) {
      return node.text;
    }
    return text.slice(start, end);
  }

  /**
   * The word a function declarator starts with when the text shows that the
   * word is all of its own declarator: a plain word, then its parameter
   * list with no parenthesis, literal, comment or directive inside, then the
   * function's body (`f(int a, char *b) {`). A nested declarator (`f(a)(b)`)
   * or anything after the list (`const`, `: x(1)`, `-> T`) goes through WASM.
   */
  plainFunctionWord(declarator: Node): string | undefined {
    PLAIN_FUNCTION_HEAD.lastIndex = declarator.startIndex - this.#base;
    const match = PLAIN_FUNCTION_HEAD.exec(this.#text);
    // `operator()(...)` starts with a word too.
    return match === null || match[1] === "operator" ? undefined : match[1];
  }

  /**
   * The text of a comment node. The grammar's comment token is `/*` to the
   * first `*\/`, or `//` to the line's end, where a line ending in a
   * backslash goes on to the next.
   */
  comment(node: Node): string {
    const text = this.#text;
    const start = node.startIndex - this.#base;
    if (text.startsWith("/*", start)) {
      const close = text.indexOf("*/", start + 2);
      if (close !== -1) return text.slice(start, close + 2);
    } else if (text.startsWith("//", start)) {
      return text.slice(start, _lineCommentEnd(text, start));
    }
    return node.text;
  }

  /** Whether `char` stands between the starts of `from` and `to`. */
  holds(char: string, from: Node, to: Node): boolean {
    const text = this.#text;
    const code = char.charCodeAt(0);
    // Not indexOf(): the next such character may be far beyond `to`.
    const end = to.startIndex - this.#base;
    for (let at = from.startIndex - this.#base; at < end; at++) {
      if (text.charCodeAt(at) === code) return true;
    }
    return false;
  }

  /**
   * Whether only spaces and tabs stand before `node` on its line, so that no
   * sibling before it ends there.
   */
  opensLine(node: Node): boolean {
    return opensLineAt(this.#text, node.startIndex - this.#base);
  }
}

/**
 * A word, a parameter list with no parenthesis, quote, comment, backslash
 * or `#` inside, and a body's `{`. The word is all of an ASCII word: what
 * follows it is white space or `(`.
 */
const PLAIN_FUNCTION_HEAD =
  /([A-Za-z_][A-Za-z0-9_]*)[ \t\r\n]*\([^()"'\/\\#]*\)[ \t\r\n]*\{/y;
/** A run of ASCII word characters, maybe empty. */
const WORD_RUN = /[A-Za-z0-9_]*/y;
const DOLLAR = 36;
const BACKSLASH = 92;

// Where a `//` comment starting at `start` ends: at a line break, unless a
// backslash comes right before it (`\\+(.|\r?\n)` in the grammar's rule).
function _lineCommentEnd(text: string, start: number): number {
  let from = start;
  for (;;) {
    const end = text.indexOf("\n", from);
    if (end === -1) return text.length;
    let last = end - 1;
    if (last > start && text.charCodeAt(last) === CARRIAGE_RETURN) last--;
    if (last <= start + 1 || text.charCodeAt(last) !== BACKSLASH) return end;
    from = end + 1;
  }
}
