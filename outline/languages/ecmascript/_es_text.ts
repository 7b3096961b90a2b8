// The parsed text of a TS/TSX/JS tree, read by offset: each `.text`,
// `childForFieldName` or `endPosition` of web-tree-sitter is a call into WASM
// with its arguments copied in and out, and an outline of a large file makes
// tens of thousands of them (most of its time in a fresh worker, before V8
// optimizes any of it). Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import { countChar } from "../../../internal/count_char.ts";

import type { SiblingReader } from "../_nodes.ts";
import {
  CARRIAGE_RETURN,
  LINE_FEED,
  opensLineAt,
  parsedText,
  SPACE,
  TAB,
} from "../_tree_text.ts";

/**
 * A name at the start of a member, after any words on its line
 * (`readonly`, `static`, `get`: a name is never followed by a word, so those
 * are modifiers): ASCII identifier characters, then (past spaces or tabs) a
 * sign no modifier is followed by and no identifier holds (`foo: T`,
 * `readonly foo?: T`, `foo(x)`, `get foo<T>()`, `static foo = 1`, `foo;`).
 */
const LEADING_NAME =
  /(?:[A-Za-z_$][\w$]*[ \t]+)*([A-Za-z_$][\w$]*)(?=[ \t]*[?:(<=;])/y;

/** A keyword: letters up to a character no identifier holds. */
const LEADING_WORD = /[a-z]+(?![\w$\\\u0080-\uffff])/y;

/**
 * The name after a declaration's keyword (`interface Foo {`, `type Foo<T> =`,
 * `abstract class Foo extends`, `const enum Foo`, `async function foo(`,
 * `namespace Foo {`), when what comes next, past spaces, tabs and line
 * breaks, is a sign that opens what follows a name, or a word (`extends`).
 * Not a `.` nor a comment, nor other white space before one: a qualified
 * name goes on there (`namespace A .B`, `A\u00a0.B`), and its text holds all.
 */
const DECLARATION_NAME =
  /(?:(?:async|const|abstract)[ \t]+)?(?:interface|type|enum|class|function|namespace|module)[ \t]+([A-Za-z_$][\w$]*)(?=[ \t\r\n]*[<{=(;A-Za-z])/y;

// The declarations that open with such a keyword and always have a name
// there (an anonymous `class extends X {}` is a `class`, not among them).
const NAMED_DECLARATIONS = new Set([
  "interface_declaration",
  "type_alias_declaration",
  "enum_declaration",
  "class_declaration",
  "abstract_class_declaration",
  "function_declaration",
  "function_signature",
  "internal_module",
  "module",
]);

/**
 * The text of `root`'s tree, or undefined when the tree has errors (or its
 * text is not the string it was parsed from).
 */
export function treeText(root: Node): TreeText | undefined {
  const parsed = parsedText(root);
  return parsed && new TreeText(parsed.text, parsed.base);
}

/**
 * The text the tree was parsed from (after prepareTypeScript(): the tree's
 * own text, not the file's), for a tree without syntax errors: there every
 * token is what the grammar's lexical rules say, which the readers below
 * rely on. Each reader answers exactly what web-tree-sitter would.
 */
export class TreeText implements SiblingReader {
  #text: string;
  // The offset of `#text` in the parsed text (the root starts at its first
  // token).
  #base: number;

  /** The text of a tree from the root's offset `base` on (see treeText()). */
  constructor(text: string, base: number) {
    this.#text = text;
    this.#base = base;
  }

  /**
   * The name on a member declaration's first line, when only words come
   * before it (see LEADING_NAME), else undefined. For the members of a type
   * or a class (property, method and field nodes) and a variable declarator
   * this is the text of its `name` field, or of its `property` field in the
   * JavaScript grammar: the name's token ends at the sign, and no modifier
   * is followed by one.
   */
  leadingName(member: Node): string | undefined {
    LEADING_NAME.lastIndex = member.startIndex - this.#base;
    return LEADING_NAME.exec(this.#text)?.[1];
  }

  /**
   * The `name` field's text of a declaration of `type` (as read from the
   * tree) when a plain name follows its keyword (see DECLARATION_NAME), else
   * undefined. A decorated class starts with `@` and is read from the tree.
   */
  declarationName(node: Node, type: string): string | undefined {
    if (!NAMED_DECLARATIONS.has(type)) return undefined;
    DECLARATION_NAME.lastIndex = node.startIndex - this.#base;
    return DECLARATION_NAME.exec(this.#text)?.[1];
  }

  /**
   * The word `node` starts with (`let`, `const`), or undefined when it starts
   * with no ASCII letter.
   */
  leadingWord(node: Node): string | undefined {
    LEADING_WORD.lastIndex = node.startIndex - this.#base;
    return LEADING_WORD.exec(this.#text)?.[0];
  }

  /**
   * The text of a comment node. The grammars' comment token is `//` to the
   * line's end, or `/*` to the first `*\/`; another comment type (an
   * `html_comment`) is read through WASM.
   */
  commentText(comment: Node): string {
    const text = this.#text;
    const start = comment.startIndex - this.#base;
    if (text.startsWith("//", start)) {
      return text.slice(start, _lineEnd(text, start));
    }
    if (text.startsWith("/*", start)) {
      const close = text.indexOf("*/", start + 2);
      if (close !== -1) return text.slice(start, close + 2);
    }
    return comment.text;
  }

  /**
   * The types of named `siblings` (statements or members, with the comments
   * between them), with "comment" for a node whose text opens with `//` or
   * `/*` and each other one's type read from the tree. No statement or
   * member starts with those: it starts at its first token, and a comment
   * before that token is its sibling (only a string's fragment may, which is
   * no statement).
   */
  types(siblings: readonly Node[]): string[] {
    const text = this.#text;
    const types = new Array<string>(siblings.length);
    for (let i = 0; i < siblings.length; i++) {
      const node = siblings[i];
      const start = node.startIndex - this.#base;
      types[i] = text.charCodeAt(start) === SLASH &&
          (text.charCodeAt(start + 1) === SLASH ||
            text.charCodeAt(start + 1) === ASTERISK)
        ? "comment"
        : node.type;
    }
    return types;
  }

  /**
   * The 1-based last line of a member of a body (an interface's, a class's),
   * read from the text before `next`, the named sibling after it: only
   * whitespace and separators (`;`, `,`) stand between the two, and the
   * member ends with its last printable character. Undefined when a
   * character there is not plain ASCII (other whitespace could hide a line
   * break).
   */
  endLineBefore(member: Node, next: Node): number | undefined {
    const text = this.#text;
    const stop = next.startIndex - this.#base;
    let at = stop - 1;
    for (; at >= 0; at--) {
      const char = text.charCodeAt(at);
      if (
        char !== SPACE && char !== TAB && char !== LINE_FEED &&
        char !== CARRIAGE_RETURN && char !== SEMICOLON && char !== COMMA
      ) break;
    }
    const last = text.charCodeAt(at);
    if (at < member.startIndex - this.#base || last <= SPACE || last >= 127) {
      return undefined;
    }
    // The member ends after `last`, not at a line's start: its row is the
    // next one's, less the line breaks between, and endLine() adds one.
    return next.startPosition.row - countChar(text, "\n", at + 1, stop) + 1;
  }

  /**
   * Whether `node` surely ends with code, not with a comment (one call into
   * WASM, for its end): no `/` on its last line. A comment's last line holds
   * one (`//` on it, or the closing `*\/`).
   */
  endsInCode(node: Node): boolean {
    const text = this.#text;
    const end = node.endIndex - this.#base;
    const start = Math.max(
      node.startIndex - this.#base,
      text.lastIndexOf("\n", end - 1) + 1,
    );
    return !text.slice(start, end).includes("/");
  }

  /**
   * Whether only spaces and tabs stand before `node` on its line, so no
   * sibling before it ends on that line.
   */
  opensLine(node: Node): boolean {
    return opensLineAt(this.#text, node.startIndex - this.#base);
  }
}

const SLASH = 47;
const ASTERISK = 42;
const SEMICOLON = 59;
const COMMA = 44;
// What ends a line comment besides "\n" (the comment token's own rule).
const OTHER_LINE_END = /[\r\u2028\u2029]/;

// Where a line comment starting at `start` ends.
function _lineEnd(text: string, start: number): number {
  let end = text.indexOf("\n", start);
  if (end === -1) end = text.length;
  const cut = text.slice(start, end).search(OTHER_LINE_END);
  return cut === -1 ? end : start + cut;
}
