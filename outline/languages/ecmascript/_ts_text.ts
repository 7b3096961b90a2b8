// A text pass for TypeScript and TSX: shapes tsc and Prettier write that
// tree-sitter-typescript 0.23.2 cannot parse, rewritten in place (same
// length, every line where it was). Runs inside the outline worker only.
import type { OutlineSymbol } from "../../types.ts";

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

/**
 * A line that starts, after indentation, with `<` and a name (Prettier puts
 * a long type parameter list's names on the lines under a lone `<`).
 */
const ANGLE_LINE = /\n([ \t]+)<(?=\s*[A-Za-z_$])/g;
/** What a type parameter list's first name is followed by. */
const TYPE_PARAMETER = /^<\s*[A-Za-z_$][\w$]*\s*(?:>|,|=|extends\b)/;
/** How far a type parameter list may run before its `(`. */
const MAX_TYPE_PARAMETERS = 500;

/** The text with those shapes rewritten; see the comments above. */
export function prepareTypeScript(source: string): string {
  const inComment = _commentTest(source);
  const text = source.includes("import(") || source.includes("import (")
    ? source.replace(
      IMPORT_TYPE,
      (match, _quote, offset: number) =>
        inComment(offset) ? match : "_".repeat(match.length),
    )
    : source;
  return _renameKeywords(_separateSignatures(text), source);
}

