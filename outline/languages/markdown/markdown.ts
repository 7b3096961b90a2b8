// The built-in Markdown outline (no WASM): ATX and setext headings nested by
// level, each running to the line before the next heading of the same or a
// higher level. A heading in a block quote or on a list item's first line is
// a leaf of the section around it, up to the next heading. Fenced
// code, HTML comments, <pre>-like blocks and front matter hold no headings.
// A heading's name is read by _markdown_inline.ts.
import {
  headingName,
  MAX_HEADING,
  referenceLabel,
} from "./_markdown_inline.ts";
import type { OutlineSymbol } from "../../types.ts";

/** Extensions outlined by {@linkcode outlineMarkdown}. */
export const MARKDOWN_EXTENSIONS: readonly string[] = [
  ".md",
  ".mdx",
  ".markdown",
];

const ATX_OPENING = /^ {0,3}(#{1,6})(?=[ \t]|$)/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
// HTML blocks that hold no Markdown up to their end mark: comments and
// CommonMark's raw blocks.
const HTML_BLOCK = /^ {0,3}<(!--|(?:pre|script|style|textarea)(?=[\s>]|$))/i;
const COMMENT_END = /-->/;
const RAW_END = /<\/(?:pre|script|style|textarea)>/i;
// Indented code and an ordered item not from 1 cannot interrupt a paragraph:
// such a line continues it.
const CONTINUATION = /^(?: {4}|\t| {0,3}\d{1,9}[.)][ \t])/;
// Lines that cannot be the text of a setext heading (list items, tables...).
const NOT_PARAGRAPH = /^(?: {4}|\t| {0,3}(?:[-*+] |\d+[.)] |>|\||<))/;
// A list item's marker and the one space after it (sticky: read in place).
const LIST_MARKER = / {0,3}(?:[-*+]|(\d{1,9})[.)])(?:[ \t]|$)/y;
// `[label]: destination`: a link reference definition.
const DEFINITION = /^ {0,3}\[((?:[^\\[\]]|\\.){1,999})\]:/;
/**
 * Nested list markers read on one line, at most: a heading is found in a
 * list item this deep, and each level costs a thematic break test.
 */
const MAX_LIST_NESTING = 8;

interface Heading {
  level: number;
  text: string;
  line: number;
  /** In a block quote or a list item: a leaf of the section around it. */
  contained: boolean;
}

/**
 * The level a heading in a block quote or list item nests at: deeper than
 * any, so that a `> ## Note` callout neither ends the section it sits in
 * nor adopts the sections after it.
 */
const CONTAINED_LEVEL = 7;

/** A fenced code or HTML block that holds no Markdown up to its end. */
interface OpenBlock {
  /** The fence's mark (``` or ~~~), or the pattern of the HTML block's end. */
  end: string | RegExp;
  /** The block quotes it is in: it ends with the last of them. */
  depth: number;
  /** A list item's content column: a line indented less ends the block. */
  indent: number;
}

interface Paragraph {
  line: number;
  text: string;
  depth: number;
  /** The content column of the list item it starts, or 0. */
  indent: number;
}

/** Outlines Markdown text whose line count is `totalLines`. */
export function outlineMarkdown(
  text: string,
  totalLines: number,
): OutlineSymbol[] {
  return outlineMarkdownUpTo(text, totalLines, Infinity).symbols;
}

/**
 * {@linkcode outlineMarkdown} listing the first `limit` headings; the others
 * are counted (`omitted`) and still end the ranges before them, but no
 * symbol is built for them: a file of 250,000 headings shown as 400.
 */
export function outlineMarkdownUpTo(
  text: string,
  totalLines: number,
  limit: number,
): { symbols: OutlineSymbol[]; omitted: number } {
  const scanner = new _Scanner();
  const lines = text.split(/\r?\n/);
  let i = lines[0]?.trim() === "---" ? _frontMatterEnd(lines) : 0;
  for (; i < lines.length; i++) scanner.read(lines[i], i + 1);
  const { headings } = scanner;
  const named = Math.min(headings.length, limit);
  for (let k = 0; k < named; k++) {
    headings[k].text = headingName(headings[k].text, scanner.labels);
  }
  return {
    symbols: _nest(headings, totalLines, named),
    omitted: headings.length - named,
  };
}

// Reads the block structure line by line, as far as headings need: block
// quotes and list items (their markers are stripped from a line), fenced code
// and HTML blocks (they hold no headings), paragraphs (a setext heading's
// text) and link reference definitions (they make `[label]` a link).
class _Scanner {
  readonly headings: Heading[] = [];
  readonly labels: Set<string> = new Set();
  #open: OpenBlock | undefined;
  #paragraph: Paragraph | undefined;

