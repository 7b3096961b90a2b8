// C-family text with its comments and the insides of its string and
// character literals turned into spaces (line breaks kept, so every line and
// offset stays where it was): what line-based readers of C, C++ and
// Objective-C look at, so that a `/*` in `@"image/*"` starts no comment and a
// `{` in `"{"` opens no block.

/** Where a comment or a literal may start: `//`, `/*`, a quote, `R"`. */
const TOKEN_START = /\/[/*]|(?<!\w)(?:u8|[uUL])?R"(?=[^()\\\s"]{0,16}\()|["']/g;
/** A quoted literal's text: to its closing quote, or to its line's end. */
const STRING_TEXT = /(?:[^"\\\n]|\\[\s\S])*/y;
const CHAR_TEXT = /(?:[^'\\\n]|\\[\s\S])*/y;

/**
 * The text with comments and the insides of its literals blanked (quotes
 * kept). Linear time: every token is read once, and the ends of raw strings
 * are found in one more pass.
 */
export function codeOnly(text: string): string {
  const pieces: string[] = [];
  let closers: RawClosers | undefined;
  let at = 0;
  TOKEN_START.lastIndex = 0;
  for (let match; (match = TOKEN_START.exec(text)) !== null;) {
    const start = match.index;
    const token = match[0];
    // [from, to): the part to blank; `end` is where the token ends.
    let from: number, to: number, end: number;
    if (token === "//") {
      from = start;
      end = to = _indexOr(text, "\n", start, text.length);
    } else if (token === "/*") {
      from = start;
      const close = text.indexOf("*/", start + 2);
      end = to = close === -1 ? text.length : close + 2;
    } else if (token.endsWith('R"')) {
      const open = text.indexOf("(", start);
      const delimiter = text.slice(start + token.length, open);
      closers ??= new RawClosers(text);
      const close = closers.after(delimiter, open);
      if (close === -1) {
        // Unclosed: read as a plain string from its quote instead.
        TOKEN_START.lastIndex = start + token.length - 1;
        continue;
      }
      from = open + 1;
      to = close;
      end = close + delimiter.length + 2;
    } else {
      const inside = token === '"' ? STRING_TEXT : CHAR_TEXT;
      inside.lastIndex = start + 1;
      inside.exec(text);
      from = start + 1;
      to = inside.lastIndex;
      end = text[to] === token ? to + 1 : to;
    }
    pieces.push(text.slice(at, from));
    _pushBlank(pieces, text.slice(from, to));
    at = to;
    TOKEN_START.lastIndex = end;
  }
  pieces.push(text.slice(at));
  return pieces.join("");
}

/**
 * Where each raw string delimiter's closing `)delim"` stands, found in one
 * pass and handed out in order: finding the end of every raw string (or that
 * it has none) takes linear time in all, however many delimiters there are.
 */
class RawClosers {
  #positions = new Map<string, number[]>();
  #next = new Map<string, number>();

  constructor(text: string) {
    for (const closer of text.matchAll(/\)([^()\\\s"]{0,16})"/g)) {
      const list = this.#positions.get(closer[1]);
      if (list) list.push(closer.index);
      else this.#positions.set(closer[1], [closer.index]);
    }
  }

  /** The first closing `)delim"` after `index`, or -1. */
  after(delimiter: string, index: number): number {
    const positions = this.#positions.get(delimiter) ?? [];
    let next = this.#next.get(delimiter) ?? 0;
    while (next < positions.length && positions[next] <= index) next++;
    this.#next.set(delimiter, next);
    return next < positions.length ? positions[next] : -1;
  }
}

function _indexOr(
  text: string,
  search: string,
  from: number,
  otherwise: number,
): number {
  const index = text.indexOf(search, from);
  return index === -1 ? otherwise : index;
}

/**
 * The text with its [start, end) `ranges` (sorted by start; they may
 * overlap) blanked: spaces for every character but line breaks.
 */
export function blankRanges(text: string, ranges: [number, number][]): string {
  if (ranges.length === 0) return text;
  const pieces: string[] = [];
  let at = 0;
  for (const [start, end] of ranges) {
    if (end <= at) continue;
    const from = Math.max(start, at);
    pieces.push(text.slice(at, from));
    _pushBlank(pieces, text.slice(from, end));
    at = end;
  }
  pieces.push(text.slice(at));
  return pieces.join("");
}

// Pushes spaces for every character of `text` but its line breaks, which are
// kept. By lines, and by slices of one string of spaces: a pattern replacing
// each character takes several times longer on a file of long comments
// (sqlite3.c), and splitting and joining each comment's lines made strings
// that are copied again when all the pieces are joined.
function _pushBlank(pieces: string[], text: string): void {
  let at = 0;
  for (let end = text.indexOf("\n"); end !== -1; end = text.indexOf("\n", at)) {
    if (end > at) pieces.push(_spaces(end - at));
    pieces.push("\n");
    at = end + 1;
  }
  if (text.length > at) pieces.push(_spaces(text.length - at));
}

const SPACES = " ".repeat(1024);

function _spaces(count: number): string {
  return count <= SPACES.length ? SPACES.slice(0, count) : " ".repeat(count);
}

/**
 * The index of the `(` that the `)` at `close` closes, looking back at most
 * 4,000 characters; -1 when not found or when a `;`, `{` or `}` comes first.
 */
export function openingParen(text: string, close: number): number {
  let depth = 0;
  for (let i = close; i >= 0 && i > close - 4000; i--) {
    const char = text.charCodeAt(i);
    if (char === 41) depth++;
    else if (char === 40 && --depth === 0) return i;
    else if (char === 59 || char === 123 || char === 125) return -1;
  }
  return -1;
}
