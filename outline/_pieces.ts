// Splitting a large file into pieces that the pool's workers parse side by
// side, and joining their outlines.
//
// A piece starts after a blank line, at a line that opens at column 0 with a
// name, a keyword, a preprocessor line or a comment: most often a new
// top-level declaration. That is only a guess (the line may sit inside a
// function, a string or an `#if` block), so a split is trusted only when
// every piece parses without a syntax error on its own: a construct cut in
// two leaves one piece unterminated. Doc comments never reach across a blank
// line, so no comment is separated from its symbol. Otherwise the file is
// parsed whole, as it would have been without splitting.
import type { Node } from "web-tree-sitter";
import type { LanguageSpec } from "./languages/_language.ts";
import type { OutlineResult } from "./types.ts";

const NEWLINE = 10;
const RETURN = 13;

/**
 * Where pieces 2..count of `bytes` start: one boundary in the first half of
 * each even share after the first, or fewer (none) when no line there can
 * start a piece. A boundary further on would leave the pieces too uneven to
 * gain from.
 */
export function pieceStarts(bytes: Uint8Array, count: number): number[] {
  const share = bytes.length / count;
  const starts: number[] = [];
  for (let i = 1; i < count; i++) {
    const from = Math.floor(share * i);
    const start = nextPieceStart(bytes, from, Math.floor(from + share / 2));
    if (start !== undefined) starts.push(start);
  }
  return starts;
}

/**
 * Whether a piece's tree can stand for its part of the file: no syntax error,
 * and a later piece's first code at column 0 (a comment at column 0 does not
 * end a Python block, so indented code may follow it).
 */
export function standsAlone(root: Node, first: boolean): boolean {
  if (root.hasError) return false;
  if (first) return true;
  for (const child of root.namedChildren) {
    if (!child.type.includes("comment")) {
      return child.startPosition.column === 0;
    }
  }
  return true;
}

/**
 * The outline of a whole file from the outlines of its pieces, in order (their
 * lines already counted from the start of the file).
 */
export function joinPieces(
  spec: LanguageSpec,
  pieces: readonly OutlineResult[],
): OutlineResult {
  const symbols = pieces.map((piece) => piece.symbols);
  return {
    language: spec.name,
    totalLines: pieces.reduce((sum, piece) => sum + piece.totalLines, 0),
    symbols: spec.join ? spec.join(symbols) : symbols.flat(),
  };
}

/** The first line after a newline in [from, to) that may start a piece. */
export function nextPieceStart(
  bytes: Uint8Array,
  from: number,
  to: number = bytes.length,
): number | undefined {
  for (
    let newline = bytes.indexOf(NEWLINE, from);
    newline !== -1 && newline < to;
    newline = bytes.indexOf(NEWLINE, newline + 1)
  ) {
    // A blank line (LF or CRLF) after this newline, then the candidate.
    let at = newline + 1;
    if (bytes[at] === RETURN) at++;
    if (bytes[at] !== NEWLINE) continue;
    const start = at + 1;
    if (
      _opensItem(bytes, start) && !_closesBlock(bytes, start) &&
      !_annotationAbove(bytes, newline)
    ) {
      return start;
    }
  }
  return undefined;
}

// A letter, `_`, `$` or `#` at column 0, or a comment: not `(`, `[`, `` ` ``,
// an operator or `.`, which could continue the statement above (JavaScript
// inserts no semicolon before them), nor `{` or `}`.
function _opensItem(bytes: Uint8Array, at: number): boolean {
  const byte = bytes[at];
  if (byte === 35 || _isNameStart(byte)) return true;
  return byte === 47 && (bytes[at + 1] === 47 || bytes[at + 1] === 42);
}

// Words that go on with a statement above (`} else {` written on two lines,
// an `#endif`): a piece starting there could never stand alone, so skip them
// rather than waste the split.
const CONTINUATIONS = [
  "else",
  "elif",
  "except",
  "finally",
  "catch",
  "#else",
  "#elif",
  "#elifdef",
  "#elifndef",
  "#endif",
].map((word) => new TextEncoder().encode(word));

function _closesBlock(bytes: Uint8Array, at: number): boolean {
  return CONTINUATIONS.some((word) => {
    for (let i = 0; i < word.length; i++) {
      if (bytes[at + i] !== word[i]) return false;
    }
    return !_isNameByte(bytes[at + word.length]);
  });
}

function _isNameStart(byte: number | undefined): boolean {
  return byte !== undefined &&
    ((byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) ||
      byte === 95 || byte === 36);
}

function _isNameByte(byte: number | undefined): boolean {
  return _isNameStart(byte) || (byte !== undefined && byte >= 48 && byte <= 57);
}

// Whether the last non-blank line before `newline` is an annotation or a
// decorator (`@Override`, `@dataclass`), which belongs to what follows.
function _annotationAbove(bytes: Uint8Array, newline: number): boolean {
  let end = newline;
  while (end > 0) {
    const start = bytes.lastIndexOf(NEWLINE, end - 1) + 1;
    let at = start;
    while (at < end && (bytes[at] === 32 || bytes[at] === 9)) at++;
    if (at < end && bytes[at] !== RETURN) return bytes[at] === 64;
    end = start - 1;
  }
  return false;
}
