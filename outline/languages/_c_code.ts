// C-family text with its comments and the insides of its string and
// character literals turned into spaces (line breaks kept, so every line and
// offset stays where it was): what line-based readers of C, C++ and
// Objective-C look at, so that a `/*` in `@"image/*"` starts no comment and a
// `{` in `"{"` opens no block.

// One token at a time, leftmost first: a line comment, a block comment (to
// the end of the text when unclosed), or a literal (to the end of its line
// when unclosed). Each alternative has one way to match, so it runs in linear
// time.
const COMMENT_OR_LITERAL =
  /\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)|"((?:[^"\\\n]|\\[\s\S])*)("?)|'((?:[^'\\\n]|\\[\s\S])*)('?)/g;

/**
 * The text with comments blanked and, unless `literals` is `"keep"`, the
 * insides of its literals too (quotes kept). Kept literals still hide what
 * looks like a comment inside them.
 */
export function codeOnly(
  text: string,
  literals: "blank" | "keep" = "blank",
): string {
  return text.replace(
    COMMENT_OR_LITERAL,
    (token, string, stringEnd, char, charEnd) => {
      if (string === undefined && char === undefined) return _blank(token);
      if (literals === "keep") return token;
      return string !== undefined
        ? `"${_blank(string)}${stringEnd}`
        : `'${_blank(char)}${charEnd}`;
    },
  );
}

function _blank(text: string): string {
  return text.replace(/[^\n]/g, " ");
}
