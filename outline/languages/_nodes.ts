// Tree helpers shared by the language extractors: line ranges, names, doc
// comments. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import { countChar } from "../../internal/count_char.ts";
import type { OutlineSymbol } from "../types.ts";

/** The 1-based first line of a node. */
export function startLine(node: Node): number {
  return node.startPosition.row + 1;
}

/**
 * The 1-based last line of a node. A node ending at column 0 (it swallowed
 * the newline) ends on the line before.
 */
export function endLine(node: Node): number {
  const end = node.endPosition;
  if (end.column === 0 && end.row > node.startPosition.row) return end.row;
  return end.row + 1;
}

/** Options for {@linkcode makeSymbol}. */
export interface SymbolOptions {
  /** The node whose start begins the range (e.g. an export statement or decorator); defaults to `node`. */
  from?: Node;
  /** The node whose end ends the range; defaults to `node`. */
  to?: Node;
  /** The last line, when the caller has it from elsewhere (saves a call into WASM). */
  endLine?: number;
  /** The doc summary. */
  doc?: string;
  /** Members. */
  children?: OutlineSymbol[];
}

/** Builds a symbol spanning `node` (or `from`..`to`). */
export function makeSymbol(
  kind: string,
  name: string,
  node: Node,
  options: SymbolOptions = {},
): OutlineSymbol {
  const symbol: OutlineSymbol = {
    kind,
    name,
    startLine: startLine(options.from ?? node),
    endLine: options.endLine ?? endLine(options.to ?? node),
    children: options.children ?? [],
  };
  if (options.doc !== undefined) symbol.doc = options.doc;
  return symbol;
}

/** The text of a field (default `name`), or undefined when the node has none. */
export function fieldText(node: Node, field = "name"): string | undefined {
  return node.childForFieldName(field)?.text;
}

/** Whether a node is a comment of any grammar (`comment`, `line_comment`, ...). */
export function isComment(node: Node): boolean {
  return node.type.includes("comment");
}

/**
 * Cheaper ways to read comment siblings that a language may offer (see
 * `_es_text.ts`): each answer must be exactly what the tree would give.
 */
export interface SiblingReader {
  /** The text of a comment node (its `.text`). */
  commentText(comment: Node): string;
  /**
   * True when nothing but indentation stands before `node` on its line (so no
   * sibling before it ends there); false when unsure.
   */
  opensLine(node: Node): boolean;
}

// The reader of any tree: everything through WASM.
const NODE_READER: SiblingReader = {
  commentText: (comment) => comment.text,
  opensLine: () => false,
};

/**
 * The texts of the comments directly above `node`, top down: consecutive
 * comment siblings with no blank line between them and the node, excluding a
 * trailing comment that shares its line with the code before it.
 *
 * Pass the named `siblings` array the caller iterates (and the node's `index`
 * in it) to avoid `previousSibling`, which tree-sitter answers by scanning the
 * parent's children from the start (quadratic over a large file).
 */
export function precedingComments(
  node: Node,
  siblings?: readonly Node[],
  index?: number,
  types?: readonly string[],
  reader: SiblingReader = NODE_READER,
): string[] {
  // Back through the caller's array when it gives one (with `types`, the
  // siblings' types read once, no comment check calls into WASM), else
  // through the tree. `at` is the index of `previous` in the array. No
  // closures: this runs for every symbol, mostly in a fresh worker.
  const array = index === undefined ? undefined : siblings;
  const known = array === undefined ? undefined : types;
  let at = (index ?? 0) - 1;
  let previous = _siblingAt(node, array, at);
  if (previous === null || !_isCommentAt(previous, known, at)) return [];
  const texts: string[] = [];
  let currentRow = node.startPosition.row;
  while (previous !== null && _isCommentAt(previous, known, at)) {
    // The end row from the text (rows are counted at "\n", as tree-sitter
    // counts them): one call into WASM fewer than `endPosition`, and the
    // text of a doc comment is needed anyway.
    const text = reader.commentText(previous);
    const startRow = previous.startPosition.row;
    if (startRow + countChar(text, "\n") < currentRow - 1) break;
    at--;
    const before = _siblingAt(previous, array, at);
    // A node that ends at column 0 (a preprocessor line takes its line
    // break) ends on the line above.
    if (
      before !== null && !_isCommentAt(before, known, at) &&
      !reader.opensLine(previous)
    ) {
      const end = before.endPosition;
      if (end.row === startRow && end.column > 0) break;
    }
    texts.push(text);
    currentRow = startRow;
    previous = before;
  }
  // Collected bottom up (push, then one reverse: unshift is quadratic in a
  // run of thousands of comment lines).
  return texts.reverse();
}

