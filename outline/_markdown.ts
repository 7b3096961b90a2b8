// The built-in Markdown outline (no WASM): ATX and setext headings nested by
// level, each running to the line before the next heading of the same or a
// higher level. Fenced code, HTML comments, <pre>-like blocks and front matter
// hold no headings.
import type { OutlineSymbol } from "./types.ts";

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
// Lines that cannot be the text of a setext heading (list items, quotes, tables...).
const NOT_PARAGRAPH = /^(?: {4}|\t| {0,3}(?:[-*+] |\d+[.)] |>|\||<))/;

/**
 * The characters of a heading's text that are kept: no real heading is
 * longer, and it bounds the work on a file with a huge line.
 */
const MAX_HEADING = 1024;
/** Links and images read in a heading's text, at most (see _plainText). */
const MAX_BRACKETS = 64;

interface Heading {
  level: number;
  text: string;
  line: number;
}

/** Outlines Markdown text whose line count is `totalLines`. */
export function outlineMarkdown(
  text: string,
  totalLines: number,
): OutlineSymbol[] {
  return _nest(_headings(text.split(/\r?\n/)), totalLines);
}

function _headings(lines: string[]): Heading[] {
  const headings: Heading[] = [];
  let fence: string | undefined;
  /** The end of the HTML comment or raw block the line is in. */
  let htmlEnd: RegExp | undefined;
  let paragraph: { line: number; text: string } | undefined;
  let i = lines[0]?.trim() === "---" ? _frontMatterEnd(lines) : 0;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (fence !== undefined) {
      if (
        line.trimStart().startsWith(fence) &&
        line.trim().replace(/[`~]/g, "") === ""
      ) fence = undefined;
      continue;
    }
    if (htmlEnd !== undefined) {
      if (htmlEnd.test(line)) htmlEnd = undefined;
      continue;
    }
    const opening = FENCE.exec(line);
    // A backtick fence's info string holds no backtick: "```x```" is code
    // inline in a paragraph (CommonMark).
    if (
      opening !== null &&
      !(opening[1][0] === "`" && line.slice(opening[0].length).includes("`"))
    ) {
      fence = opening[1];
      paragraph = undefined;
      continue;
    }
    const html = HTML_BLOCK.exec(line);
    if (html !== null) {
      // Comments run to `-->`, raw blocks (<pre>, <script>...) to the first
      // of their four closing tags (CommonMark).
      const end = html[1] === "!--" ? COMMENT_END : RAW_END;
      if (!end.test(line.slice(html[0].length))) htmlEnd = end;
      paragraph = undefined;
      continue;
    }
    const atx = ATX_OPENING.exec(line);
    if (atx !== null) {
      headings.push({
        level: atx[1].length,
        text: _atxText(line.slice(atx[0].length)),
        line: i + 1,
      });
      paragraph = undefined;
      continue;
    }
    const setext = SETEXT.exec(line);
    if (setext !== null && paragraph !== undefined) {
      const level = setext[1].startsWith("=") ? 1 : 2;
      headings.push({ level, text: paragraph.text, line: paragraph.line });
      paragraph = undefined;
      continue;
    }
    if (
      line.trim() === "" || NOT_PARAGRAPH.test(line) ||
      _isThematicBreak(line)
    ) {
      paragraph = undefined;
    } else if (paragraph === undefined) {
      paragraph = { line: i + 1, text: line.trim() };
    } else if (paragraph.text.length < MAX_HEADING) {
      paragraph.text += ` ${line.trim()}`;
    }
  }
  return headings;
}

// `---`, `***`, `___` (spaces allowed between): a rule, which ends a
// paragraph. By hand: the pattern for it backtracks one frame per character
// and overflows the stack on a line of megabytes.
function _isThematicBreak(line: string): boolean {
  let at = 0;
  while (at < 3 && line[at] === " ") at++;
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
function _nest(headings: Heading[], totalLines: number): OutlineSymbol[] {
  const roots: OutlineSymbol[] = [];
  const stack: { level: number; symbol: OutlineSymbol }[] = [];
  const close = (entry: { symbol: OutlineSymbol }, end: number) => {
    entry.symbol.endLine = Math.max(end, entry.symbol.startLine);
  };
  for (const heading of headings) {
    while (stack.length > 0 && stack[stack.length - 1].level >= heading.level) {
      close(stack.pop()!, heading.line - 1);
    }
    const symbol: OutlineSymbol = {
      kind: "heading",
      name: _plainText(heading.text),
      startLine: heading.line,
      endLine: heading.line,
      children: [],
    };
    (stack.at(-1)?.symbol.children ?? roots).push(symbol);
    stack.push({ level: heading.level, symbol });
  }
  for (const entry of stack) close(entry, totalLines);
  return roots;
}

// A heading's text as a reader sees it: a link shows its text, an image or an
// HTML tag shows nothing (a README's title line is often mostly badges),
// unless nothing else is left, then the images' alt text.
function _plainText(markdown: string): string {
  const heading = markdown.slice(0, MAX_HEADING);
  // Each `[` may start a link; past a few dozen, it is not prose, and the
  // search for each one's end would take time quadratic in their number.
  if (_count(heading, "[") > MAX_BRACKETS) return _squeeze(heading);
  const links = heading.replace(LINK, "$1");
  const text = _squeeze(links.replace(IMAGE, "").replace(HTML_TAG, ""));
  return text !== "" ? text : _squeeze(links.replace(IMAGE, "$1 "));
}

function _count(text: string, char: string): number {
  let count = 0;
  for (
    let at = text.indexOf(char);
    at !== -1;
    at = text.indexOf(char, at + 1)
  ) {
    count++;
  }
  return count;
}

function _squeeze(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

// `[text](url)` or `[text][ref]`, not preceded by `!` (that is an image).
const LINK =
  /(?<!!)\[((?:!\[[^\]]*\]\([^)]*\)|!\[[^\]]*\]\[[^\]]*\]|[^\]])*)\](?:\([^)]*\)|\[[^\]]*\])/g;
// `![alt](url)` or `![alt][ref]`.
const IMAGE = /!\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])/g;
// The HTML tags READMEs put in headings, lower case as HTML is written; a
// type's parameters (`Option<T>`, `Map<string, number>`) are not tags.
const HTML_TAG =
  /<\/?(?:a|abbr|b|br|code|del|details|div|em|h[1-6]|i|img|ins|kbd|mark|p|picture|s|small|source|span|strong|sub|summary|sup|u)(?=[\s/>])[^>]*>/g;
