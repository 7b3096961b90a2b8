// A parameter `using` or a member `abstract` (`f(using: any)`, `abstract?:
// string`): tree-sitter-typescript@0.23.2 starts a declaration and gives a
// syntax error. Renamed before the parse and put back after. It can go when the
// keyword tests of _ts_text_test.ts pass with renameKeywords out of REPAIRS.
import type { OutlineSymbol } from "../../../types.ts";
import { commentTest } from "./_comments.ts";

/**
 * Keywords the grammar takes for a declaration where TypeScript reads a name:
 * a parameter `using` (`findProviders(using: any, ...)`, in Angular) starts a
 * `using` declaration, and a member `abstract` (`abstract?: string`, in
 * Next.js's Metadata) an abstract signature; either is a syntax error that
 * costs the symbols around it. Written as names of the same length, and put
 * back by restoreKeywordNames(). `$` is a name character, so a source may
 * write a placeholder itself: such a source keeps that keyword as it is (see
 * renameKeywords()), and only then is that placeholder never put back.
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
export function renameKeywords(text: string, source: string): string {
  let out = text;
  for (const { name, as, at } of _renamable(source)) {
    if (!out.includes(name)) continue;
    const inComment = commentTest(out);
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