  read(line: string, number: number): void {
    if (this.#open !== undefined && this.#inOpenBlock(line)) return;
    const quote = _unquote(line, Infinity);
    const content = line.slice(quote.start);
    if (this.#paragraph !== undefined && quote.depth > this.#paragraph.depth) {
      this.#paragraph = undefined; // a deeper block quote starts
    }
    if (this.#setext(content, quote.depth)) return;
    const item = _listItems(content, this.#continues(content, quote.depth));
    if (item > 0) {
      this.#paragraph = undefined; // a list item starts
      const inner = _innerContainers(content.slice(item), {
        depth: quote.depth,
        indent: item,
      });
      const where = { number, depth: inner.depth, indent: inner.indent };
      if (!this.#blockStart(inner.text, where)) this.#text(inner.text, where);
      return;
    }
    const where = { number, depth: quote.depth, indent: 0 };
    if (this.#blockStart(content, where)) {
      this.#paragraph = undefined;
    } else if (!this.#definition(content)) {
      this.#text(content, where);
    }
  }

  // Whether the line belongs to the open fenced code or HTML block.
  #inOpenBlock(line: string): boolean {
    const open = this.#open!;
    const quote = _unquote(line, open.depth);
    const content = line.slice(quote.start);
    if (
      quote.depth < open.depth ||
      (content.trim() !== "" && _indent(content) < open.indent)
    ) {
      this.#open = undefined; // its block quote or list item ended
      return false;
    }
    const closed = typeof open.end === "string"
      ? content.trimStart().startsWith(open.end) &&
        content.trim().replace(/[`~]/g, "") === ""
      : open.end.test(content);
    if (closed) this.#open = undefined;
    return true;
  }

  // Whether a line at this depth would continue the open paragraph (it is in
  // the paragraph's block quote and list item, not lazy).
  #continues(content: string, depth: number): boolean {
    const paragraph = this.#paragraph;
    return paragraph !== undefined && paragraph.depth === depth &&
      _indent(content) >= paragraph.indent;
  }

  // An underline ends a paragraph of its own block quote and list item (less
  // indented than the item's text, `---` is a thematic break after the list).
  #setext(content: string, depth: number): boolean {
    const paragraph = this.#paragraph;
    if (paragraph === undefined || !this.#continues(content, depth)) {
      return false;
    }
    const setext = SETEXT.exec(content);
    if (setext === null) return false;
    const level = setext[1].startsWith("=") ? 1 : 2;
    this.headings.push({
      level,
      text: paragraph.text,
      line: paragraph.line,
      contained: paragraph.depth > 0 || paragraph.indent > 0,
    });
    this.#paragraph = undefined;
    return true;
  }

  // A fence, an HTML block or an ATX heading starting `text`.
  #blockStart(
    text: string,
    where: { number: number; depth: number; indent: number },
  ): boolean {
    const opening = FENCE.exec(text);
    // A backtick fence's info string holds no backtick: "```x```" is code
    // inline in a paragraph (CommonMark).
    if (
      opening !== null &&
      !(opening[1][0] === "`" && text.slice(opening[0].length).includes("`"))
    ) {
      this.#open = {
        end: opening[1],
        depth: where.depth,
        indent: where.indent,
      };
      return true;
    }
    const html = HTML_BLOCK.exec(text);
    if (html !== null) {
      // Comments run to `-->`, raw blocks (<pre>, <script>...) to the first
      // of their four closing tags (CommonMark).
      const end = html[1] === "!--" ? COMMENT_END : RAW_END;
      if (!end.test(text.slice(html[0].length))) {
        this.#open = { end, depth: where.depth, indent: where.indent };
      }
      return true;
    }
    const atx = ATX_OPENING.exec(text);
    if (atx === null) return false;
    this.headings.push({
      level: atx[1].length,
      text: _atxText(text.slice(atx[0].length)),
      line: where.number,
      contained: where.depth > 0 || where.indent > 0,
    });
    return true;
  }

  // A definition cannot interrupt a paragraph; it is no paragraph text. A
  // footnote (`[^1]: text`, GitHub's) defines no link: `[^1]` stays.
  #definition(content: string): boolean {
    if (this.#paragraph !== undefined) return false;
    const definition = DEFINITION.exec(content);
    const label = definition?.[1].trim() ?? "";
    if (label === "" || label.startsWith("^")) return false;
    this.labels.add(referenceLabel(label));
    return true;
  }

  #text(
    content: string,
    where: { number: number; depth: number; indent: number },
  ): void {
    const paragraph = this.#paragraph;
    if (content.trim() === "" || _isThematicBreak(content, 0)) {
      this.#paragraph = undefined;
    } else if (paragraph !== undefined && CONTINUATION.test(content)) {
      paragraph.text += paragraph.text.length < MAX_HEADING
        ? ` ${content.trim()}`
        : "";
    } else if (NOT_PARAGRAPH.test(content)) {
      this.#paragraph = undefined;
    } else if (paragraph === undefined) {
      this.#paragraph = {
        line: where.number,
        text: content.trim(),
        depth: where.depth,
        indent: where.indent,
      };
    } else if (paragraph.text.length < MAX_HEADING) {
      paragraph.text += ` ${content.trim()}`; // a lazy line keeps its depth
    }
  }
}

// Where a line's content starts after at most `max` block quote markers
// (`>` and the space after it), and how many it had. By index: a line of
// thousands of `>` costs one pass.
function _unquote(
  line: string,
  max: number,
): { depth: number; start: number } {
  let depth = 0;
  let start = 0;
  while (depth < max) {
    let at = start;
    while (at < start + 3 && line[at] === " ") at++;
    if (line[at] !== ">") break;
    at++;
    if (line[at] === " " || line[at] === "\t") at++;
    depth++;
    start = at;
  }
  return { depth, start };
}

// The column where the content of the list items opened on this line starts
// (`- 1. text`), or 0 if it opens none. A thematic break (`* * *`) is no
// list item; an ordered item interrupts a paragraph only from 1 (CommonMark).
function _listItems(content: string, inParagraph: boolean): number {
  let start = 0;
  for (let count = 0; count < MAX_LIST_NESTING; count++) {
    LIST_MARKER.lastIndex = start;
    const marker = LIST_MARKER.exec(content);
    if (marker === null || _isThematicBreak(content, start)) break;
    const ordered = marker[1] !== undefined;
    if (count === 0 && inParagraph && ordered && Number(marker[1]) !== 1) {
      break;
    }
    start = LIST_MARKER.lastIndex;
  }
  return start;
}

// The text of a list item's first line inside the block quotes and list
// items that follow its marker (`- > 1. text`), with their depth and the
// content column of the last list item after the last quote, or 0. Later
// lines reach such a quote by _unquote(), which allows 3 spaces before `>`.
function _innerContainers(
  text: string,
  outer: { depth: number; indent: number },
): { text: string; depth: number; indent: number } {
  let { depth, indent } = outer;
  for (let level = 0; level < MAX_LIST_NESTING; level++) {
    const quote = _unquote(text, Infinity);
    if (quote.depth === 0) break;
    depth += quote.depth;
    text = text.slice(quote.start);
    indent = _listItems(text, false);
    text = text.slice(indent);
  }
  return { text, depth, indent };
}

// A line's indentation in columns, a tab reaching the next multiple of 4.
function _indent(text: string): number {
  let columns = 0;
  for (const char of text) {
    if (char === " ") columns++;
    else if (char === "\t") columns += 4 - (columns % 4);
    else break;
  }
  return columns;
}

// `---`, `***`, `___` (spaces allowed between): a rule, which ends a
// paragraph. By hand: the pattern for it backtracks one frame per character
// and overflows the stack on a line of megabytes.
function _isThematicBreak(line: string, from: number): boolean {
  let at = from;
  while (at < from + 3 && line[at] === " ") at++;
  const mark = line[at];
  if (mark !== "-" && mark !== "*" && mark !== "_") return false;
  let marks = 0;
  for (; at < line.length; at++) {
    const char = line[at];
    if (char === mark) marks++;
    else if (char !== " " && char !== "\t") return false;
  }
  return marks >= 3;
}

// The text after an ATX heading's opening #s, without the closing sequence
// of #s that may end it (after a space, or standing alone).
function _atxText(rest: string): string {
  const text = rest.trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === "#") end--;
  const closed = end < text.length &&
    (end === 0 || /[ \t]/.test(text[end - 1]));
  return closed ? text.slice(0, end).trimEnd() : text;
}

// Index of the first line after a YAML front matter block, or 0 if unclosed.
function _frontMatterEnd(lines: string[]): number {
  for (let i = 1; i < lines.length; i++) {
    if (lines[i].trim() === "---" || lines[i].trim() === "...") return i + 1;
  }
  return 0;
}

// One pass with a stack of open headings: a heading closes every open one of
// the same or a deeper level on the line before it.
// Symbols are built for the first `listed` headings only; the rest only close
// the ranges of those before them.
function _nest(
  headings: Heading[],
  totalLines: number,
  listed: number,
): OutlineSymbol[] {
  const roots: OutlineSymbol[] = [];
  const stack: { level: number; symbol: OutlineSymbol }[] = [];
  const close = (entry: { symbol: OutlineSymbol }, end: number) => {
    entry.symbol.endLine = Math.max(end, entry.symbol.startLine);
  };
  for (const [index, heading] of headings.entries()) {
    const level = heading.contained ? CONTAINED_LEVEL : heading.level;
    while (stack.length > 0 && stack[stack.length - 1].level >= level) {
      close(stack.pop()!, heading.line - 1);
    }
    if (index >= listed) {
      if (stack.length === 0) break; // nothing left to close
      continue;
    }
    const symbol: OutlineSymbol = {
      kind: "heading",
      name: heading.text,
      startLine: heading.line,
      endLine: heading.line,
      children: [],
    };
    (stack.at(-1)?.symbol.children ?? roots).push(symbol);
    stack.push({ level, symbol });
  }
  for (const entry of stack) close(entry, totalLines);
  return roots;
}