// The sibling before `node`: `siblings[at]` when walking an array (null
// before its start), else through the tree.
function _siblingAt(
  node: Node,
  siblings: readonly Node[] | undefined,
  at: number,
): Node | null {
  if (siblings === undefined) return node.previousSibling;
  return at >= 0 ? siblings[at] : null;
}

// Whether `node`, at `at` in an array of siblings whose `types` are known,
// is a comment.
function _isCommentAt(
  node: Node,
  types: readonly string[] | undefined,
  at: number,
): boolean {
  return types === undefined ? isComment(node) : types[at].includes("comment");
}

/** Options for {@linkcode docComment}. */
export interface DocCommentOptions {
  /**
   * Which comment texts count as documentation. Defaults to doc-comment
   * markers: `/**`, `///` and `//!`.
   */
  accept?: (text: string) => boolean;
  /** The named siblings the caller iterates, to look back without `previousSibling`. */
  siblings?: readonly Node[];
  /** The node's index in `siblings`. */
  index?: number;
  /** The types of `siblings` when the caller has read them already (saves WASM calls). */
  types?: readonly string[];
  /** Reads comments with fewer calls into WASM (see {@linkcode SiblingReader}). */
  reader?: SiblingReader;
  /**
   * Also take a `/**` block that one blank line parts from the node, unless
   * nothing but comments is above it (a file's license or overview): JSDoc's
   * rule, as TypeScript and editors read it. Then a file overview tagged
   * `@module`, `@file` or `@packageDocumentation` is never a doc, even right
   * above the node.
   */
  acrossBlankLine?: boolean;
}

function isDocMarker(text: string): boolean {
  return text.startsWith("/**") || text.startsWith("///") ||
    text.startsWith("//!");
}

/**
 * The first meaningful line of the doc comment right above `node`: the last
 * block comment, or the run of line comments ending just above it.
 */
export function docComment(
  node: Node,
  options: DocCommentOptions = {},
): string | undefined {
  const accept = options.accept ?? isDocMarker;
  const texts = precedingComments(
    node,
    options.siblings,
    options.index,
    options.types,
    options.reader,
  );
  // Lint directives between a doc and its declaration are not the doc.
  while (texts.length > 0 && isToolDirective(texts.at(-1)!)) texts.pop();
  if (texts.length === 0) {
    return options.acrossBlankLine
      ? _jsDocAcrossBlankLine(node, options)
      : undefined;
  }
  const last = texts[texts.length - 1];
  if (last.startsWith("/*")) {
    if (options.acrossBlankLine && isFileOverview(last)) {
      return undefined;
    }
    return accept(last) ? firstMeaningfulLine(last) : undefined;
  }
  let first = texts.length - 1;
  while (first > 0 && !texts[first - 1].startsWith("/*")) first--;
  if (!accept(texts[first])) return undefined;
  return firstMeaningfulLine(texts.slice(first).join("\n"));
}

// A `/**` block ending two rows above `node`, with code (not only comments,
// directives such as "use strict" or a `#!` line) somewhere above it, and no
// file overview (`@module`, `@file`, `@fileoverview`).
function _jsDocAcrossBlankLine(
  node: Node,
  { siblings, index, types, reader = NODE_READER }: DocCommentOptions,
): string | undefined {
  const at = siblings !== undefined && index !== undefined ? index - 1 : -1;
  const previous = at >= 0 ? siblings![at] : node.previousSibling;
  if (previous === null) return undefined;
  // The type from `types` when the caller read them: no call into WASM.
  const comment = at >= 0 && types !== undefined
    ? types[at].includes("comment")
    : isComment(previous);
  if (!comment) return undefined;
  const text = reader.commentText(previous);
  if (!text.startsWith("/**") || FILE_OVERVIEW.test(text)) return undefined;
  const endRow = previous.startPosition.row + countChar(text, "\n");
  if (endRow !== node.startPosition.row - 2) return undefined;
  if (node.parent?.type === "program") {
    let above = previous.previousSibling;
    while (above !== null && _isPrologue(above)) above = above.previousSibling;
    if (above === null) return undefined;
  }
  return firstMeaningfulLine(text);
}

