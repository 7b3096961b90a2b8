// A symbol of a file's text found by its name path, for ReadFile `symbol`
// and EditSymbol: the outline of exactly the text the tool holds, the name
// resolved in it, and the symbol's lines with its doc comment.
import { docStartLine } from "../outline/doc_start.ts";
import {
  type NamedSymbol,
  namedSymbols,
  resolveNamePath,
} from "../outline/name_path.ts";
import type { OutlineSymbol } from "../outline/types.ts";
import { outlineText } from "../outline/outline.ts";
import {
  SUPPORTED_EXTENSIONS,
  supportedExtension,
} from "../outline/supported.ts";
import { ToolError } from "../internal/tool_error.ts";
import type { FileTarget } from "./file_errors.ts";
import type { SymbolRange } from "./types.ts";

/** A symbol found in a text: its range, and where its lines are in the text. */
export interface FoundSymbol extends SymbolRange {
  /** The index of its first line's first character. */
  start: number;
  /** The index just past its last line, that line's break included (if any). */
  end: number;
  /** The text's line count (a final newline does not start a line). */
  totalLines: number;
  /**
   * Another symbol on the symbol's lines that is not inside it (two
   * declarations on one line, or a parent that starts or ends there): those
   * lines cannot be replaced for this symbol alone.
   */
  sharedWith?: NamedSymbol;
}

/**
 * The symbol `query` names in `text`, the content of `target`. Throws a
 * ToolError naming the file for a file type without an outline, an unknown
 * name (with the nearest) or an ambiguous one (with every candidate).
 */
export async function findSymbol(
  target: FileTarget,
  text: string,
  query: string,
  signal?: AbortSignal,
): Promise<FoundSymbol> {
  if (supportedExtension(target.path) === undefined) {
    throw new ToolError(
      `Cannot ${target.verb} "${target.display}" by symbol: its file type has no outline (supported extensions: ${
        SUPPORTED_EXTENSIONS.join(", ")
      }); use line numbers or exact text instead`,
    );
  }
  const outline = await outlineText(target.path, text, { signal });
  const lines = text.split("\n");
  const startOf = (symbol: Parameters<typeof docStartLine>[1]) =>
    docStartLine(lines, symbol, outline.language);
  const { path, symbol } = resolveNamePath(outline.symbols, query, {
    file: target.display,
    verb: target.verb,
    startOf,
  });
  const startLine = startOf(symbol);
  // The outline never ends a symbol past the text; a last empty "line" after
  // a final newline is none.
  const endLine = Math.min(symbol.endLine, outline.totalLines);
  const sharedWith = sharing(outline.symbols, symbol, {
    startLine,
    endLine,
    // Where no brace closes a block, a parent ends on its last child's line.
    endsWithChild: outline.language === "Python" ||
      outline.language === "Markdown",
  });
  return {
    ...(sharedWith === undefined ? {} : { sharedWith }),
    name: path,
    kind: symbol.kind,
    startLine,
    endLine,
    start: lineStart(lines, startLine),
    end: Math.min(text.length, lineStart(lines, endLine + 1)),
    totalLines: outline.totalLines,
  };
}

/** The index in the text of line `line` (1-based) of `lines`. */
function lineStart(lines: readonly string[], line: number): number {
  let index = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) {
    index += lines[i].length + 1;
  }
  return index;
}

/**
 * The first symbol that has lines in `range` (the lines of `target`) and is
 * not inside `target`: a parent starting (or, unless `endsWithChild`, ending)
 * there, or any other.
 */
function sharing(
  symbols: OutlineSymbol[],
  target: OutlineSymbol,
  range: { startLine: number; endLine: number; endsWithChild: boolean },
): NamedSymbol | undefined {
  const inside = new Set<OutlineSymbol>();
  const collect = (symbol: OutlineSymbol): void => {
    inside.add(symbol);
    symbol.children.forEach(collect);
  };
  collect(target);
  return namedSymbols(symbols).find(({ symbol }) => {
    if (inside.has(symbol)) return false;
    if (symbol.endLine < range.startLine || symbol.startLine > range.endLine) {
      return false;
    }
    // A parent holding all the lines, starting and ending outside them.
    const holds = symbol.startLine < range.startLine &&
      (symbol.endLine > range.endLine ||
        range.endsWithChild && symbol.endLine === range.endLine);
    return !holds;
  });
}