// Whether an offset of `text` is in a comment: after `//` on its line, or on
// a line of a block comment (one that starts with `*` or `/*`). A rough test,
// enough for the doc comments a symbol's summary comes from. Offsets come in
// increasing order (as replace() gives them): each line is read once, not
// once per match (a minified line holds thousands).
function _commentTest(text: string): (offset: number) => boolean {
  let lineEnd = -1;
  let commentLine = false;
  let slashes = -1;
  return (offset) => {
    if (offset > lineEnd) {
      const lineStart = text.lastIndexOf("\n", offset - 1) + 1;
      lineEnd = text.indexOf("\n", offset);
      if (lineEnd === -1) lineEnd = text.length;
      const line = text.slice(lineStart, lineEnd);
      const first = line.trimStart();
      commentLine = first.startsWith("*") || first.startsWith("/*");
      const at = line.indexOf("//");
      slashes = at === -1 ? Infinity : lineStart + at;
    }
    return commentLine || slashes < offset;
  };
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
    const angle = match.index + match[0].length - 1;
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

// Whether the last code line before `newline` ends a member (with a name
// character, `)`, `]`, `>` or `}`). Blank lines and comments between are
// passed over: a signature often has a doc of its own. Inside a block comment
// (a line starting with `*` or `/*` that does not close it) it is not code.
function _endsMember(text: string, newline: number): boolean {
  for (let end = newline; end > 0;) {
    let start = text.lastIndexOf("\n", end - 1) + 1;
    let line = text.slice(start, end).trim();
    if (line.endsWith("*/")) {
      // Up the comment's lines, each starting with `*`, to its `/*`: line by
      // line, so no comment is walked twice (a search for `/*` could run to
      // the top of the file for each signature).
      while (!line.includes("/*")) {
        if (start === 0) return false;
        end = start - 1;
        start = text.lastIndexOf("\n", end - 1) + 1;
        line = text.slice(start, end).trim();
        if (!line.startsWith("*") && !line.includes("/*")) return false;
      }
      line = line.slice(0, line.indexOf("/*")).trim();
    } else if (/^(?:\/\*|\*)/.test(line)) return false;
    if (line !== "" && !line.startsWith("//")) {
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

/**
 * Keywords the grammar takes for a declaration where TypeScript reads a name:
 * a parameter `using` (`findProviders(using: any, ...)`, in Angular) starts a
 * `using` declaration, and a member `abstract` (`abstract?: string`, in
 * Next.js's Metadata) an abstract signature; either is a syntax error that
 * costs the symbols around it. Written as names of the same length, and put
 * back by restoreKeywordNames(). `$` is a name character, so a source may
 * write a placeholder itself: such a source keeps that keyword as it is (see
 * _renameKeywords()), and only then is that placeholder never put back.
 */
const KEYWORD_NAMES = [
  // After `(` or `,`, before a type, a default, `,` or `)`.
  { name: "using", as: "u$ing", at: /(?<=[(,]\s*)using(?=[ \t]*[?:,)=])/g },
  // First on a line or after `{`, `;` or `,`, before a type or `(`.
  {
    name: "abstract",
    as: "ab$tract",
    at: /(?<=(?:^|[{;,])[ \t]*)abstract(?=[ \t]*\??[ \t]*[:(])/gm,
  },
];

// A keyword is renamed only where its placeholder does not occur in the
// source: restoreKeywordNames() sees the same source, and turns back only the
// placeholders that can have come from here.
function _renameKeywords(text: string, source: string): string {
  let out = text;
  for (const { name, as, at } of _renamable(source)) {
    if (!out.includes(name)) continue;
    const inComment = _commentTest(out);
    out = out.replace(
      at,
      (match, offset: number) => inComment(offset) ? match : as,
    );
  }
  return out;
}

// The keywords whose placeholder the source does not write itself.
function _renamable(source: string): typeof KEYWORD_NAMES {
  return KEYWORD_NAMES.filter(({ as }) => !source.includes(as));
}

/** Options for {@linkcode restoreKeywordNames}. */
export interface RestoreOptions {
  /**
   * The text the grammar parsed (prepareTypeScript()'s output, the tree's
   * text): every name and doc is read from it, so when it holds no
   * placeholder, no symbol does, and none is looked at.
   */
  parsed?: string;
}

/**
 * The symbols with the names prepareTypeScript() renamed in `source` put
 * back, in place (in a doc too: the comment test is rough). `source` is the
 * text prepareTypeScript() was given: a placeholder that text writes itself
 * was not made by the pass and stays as written.
 */
export function restoreKeywordNames(
  symbols: OutlineSymbol[],
  source: string,
  options: RestoreOptions = {},
): OutlineSymbol[] {
  // Every placeholder has a "$": most outlines have none, and then the
  // source (megabytes, maybe) is never searched.
  const { parsed } = options;
  const none = parsed === undefined
    ? !_anyDollar(symbols)
    : !PLACEHOLDER_ENDS.some((end) => parsed.includes(end));
  if (none) return symbols;
  const renamed = _renamable(source);
  if (renamed.length === 0) return symbols;
  _restoreAll(symbols, renamed);
  return symbols;
}

// Each placeholder from its "$" on ("$ing", "$tract"): a native search for
// one skips from "$" to "$", few in most texts.
const PLACEHOLDER_ENDS = KEYWORD_NAMES.map(({ as }) =>
  as.slice(as.indexOf("$"))
);

// Plain loops, no callback per symbol: this runs over every symbol of every
// outline, mostly in a fresh worker where each call is interpreted.
function _anyDollar(symbols: OutlineSymbol[]): boolean {
  for (let i = 0; i < symbols.length; i++) {
    const { name, doc, children } = symbols[i];
    if (name.includes("$") || (doc !== undefined && doc.includes("$"))) {
      return true;
    }
    if (children.length > 0 && _anyDollar(children)) return true;
  }
  return false;
}

function _restoreAll(
  symbols: OutlineSymbol[],
  renamed: typeof KEYWORD_NAMES,
): void {
  for (const symbol of symbols) {
    symbol.name = _restore(symbol.name, renamed);
    if (symbol.doc !== undefined) symbol.doc = _restore(symbol.doc, renamed);
    _restoreAll(symbol.children, renamed);
  }
}

function _restore(text: string, renamed: typeof KEYWORD_NAMES): string {
  if (!text.includes("$")) return text;
  let out = text;
  for (const { name, as } of renamed) out = out.replaceAll(as, name);
  return out;
}
