// The value of a Python string literal, as Python reads it: a docstring's
// `__doc__` is the decoded text (`"\\n"` is one backslash and an `n`, `\u00b6`
// is a pilcrow), not the text as written. Runs inside the outline worker only.

/**
 * The value of one string literal (`"a"`, `r'''b'''`, `u"\x41"`), or
 * undefined when it is a bytes, f- or t-string (its value is no text, or not
 * known without running code). A literal cut short (a syntax error) gives
 * what it holds so far.
 */
export function pythonStringValue(literal: string): string | undefined {
  const prefix = PREFIX.exec(literal)![0];
  if (/[bBfFtT]/.test(prefix)) return undefined;
  const quote = QUOTE.exec(literal.slice(prefix.length))?.[0];
  if (quote === undefined) return undefined;
  let end = literal.length;
  if (
    literal.endsWith(quote) &&
    end - quote.length >= prefix.length + quote.length
  ) end -= quote.length;
  // Python reads source lines with universal newlines: CRLF and CR inside a
  // literal are "\n".
  const body = literal.slice(prefix.length + quote.length, end)
    .replace(/\r\n?/g, "\n");
  return /[rR]/.test(prefix) ? body : _decodeEscapes(body);
}

const PREFIX = /^[A-Za-z]*/;
const QUOTE = /^(?:"""|'''|"|')/;

// One escape sequence: a backslash and what it takes.
const ESCAPE =
  /\\(?:\n|[0-7]{1,3}|x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|[\\'"abfnrtv])/g;

const SIMPLE: Readonly<Record<string, string>> = {
  "\n": "", // a backslash at the end of a line joins it to the next
  "\\": "\\",
  "'": "'",
  '"': '"',
  a: "\x07",
  b: "\b",
  f: "\f",
  n: "\n",
  r: "\r",
  t: "\t",
  v: "\v",
};

// Escapes Python does not know (`\d`, `\N{...}`, whose name needs the Unicode
// name table) stay as written, as Python keeps an unknown one.
function _decodeEscapes(body: string): string {
  if (!body.includes("\\")) return body;
  return body.replace(ESCAPE, (escape) => {
    const letter = escape[1];
    const simple = SIMPLE[letter];
    if (simple !== undefined) return simple;
    const code = letter === "x" || letter === "u" || letter === "U"
      ? parseInt(escape.slice(2), 16)
      : parseInt(escape.slice(1), 8);
    // `\U` past U+10FFFF is a syntax error in Python: keep it as written.
    return code > 0x10FFFF ? escape : String.fromCodePoint(code);
  });
}