const FILE_OVERVIEW = /@(?:module|file|fileoverview|overview|license)\b/;
/**
 * Whether a JSDoc is a file overview: a line of it opens with `@module`,
 * `@file`, `@fileoverview`, `@overview` or TSDoc's `@packageDocumentation`.
 * It is the file's doc, wherever it stands.
 */
export function isFileOverview(text: string): boolean {
  return text.includes("@") && OVERVIEW_TAG_LINE.test(text);
}

const OVERVIEW_TAG_LINE =
  /^[ \t]*(?:\/\*\*|\*)?[ \t]*@(?:module|file|fileoverview|overview|packageDocumentation)\b/im;

// What may stand above a file's overview: comments, a `#!` line and
// directives ("use strict", "use client").
function _isPrologue(node: Node): boolean {
  if (isComment(node) || node.type === "hash_bang_line") return true;
  if (node.type !== "expression_statement") return false;
  const only = node.namedChildren;
  return only.length === 1 && only[0].type === "string";
}

/**
 * The first meaningful line of the comment whose last line is `lines[end]`,
 * read from text rather than a tree (for lines a text pass blanked before
 * the parse): a block comment, or a run of line comments, when `accept`
 * (by default: a doc marker) takes it.
 */
export function commentEndingAt(
  lines: readonly string[],
  end: number,
  accept: (text: string) => boolean = isDocMarker,
): string | undefined {
  const last = lines[end]?.trim();
  if (last === undefined) return undefined;
  let start = end;
  if (last.endsWith("*/")) {
    while (start >= 0 && !lines[start].includes("/*")) start--;
    if (start < 0) return undefined;
  } else if (last.startsWith("//")) {
    while (start > 0 && lines[start - 1].trim().startsWith("//")) start--;
  } else {
    return undefined;
  }
  const text = lines.slice(start, end + 1).map((line) => line.trim()).join(
    "\n",
  );
  return accept(text) ? firstMeaningfulLine(text) : undefined;
}

/**
 * Whether a comment is a lint or tool directive (`// eslint-disable-line`),
 * never doc text though it may stand between a doc and its declaration.
 */
export function isToolDirective(text: string): boolean {
  return text.startsWith("//") && TOOL_DIRECTIVE.test(text);
}

