// The syntax errors of a parsed text, as the edit tools check them:
// tree-sitter's ERROR nodes (text the grammar could not place) and MISSING
// nodes (a token it inserted to go on). Runs inside the outline worker.
import type { Node } from "web-tree-sitter";
import type { SyntaxErrorInfo } from "./types.ts";

/** Errors listed per text at most; past it they are only counted. */
const MAX_LISTED = 10_000;
/** The longest source line shown whole; a longer one is cut around the column. */
const MAX_SHOWN_CHARS = 160;
/** Characters shown before the column on a line that is cut. */
const SHOWN_BEFORE = 60;
/** The most of an ERROR node's first line quoted as "unexpected". */
const MAX_QUOTED_CHARS = 20;

/** A text's errors: how many, and the first of them listed. */
export interface SyntaxErrors {
  count: number;
  listed: SyntaxErrorInfo[];
}

/**
 * The errors under `root`, in text order. An ERROR node counts once, with
 * what it holds (inside it, the grammar's recovery leaves no meaning);
 * `source` is the text as written (lines shown from it), whose offsets the
 * parsed text keeps.
 */
export function syntaxErrors(root: Node, source: string): SyntaxErrors {
  const found: SyntaxErrors = { count: 0, listed: [] };
  if (!root.hasError) return found;
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.isError || node.isMissing) {
      found.count++;
      if (found.listed.length < MAX_LISTED) {
        found.listed.push(_describe(node, source));
      }
      continue;
    }
    if (!node.hasError) continue;
    for (let i = node.childCount - 1; i >= 0; i--) stack.push(node.child(i)!);
  }
  return found;
}

/**
 * The errors of `after` that `before` did not have: an error is the same
 * when its kind, column and source line are (wherever the line moved), each
 * old error standing for one new one at most.
 */
export function addedErrors(
  before: SyntaxErrorInfo[],
  after: SyntaxErrorInfo[],
): SyntaxErrorInfo[] {
  const old = new Map<string, number>();
  for (const error of before) {
    const key = _key(error);
    old.set(key, (old.get(key) ?? 0) + 1);
  }
  return after.filter((error) => {
    const key = _key(error);
    const left = old.get(key) ?? 0;
    if (left > 0) old.set(key, left - 1);
    return left === 0;
  });
}

function _key(error: SyntaxErrorInfo): string {
  return `${
    error.missing ?? error.unexpected
  }\0${error.column}\0${error.source}`;
}

function _describe(node: Node, source: string): SyntaxErrorInfo {
  const { row, column } = node.startPosition;
  const lineStart = node.startIndex - column;
  let lineEnd = source.indexOf("\n", lineStart);
  if (lineEnd === -1) lineEnd = source.length;
  if (source.charCodeAt(lineEnd - 1) === 13) lineEnd--;
  const line = source.slice(lineStart, Math.max(lineStart, lineEnd));
  const { shown, caret } = _window(line, column);
  const info: SyntaxErrorInfo = {
    line: row + 1,
    column: column + 1,
    source: shown,
    caret,
  };
  if (node.isMissing) {
    info.missing = node.type;
  } else {
    const text = line.slice(column, node.endIndex - lineStart).trim();
    info.unexpected = text.length > MAX_QUOTED_CHARS
      ? `${text.slice(0, MAX_QUOTED_CHARS)}…`
      : text;
  }
  return info;
}

// The line, or the part of a long one around `column`, and the caret's
// place in what is shown.
function _window(
  line: string,
  column: number,
): { shown: string; caret: number } {
  if (line.length <= MAX_SHOWN_CHARS) return { shown: line, caret: column };
  const from = Math.max(0, column - SHOWN_BEFORE);
  const to = Math.min(line.length, from + MAX_SHOWN_CHARS);
  const head = from > 0 ? "…" : "";
  const tail = to < line.length ? "…" : "";
  return {
    shown: `${head}${line.slice(from, to)}${tail}`,
    caret: column - from + head.length,
  };
}
