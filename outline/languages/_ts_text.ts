// A text pass for TypeScript and TSX: two shapes tsc and Prettier write all
// the time that tree-sitter-typescript 0.23.2 cannot parse, rewritten in
// place (same length, every line where it was). Runs inside the outline
// worker only.

/**
 * An import type, `import("./types.js")`, where type arguments or `[]`
 * follow it (`import("./x").Name<T>` is an error to the grammar): written as
 * a plain name of the same length, it reads as a qualified type name, and
 * `await import("x")` as a name. Not a method (`.import(`) or a name ending
 * in `import`; on one line only (a call over several lines is an expression,
 * which the grammar reads), and not in a comment (a doc is read from this
 * text).
 */
const IMPORT_TYPE =
  /(?<![\w$.])import[ \t]*\([ \t]*(["'])[^"'\n\\]*\1[ \t]*\)/g;

/** A line that starts, after indentation, with `<` and a name. */
const ANGLE_LINE = /\n([ \t]+)<[A-Za-z_$]/g;
/** What a type parameter list's first name is followed by. */
const TYPE_PARAMETER = /^<[A-Za-z_$][\w$]*\s*(?:>|,|=|extends\b)/;
/** How far a type parameter list may run before its `(`. */
const MAX_TYPE_PARAMETERS = 500;

/** The text with those shapes rewritten; see the comments above. */
export function prepareTypeScript(source: string): string {
  const text = source.includes("import(") || source.includes("import (")
    ? source.replace(
      IMPORT_TYPE,
      (match, _quote, offset: number) =>
        _inComment(source, offset) ? match : "_".repeat(match.length),
    )
    : source;
  return _separateSignatures(text);
}

// Whether `offset` is in a comment: after `//` on its line, or on a line of
// a block comment (one that starts with `*` or `/*`). A rough test, enough
// for the doc comments a symbol's summary comes from.
function _inComment(text: string, offset: number): boolean {
  const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
  const before = text.slice(lineStart, offset);
  const first = before.trimStart();
  return first.startsWith("*") || first.startsWith("/*") ||
    before.includes("//");
}

/**
 * A generic call signature on its own line in a type body written without
 * semicolons (`<S = {}>(state: S): R<S>` under `(): Enhancer<P>`): the
 * grammar inserts no separator before `<`, so the last indentation space
 * becomes one. Only after a line that ends a member (a name, `)`, `]`, `>`
 * or `}`) and for a type parameter list followed by `(`.
 */
function _separateSignatures(text: string): string {
  let out: string[] | undefined;
  let at = 0;
  ANGLE_LINE.lastIndex = 0;
  for (let match; (match = ANGLE_LINE.exec(text)) !== null;) {
    const angle = match.index + match[0].length - 2;
    if (!_endsMember(text, match.index) || !_isSignature(text, angle)) {
      continue;
    }
    out ??= [];
    out.push(text.slice(at, angle - 1), ";");
    at = angle;
  }
  if (out === undefined) return text;
  out.push(text.slice(at));
  return out.join("");
}

// Whether the last code line before `newline` ends a member: not blank, not
// a comment, ending with a name character, `)`, `]`, `>` or `}`.
function _endsMember(text: string, newline: number): boolean {
  for (let end = newline; end > 0;) {
    const start = text.lastIndexOf("\n", end - 1) + 1;
    const line = text.slice(start, end).trim();
    if (line !== "") {
      if (/^(?:\/\/|\/\*|\*)/.test(line)) return false;
      return /[\w$)\]>}]$/.test(line);
    }
    end = start - 1;
  }
  return false;
}

// Whether `<` at `angle` opens a type parameter list that a parameter list
// follows: `<T>(`, `<S = {}, O extends X<Y> = {}>(`.
function _isSignature(text: string, angle: number): boolean {
  const head = text.slice(angle, angle + MAX_TYPE_PARAMETERS);
  if (!TYPE_PARAMETER.test(head)) return false;
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const char = head[i];
    if (char === "<") depth++;
    else if (char === ">" && head[i - 1] !== "=" && --depth === 0) {
      return /^\s*\(/.test(head.slice(i + 1));
    }
  }
  return false;
}
