// A Markdown heading's text as a reader sees it, read after CommonMark's
// inline rules closely enough for a name: code spans as written, escapes and
// entities as the characters they stand for, links as their text, images,
// HTML tags and comments as nothing, unless nothing else is left, then the
// images' alt text (a README's title line is often only a logo or badges).

/**
 * The characters of a heading's text that are kept: no real heading is
 * longer, and it bounds the work on a file with a huge line.
 */
export const MAX_HEADING = 1024;
/** Links and images read in a heading's text, at most (see headingName). */
const MAX_BRACKETS = 64;

// Code spans, escaped characters and private-use characters already in the
// text are set aside while links and tags are read: each is replaced by one
// character of this private-use range that indexes the piece. The range holds
// more slots than a heading (MAX_HEADING) has characters.
const FIRST_SLOT = 0xf000;
const LAST_SLOT = 0xf8ff;
const SLOTS = /[\uf000-\uf8ff]/g;
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/;

/** The pieces set aside, as shown in the name and as written in the source. */
interface Pieces {
  shown: string[];
  raw: string[];
}

/**
 * The name of a heading whose Markdown text is `markdown`; `labels` are the
 * document's link reference definitions, normalized by referenceLabel().
 */
export function headingName(
  markdown: string,
  labels: ReadonlySet<string>,
): string {
  const pieces: Pieces = { shown: [], raw: [] };
  const text = _setAside(markdown.slice(0, MAX_HEADING), pieces);
  // Each `[` may start a link; past a few dozen, it is not prose, and the
  // search for each one's end would take time quadratic in their number.
  if (_count(text, "[") > MAX_BRACKETS) {
    return _squeeze(_restore(text, pieces.shown));
  }
  const links = _shortcuts(
    _withoutComments(text).replace(LINK, "$1"),
    { labels, raw: pieces.raw },
  );
  const visible = _squeeze(
    links.replace(IMAGE, "").replace(HTML_TAG, "").replace(COMPONENT_TAG, ""),
  );
  const name = visible !== ""
    ? visible
    : links.replace(IMAGE, "$1 ").replace(HTML_TAG, _altText)
      .replace(COMPONENT_TAG, "");
  return _squeeze(_restore(_decodeEntities(name), pieces.shown));
}

/** A link label as CommonMark matches it: trimmed, spaces collapsed, case folded. */
export function referenceLabel(label: string): string {
  return label.trim().replace(/\s+/g, " ").toLowerCase().toUpperCase();
}

// One pass that replaces code spans (a run of backticks to the next run of
// the same length), backslash escapes and private-use characters by slots.
function _setAside(markdown: string, pieces: Pieces): string {
  const closers = _backtickRuns(markdown);
  const parts: string[] = [];
  let at = 0;
  while (at < markdown.length) {
    const char = markdown[at];
    if (char === "\\" && ASCII_PUNCTUATION.test(markdown[at + 1] ?? "")) {
      parts.push(_slot(pieces, markdown[at + 1], markdown.slice(at, at + 2)));
      at += 2;
    } else if (char === "`") {
      let end = at;
      while (markdown[end] === "`") end++;
      const close = _nextRun(closers, end - at, end);
      const stop = close === -1 ? end : close + (end - at);
      const span = markdown.slice(at, stop);
      parts.push(close === -1 ? span : _slot(pieces, span, span));
      at = stop;
    } else {
      const code = char.charCodeAt(0);
      const reserved = code >= FIRST_SLOT && code <= LAST_SLOT;
      parts.push(reserved ? _slot(pieces, char, char) : char);
      at++;
    }
  }
  return parts.join("");
}

function _slot(pieces: Pieces, shown: string, raw: string): string {
  pieces.shown.push(shown);
  pieces.raw.push(raw);
  return String.fromCharCode(FIRST_SLOT + pieces.shown.length - 1);
}

function _restore(text: string, pieces: string[]): string {
  return text.replace(SLOTS, (slot) => pieces[slot.charCodeAt(0) - FIRST_SLOT]);
}

/** The starts of the backtick runs of each length, with a read position. */
type Runs = Map<number, { starts: number[]; next: number }>;

function _backtickRuns(text: string): Runs {
  const runs: Runs = new Map();
  for (let at = text.indexOf("`"); at !== -1; at = text.indexOf("`", at)) {
    let end = at;
    while (text[end] === "`") end++;
    const entry = runs.get(end - at) ?? { starts: [], next: 0 };
    entry.starts.push(at);
    runs.set(end - at, entry);
    at = end;
  }
  return runs;
}

