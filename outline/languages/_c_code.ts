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
 * The text with comments blanked and, unless `literals` is `"keep"`, the
 * insides of its literals too (quotes kept). Kept literals still hide what
 * looks like a comment inside them. Linear time: every token is read once,
 * and a raw string's missing end is looked for once per delimiter.
 */
export function codeOnly(
  text: string,
  literals: "blank" | "keep" = "blank",
): string {
  const pieces: string[] = [];
  const unclosedRaw = new Map<string, number>();
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
      const closing = `)${text.slice(start + token.length, open)}"`;
      // Not found after an earlier raw string's opening: not after this one.
      const missing = unclosedRaw.get(closing);
      const close = missing !== undefined && missing <= open
        ? -1
        : text.indexOf(closing, open + 1);
      if (close === -1) {
        // Unclosed: read as a plain string from its quote instead.
        unclosedRaw.set(closing, open);
        TOKEN_START.lastIndex = start + token.length - 1;
        continue;
      }
      from = open + 1;
      to = close;
      end = close + closing.length;
    } else {
      const inside = token === '"' ? STRING_TEXT : CHAR_TEXT;
      inside.lastIndex = start + 1;
      inside.exec(text);
      from = start + 1;
      to = inside.lastIndex;
      end = text[to] === token ? to + 1 : to;
    }
    if (token.startsWith("/") || literals === "blank") {
      pieces.push(text.slice(at, from), _blank(text.slice(from, to)));
      at = to;
    }
    TOKEN_START.lastIndex = end;
  }
  pieces.push(text.slice(at));
  return pieces.join("");
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

function _blank(text: string): string {
  return text.replace(/[^\n]/g, " ");
}
