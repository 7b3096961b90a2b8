// Incremental re-parsing inside a worker: the last trees of a few small files
// are kept with their text; when such a file comes back changed (an EditFile,
// say), the old tree is edited to match and tree-sitter reuses its unchanged
// parts. Indices and columns are UTF-16 code units, as web-tree-sitter counts
// them for string input.
import type { Edit, Point, Tree } from "web-tree-sitter";

/** Files larger than this (in UTF-16 code units) are parsed from scratch and not kept. */
const MAX_KEPT_LENGTH = 1 << 20;
/** How many trees one worker keeps. */
const MAX_KEPT_TREES = 4;

/** A kept tree and what it was parsed from. */
export interface Kept {
  /** Which parser (grammar) made the tree. */
  parser: string;
  /** The text parsed (after the language's text pass, if it has one). */
  text: string;
  /** The file's text before that pass. */
  source: string;
  tree: Tree;
  /** The version a syntax check gave `source` (see SyntaxRequest.version). */
  version?: number;
}

/** The kept trees of one worker, least recently used first. */
export class TreeKeeper {
  #kept = new Map<string, Kept>();

  /**
   * Takes the kept tree of `path` if `parser` made it, edited to match
   * `text`; the caller owns it (parse with it, then delete it).
   */
  take(path: string, parser: string, text: string): Tree | null {
    const kept = this.takeKept(path, parser);
    if (kept === null) return null;
    if (text.length > MAX_KEPT_LENGTH) {
      kept.tree.delete();
      return null;
    }
    kept.tree.edit(textEdit(kept.text, text) as Edit);
    return kept.tree;
  }

  /** Whether a tree of `path` that `parser` made is kept. */
  has(path: string, parser: string): boolean {
    return this.#kept.get(path)?.parser === parser;
  }

  /**
   * Takes the kept tree of `path` as it was kept, if `parser` made it; the
   * caller owns the tree.
   */
  takeKept(path: string, parser: string): Kept | null {
    const kept = this.#kept.get(path);
    if (kept === undefined) return null;
    this.#kept.delete(path);
    if (kept.parser !== parser) {
      kept.tree.delete();
      return null;
    }
    return kept;
  }

  /**
   * Keeps `tree`, parsed from `text` (`source` before the text pass), for
   * `path`, or deletes it when the file is too large.
   */
  keep(
    path: string,
    { parser, text, source, tree, version }: Kept,
  ): void {
    if (text.length > MAX_KEPT_LENGTH) {
      tree.delete();
      return;
    }
    this.#kept.get(path)?.tree.delete();
    this.#kept.delete(path);
    this.#kept.set(path, { parser, text, source, tree, version });
    for (const [oldest, kept] of this.#kept) {
      if (this.#kept.size <= MAX_KEPT_TREES) break;
      kept.tree.delete();
      this.#kept.delete(oldest);
    }
  }
}

/** The largest block textEdit() compares at once; then eight times smaller. */
const BLOCK = 4096;

/** The shape of a tree-sitter edit (web-tree-sitter's `Edit` fields). */
export interface TextEdit {
  startIndex: number;
  oldEndIndex: number;
  newEndIndex: number;
  startPosition: Point;
  oldEndPosition: Point;
  newEndPosition: Point;
}

/**
 * The single edit turning `before` into `after`: everything between their
 * common prefix and common suffix was replaced.
 */
export function textEdit(before: string, after: string): TextEdit {
  const { start, oldEnd, newEnd } = changedSpan(before, after);
  const startPosition = _pointAt(before, start);
  return {
    startIndex: start,
    oldEndIndex: oldEnd,
    newEndIndex: newEnd,
    startPosition,
    oldEndPosition: _advance(before, start, oldEnd, startPosition),
    newEndPosition: _advance(after, start, newEnd, startPosition),
  };
}

/**
 * Where `before` and `after` differ: `after`'s [start, newEnd) in place of
 * `before`'s [start, oldEnd), between their common prefix and suffix.
 */
export function changedSpan(
  before: string,
  after: string,
): { start: number; oldEnd: number; newEnd: number } {
  const limit = Math.min(before.length, after.length);
  // Blocks compared as strings first (a native comparison, tens of times
  // faster than a character loop over a large file), then smaller ones.
  let start = 0;
  for (let step = BLOCK; step >= 1; step >>= 3) {
    while (
      start + step <= limit &&
      before.slice(start, start + step) === after.slice(start, start + step)
    ) {
      start += step;
    }
  }
  // Never split a surrogate pair.
  if (start > 0 && _isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let suffix = 0;
  for (let step = BLOCK; step >= 1; step >>= 3) {
    while (
      suffix + step <= limit - start &&
      before.slice(before.length - suffix - step, before.length - suffix) ===
        after.slice(after.length - suffix - step, after.length - suffix)
    ) {
      suffix += step;
    }
  }
  if (
    suffix > 0 && _isLowSurrogate(before.charCodeAt(before.length - suffix))
  ) {
    suffix--;
  }
  return {
    start,
    oldEnd: before.length - suffix,
    newEnd: after.length - suffix,
  };
}

function _pointAt(text: string, index: number): Point {
  return _advance(text, 0, index, { row: 0, column: 0 });
}

// The point at `to`, counting from `from` whose point is `point`.
function _advance(text: string, from: number, to: number, point: Point): Point {
  let row = point.row;
  let lineStart = from - point.column;
  for (
    let at = text.indexOf("\n", from);
    at !== -1 && at < to;
    at = text.indexOf("\n", at + 1)
  ) {
    row++;
    lineStart = at + 1;
  }
  return { row, column: to - lineStart };
}

function _isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function _isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