// The start of the first run of `length` backticks at or after `from`, or -1.
// Calls come with growing `from`, so each list is read once: linear time.
function _nextRun(runs: Runs, length: number, from: number): number {
  const entry = runs.get(length);
  if (entry === undefined) return -1;
  while (entry.next < entry.starts.length && entry.starts[entry.next] < from) {
    entry.next++;
  }
  return entry.starts[entry.next] ?? -1;
}

// HTML comments (`<!-- omit in toc -->`) are not shown. By indexOf, not a
// lazy pattern: an unclosed `<!--` must not make the search quadratic.
function _withoutComments(text: string): string {
  const parts: string[] = [];
  let at = 0;
  for (let open = text.indexOf("<!--"); open !== -1;) {
    const close = text.indexOf("-->", open + 4);
    if (close === -1) break;
    parts.push(text.slice(at, open));
    at = close + 3;
    open = text.indexOf("<!--", at);
  }
  parts.push(text.slice(at));
  return parts.join("");
}

// `[label]` and `![label]` with neither `(` nor `[` after them are links and
// images only when the document defines the label (Keep a Changelog's
// `## [2.31.0] - 2024-10-03`); an image becomes `![label]()` for IMAGE.
function _shortcuts(
  text: string,
  references: { labels: ReadonlySet<string>; raw: string[] },
): string {
  if (references.labels.size === 0) return text;
  return text.replace(SHORTCUT, (whole, bang: string, label: string) => {
    const key = referenceLabel(_restore(label, references.raw));
    if (!references.labels.has(key)) return whole;
    return bang === "" ? label : `![${label}]()`;
  });
}

// In the fallback, an HTML <img> shows its alt text, as a Markdown image does.
function _altText(tag: string): string {
  if (!/^<img\b/i.test(tag)) return "";
  const alt = /\salt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/i.exec(tag);
  return alt === null ? "" : `${alt[1] ?? alt[2] ?? alt[3]} `;
}

function _decodeEntities(text: string): string {
  return text.replace(
    ENTITY,
    (whole, decimal?: string, hex?: string, name?: string) => {
      if (name !== undefined) return NAMED_ENTITIES.get(name) ?? whole;
      const code = decimal !== undefined
        ? Number(decimal)
        : parseInt(hex ?? "", 16);
      const valid = code > 0 && code <= 0x10ffff &&
        !(code >= 0xd800 && code <= 0xdfff);
      return String.fromCodePoint(valid ? code : 0xfffd);
    },
  );
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
// `[label]` or `![label]` followed by neither `(` nor `[`, nor preceded by
// `]` (`![alt][label]` is IMAGE's).
const SHORTCUT = /(?<!\])(!?)\[([^[\]]+)\](?![[(])/g;
// The HTML tags READMEs put in headings, lower case as HTML is written; a
// type's parameters (`Option<T>`, `Map<string, number>`) are not tags. A tag
// ends before the next `<`: on `<a <a <a...` each try stops there.
const HTML_TAG =
  /<\/?(?:a|abbr|b|big|br|center|code|del|details|div|em|font|h[1-6]|i|img|ins|kbd|mark|p|picture|s|small|source|span|strike|strong|sub|summary|sup|tt|u)(?=[\s/>])[^<>]*>/g;
// Any other tag with an attribute (`<Note type="warning">`, MDX's components)
// or a closing tag: a type's parameters have neither.
const COMPONENT_TAG =
  /<\/[A-Za-z][\w.:-]*\s*>|<[A-Za-z][\w.:-]*(?:\s+[\w:.-]+\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|\{[^{}<>]*\}))+\s*\/?>/g;
// Numeric references and the named ones seen in headings.
const ENTITY = /&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([a-zA-Z]{2,6}));/g;
const NAMED_ENTITIES: ReadonlyMap<string, string> = new Map([
  ["amp", "&"],
  ["lt", "<"],
  ["gt", ">"],
  ["quot", '"'],
  ["apos", "'"],
  ["nbsp", " "],
  ["copy", "©"],
  ["reg", "®"],
  ["trade", "™"],
  ["hellip", "…"],
  ["mdash", "—"],
  ["ndash", "–"],
  ["larr", "←"],
  ["rarr", "→"],
  ["harr", "↔"],
  ["times", "×"],
  ["middot", "·"],
  ["laquo", "«"],
  ["raquo", "»"],
]);