// Any run of slashes: a banner (`//////  Section  //////`) is no doc text.
const COMMENT_MARK = /^(?:\/\*+!?|\/\/(?:\/+|!)?|#+|\*+(?!\/))\s?/;
// The slashes that close a banner line, apart from its text: `tcp://` at a
// line's end is a URL's scheme.
const BANNER_END = /(?:^|\s+)\/{2,}$/;
// A rule drawn across a comment (`----`, `====`, `/////`, `* * *`).
const RULE_LINE = /^[-=*_~#+/\s]{3,}$/;
// A marker that says how to read the comment, no text: OpenSSL's `/*-`
// (keep my formatting), Doxygen's member group braces (`/// @{`, `//@}`).
const MARKER_LINE = /^(?:-|[@\\][{}])$/;
// Doxygen's `\name Accessors` titles the member group a `@{` opens: the
// summary of its members when no other text says more.
const GROUP_TITLE = /^[@\\]name\s+(\S.*)$/;
// A license header is about the file, not the declaration under it (Meta's
// files open with one right above their first declaration).
const LICENSE_LINE =
  /^(?:copyright\s+(?:\(c\)|©|\d{4})|\(c\)\s+\d{4}|©|spdx-license-identifier\b|licensed under\b)/i;
// Not JSDoc's inline links (`{@link Base.ttl}`): they are text.
const DIRECTIVE_LINE = /^\{@(?!link(?:code|plain)?\b)[\w-]+[^{}]*\}$/;
// A line comment that talks to a tool (`// swiftlint:disable file_length`).
const TOOL_DIRECTIVE =
  /^\/\/(?:\/\s*<(?:reference|amd-module|amd-dependency)\b|\s*(?:swiftlint:|swiftformat:|ktlint-|noinspection|NOSONAR|eslint-|prettier-ignore|@ts-|nolint|NOLINT|clang-format|periphery:|sourcery:))/;
const MAX_DOC_LENGTH = 200;
// Summary tags: Doxygen's `@brief Opens it.` (common in C and C++) and
// JSDoc's `@summary` and `@description` (`@desc`; date-fns documents every
// function under them) say "Opens it." wherever they stand.
const BRIEF_TAG = /^[@\\](?:brief|summary|description|desc)(?:\s+|$)/;
const TAG = /^[@\\][A-Za-z]/;
// Doxygen's structural commands name what they document on their own line
// (`@fn int add(int, int)`); a summary may follow them. Not JSDoc's
// `@typedef {Type} Name`: its type may run over the lines below.
const STRUCTURAL_TAG =
  /^[@\\](?:fn|file|class|struct|union|enum|def|var|typedef(?!\s*\{)|namespace|package|interface|module|name|memberof|ingroup|defgroup|addtogroup|headerfile)\b/i;
// JSDoc/TSDoc modifiers take no text: what follows them is the summary.
const MODIFIER_TAG =
  /^[@\\](?:internal|public|private|protected|alpha|beta|experimental|override|virtual|sealed|readonly|packagedocumentation|hidden|ignore|static|abstract|async|inheritdoc|export)\b\s*/i;

/**
 * The first line of a doc comment that says something: markers (`/**`, `*`,
 * `///`, `//`, `#`) stripped, blank lines and line tags
 * (`@fn ...`, `@internal`) skipped, nothing from a block tag on (`@param x`
 * and the lines under it are no summary) except a Doxygen `@brief`, cut to
 * 200 characters.
 */
export function firstMeaningfulLine(text: string): string | undefined {
  // Line by line, not split() up front: the answer is nearly always on the
  // first or second line of what may be a long comment. Splitting at "\n"
  // alone is enough, since trim() drops a "\r" before it.
  let inBlockTag = false;
  let groupTitle: string | undefined;
  let groupOpened = false;
  for (let start = 0; start <= text.length;) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    const raw = text.slice(start, end);
    start = end + 1;
    const line = _withoutBannerEnd(_withoutCommentEnd(_withoutMark(raw)))
      .trim();
    if (line === "") continue;
    // Most lines are plain text: the patterns below start with a sign or a
    // licence word, so a line opening with anything else skips them all.
    const plain = !LINE_PATTERN_START.test(line);
    // A rule, or a doc tool's directive alone on its line (Dart's
    // `{@template x}`, `{@macro x}`, `{@tool snippet}`).
    if (!plain && (RULE_LINE.test(line) || DIRECTIVE_LINE.test(line))) {
      continue;
    }
    if (!plain && MARKER_LINE.test(line)) {
      groupOpened ||= line.endsWith("{");
      continue;
    }
    if (!plain) {
      groupTitle ??= GROUP_TITLE.exec(line)?.[1];
      if (LICENSE_LINE.test(line)) return undefined;
      const brief = BRIEF_TAG.exec(line);
      if (brief !== null) {
        // `@brief` alone on its line: the summary is the next line.
        if (brief[0].length === line.length) inBlockTag = false;
        else return clipDoc(line.slice(brief[0].length));
        continue;
      }
    }
    const modifier = plain ? null : MODIFIER_TAG.exec(line);
    const rest = modifier === null ? line : line.slice(modifier[0].length);
    if (rest === "" || (!plain && STRUCTURAL_TAG.test(line))) continue;
    // A plain line opens with no `@` or `\`: no tag.
    if (!plain && TAG.test(rest)) {
      inBlockTag = true;
      continue;
    }
    if (!inBlockTag) return clipDoc(rest);
  }
  return groupOpened && groupTitle !== undefined
    ? clipDoc(groupTitle)
    : undefined;
}

/**
 * A doc summary line cut to 200 characters (with "…" where it was cut): an
 * outline line stays one readable line.
 */
export function clipDoc(line: string): string {
  return line.length > MAX_DOC_LENGTH
    ? `${line.slice(0, MAX_DOC_LENGTH - 1)}…`
    : line;
}

/** Whether a trimmed doc line is a rule drawn across it (`----`, `====`). */
export function isRuleLine(line: string): boolean {
  return RULE_LINE.test(line);
}

// The first characters that RULE_LINE, DIRECTIVE_LINE, MARKER_LINE,
// GROUP_TITLE, LICENSE_LINE and the tag patterns can match at (a licence line
// opens with "copyright", "(c)", "©", "spdx" or "licensed").
const LINE_PATTERN_START = /^[-=*_~#+/\s{@\\(©cCsSlL]/;

// A trimmed line without its comment marker (COMMENT_MARK), looked for only
// when the line opens with one of the marker's first characters.
function _withoutMark(raw: string): string {
  const line = raw.trim();
  const first = line.charCodeAt(0);
  return first === SLASH || first === ASTERISK || first === HASH
    ? line.replace(COMMENT_MARK, "")
    : line;
}

const SLASH = 47;
const ASTERISK = 42;
const HASH = 35;

// Drops a banner's closing slashes (see BANNER_END), looked for only when the
// line ends with two.
function _withoutBannerEnd(line: string): string {
  return line.endsWith("//") ? line.replace(BANNER_END, "") : line;
}

// Drops a closing `*/`, with the `*`s before it, from the end of a line. By
// hand: the pattern for it takes time quadratic in a long run of `*`s.
function _withoutCommentEnd(line: string): string {
  const trimmed = line.trimEnd();
  if (!trimmed.endsWith("*/")) return trimmed;
  let end = trimmed.length - 1;
  while (end > 0 && trimmed[end - 1] === "*") end--;
  return trimmed.slice(0, end);
}

/**
 * Appends `items` to `target`. Not `target.push(...items)`: spreading passes
 * each item as an argument, and a container of 100,000 members or more
 * overflows the stack.
 */
export function append<T>(target: T[], items: readonly T[]): void {
  // By index, not for-of: no iterator per call (it runs for every symbol).
  for (let i = 0; i < items.length; i++) target.push(items[i]);
}

/**
 * How many levels of members a top-level symbol has at most. Deeper ones are
 * left out: real code stays far below this, and a file nesting thousands of
 * levels would otherwise overflow the stack of the recursive extractors.
 */
export const MAX_NESTING = 40;
let nesting = 0;

/**
 * The members `read` finds, one nesting level down; none past
 * {@linkcode MAX_NESTING}.
 */
export function nested(read: () => OutlineSymbol[]): OutlineSymbol[] {
  if (nesting >= MAX_NESTING) return [];
  nesting++;
  try {
    return read();
  } finally {
    nesting--;
  }
}

/**
 * The named children of `container`, looking through ERROR nodes so what
 * parsed is still found (Swift's grammar, for one, does not know `#if` inside
 * a type body). A loop, not recursion: errors can nest deep.
 */
export function namedItems(container: Node): Node[] {
  const items: Node[] = [];
  const pending = [container.namedChildren.values()];
  while (pending.length > 0) {
    const next = pending.at(-1)!.next();
    if (next.done) pending.pop();
    else if (next.value.type === "ERROR") {
      pending.push(next.value.namedChildren.values());
    } else items.push(next.value);
  }
  return items;
}

/**
 * The symbols `declare` makes of the {@linkcode namedItems} of `container`,
 * each given the doc comment above its node.
 */
export function documentedSymbols(
  container: Node,
  declare: (node: Node) => OutlineSymbol | undefined,
): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  const items = namedItems(container);
  for (let i = 0; i < items.length; i++) {
    const symbol = declare(items[i]);
    if (symbol === undefined) continue;
    // Looking back in the array, not with previousSibling (linear per call).
    const doc = docComment(items[i], { siblings: items, index: i });
    if (doc !== undefined) symbol.doc = doc;
    symbols.push(symbol);
  }
  return symbols;
}
