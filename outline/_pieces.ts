// Splitting a large file into pieces that the pool's workers parse side by
// side, and joining their outlines.
//
// A piece starts after a blank line, at a column-0 line that opens with a
// name, a keyword or a preprocessor line (or with comments followed by such
// a line): most often a new top-level declaration. Lines that may go on with
// what is above are never chosen: `(`, `[`, an operator, `else`, `#endif`,
// the language's own (TypeScript's `in`, Swift's `as`), a line after an
// `@annotation` or after a line ending in `\`, a line inside open braces or
// an `#if` block (_nesting.ts). That is still a guess, read by a rough lexer,
// so a split is trusted only when every piece stands alone: no syntax error,
// and a later piece's first code at column 0. A construct cut in two leaves
// a piece unterminated. Doc comments never reach across a blank line.
// Otherwise the file is parsed whole, as without splitting. _pieces_test.ts
// tries splits of real code and made-up inputs; Kotlin is never split (see
// kotlin.ts).
import type { Node } from "web-tree-sitter";
import type { LanguageSpec } from "./languages/_language.ts";
import type { OutlineResult } from "./types.ts";
import { Nesting } from "./_nesting.ts";
import {
  AT,
  BACKSLASH,
  HASH,
  indexOfPair,
  isLetter,
  isNameByte,
  isNameStart,
  lineEnd,
  NEWLINE,
  RETURN,
  skipSpaces,
  SLASH,
  STAR,
} from "./_bytes.ts";

/**
 * Where pieces 2..count of `bytes` start: one boundary in the first half of
 * each share after the first, or fewer (none) when no line there can start a
 * piece. A boundary further on would leave the pieces too uneven to gain
 * from. Shares are even, except that a piece whose worker has yet to start is
 * `headStart` bytes smaller. The language says which of its lines go on with
 * what is above them, and what nests (braces, `#if` blocks): no piece starts
 * inside.
 */
export function pieceStarts(
  bytes: Uint8Array,
  count: number,
  language: Pick<LanguageSpec, "continuation" | "braces" | "preprocessor"> = {},
  { running = count, headStart = 0 }: PieceShares = {},
): number[] {
  const share = bytes.length / count;
  const nesting = language.braces || language.preprocessor
    ? new Nesting(bytes, language)
    : undefined;
  // The pieces after the first `running` ones are `headStart` bytes smaller
  // than those (and still at least half an even share).
  const early = Math.min(count, Math.max(1, running));
  const late = count - early;
  const shorter = Math.min(headStart, bytes.length / (2 * early));
  const size = share + late * shorter / count;
  const starts: number[] = [];
  for (let i = 1; i < count; i++) {
    const from = Math.floor(size * i - shorter * Math.max(0, i - early));
    const start = nextPieceStart(bytes, {
      from,
      to: Math.floor(from + share / 2),
      continuation: language.continuation,
      nesting,
    });
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

/** How {@linkcode pieceStarts} shares a file between workers. */
export interface PieceShares {
  /** How many workers are running; the others start later. Defaults to all. */
  running?: number;
  /** How many bytes fewer a worker yet to start gets. */
  headStart?: number;
}

/** Options for {@linkcode nextPieceStart}. */
export interface PieceStartOptions {
  /** Where to look from (a byte index). */
  from: number;
  /** Where to stop looking; defaults to the end. */
  to?: number;
  /** The language's lines that go on with the statement above. */
  continuation?: RegExp;
  /** What is open where: no piece starts inside a block. */
  nesting?: Nesting;
}

/** The first line after a newline in [from, to) that may start a piece. */
export function nextPieceStart(
  bytes: Uint8Array,
  { from, to = bytes.length, continuation, nesting }: PieceStartOptions,
): number | undefined {
  const scan = new _Scan(bytes);
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
      _opensPiece(bytes, scan.codeAfterComments(start), continuation) &&
      !scan.holdsOn(newline) && !nesting?.openAt(start)
    ) {
      return start;
    }
  }
  return undefined;
}

// The scans of one search, which remember what they passed: each candidate
// scans forward past comments and backward over them, and without memory a
// run of comment and blank lines (or an unclosed block comment) would be
// scanned again from each of its blank lines, in time quadratic in its
// length. Both scans depend only on where they start, so every position
// passed keeps the answer found.
class _Scan {
  readonly #bytes: Uint8Array;
  /** Line starts passed by forward scans, and the code each reached. */
  readonly #code = new Map<number, number>();
  /** Line ends passed by backward scans, and whether the code held on. */
  readonly #holds = new Map<number, boolean>();
  /** The first `*` `/` at or after `from` is at `at` (-1: there is none). */
  #close = { from: Infinity, at: -1 };

  constructor(bytes: Uint8Array) {
    this.#bytes = bytes;
  }

  // Where the code starts from the line start `at`: past `//` lines, `/* */`
  // blocks and blank lines (a piece may open with the doc comment of its
  // first declaration, and then that declaration is what must open the
  // piece); -1 when code follows a block comment on its closing line.
  codeAfterComments(at: number): number {
    const bytes = this.#bytes;
    const passed: number[] = [];
    let code: number | undefined;
    while (code === undefined) {
      code = this.#code.get(at);
      if (code !== undefined) break;
      passed.push(at);
      if (bytes[at] === SLASH && bytes[at + 1] === SLASH) {
        at = lineEnd(bytes, at) + 1;
      } else if (bytes[at] === SLASH && bytes[at + 1] === STAR) {
        const close = this.#closeAfter(at + 2);
        if (close === -1) code = bytes.length;
        else {
          at = skipSpaces(bytes, close + 2);
          if (bytes[at] === RETURN) at++;
          if (bytes[at] !== NEWLINE && at < bytes.length) code = -1;
          at++;
        }
      } else if (bytes[at] === NEWLINE || bytes[at] === RETURN) {
        at = lineEnd(bytes, at) + 1;
      } else {
        code = at;
      }
    }
    for (const line of passed) this.#code.set(line, code);
    return code;
  }

  // Whether the code above the blank line before a candidate holds on to
  // what follows: its last code line (comments skipped) is an annotation or
  // a decorator (`@Override`, `@dataclass`), or a line ends in `\`.
  holdsOn(newline: number): boolean {
    const bytes = this.#bytes;
    const passed: number[] = [];
    let holds: boolean | undefined;
    for (let end = newline; holds === undefined && end > 0;) {
      holds = this.#holds.get(end);
      if (holds !== undefined) break;
      passed.push(end);
      const start = bytes.lastIndexOf(NEWLINE, end - 1) + 1;
      let last = end;
      while (last > start && _isSpace(bytes[last - 1])) last--;
      const at = skipSpaces(bytes, start);
      if (at < last && bytes[last - 1] === BACKSLASH) holds = true;
      else if (at < last && !_isCommentLine(bytes, at)) {
        holds = bytes[at] === AT;
      }
      end = start - 1;
    }
    for (const end of passed) this.#holds.set(end, holds ?? false);
    return holds ?? false;
  }

  // The first `*/` from `from`. Asked again from inside the same stretch,
  // the answer is the same: scanned once.
  #closeAfter(from: number): number {
    const known = this.#close;
    if (from >= known.from && (known.at === -1 || from <= known.at)) {
      return known.at;
    }
    const at = indexOfPair(this.#bytes, from, STAR, SLASH);
    this.#close = { from, at };
    return at;
  }
}

// Whether the line at `at` may open a piece: at column 0, a name or keyword
// (but not one that goes on with the statement above) or a preprocessor line
// (`#` and a letter). Not `(`, `[`, `` ` ``, an operator or `.`, which could
// continue the statement above (JavaScript inserts no semicolon before them),
// nor `{`, `}`, `<` or `#!`.
function _opensPiece(
  bytes: Uint8Array,
  at: number,
  continuation: RegExp | undefined,
): boolean {
  if (at < 0 || at >= bytes.length) return false;
  const byte = bytes[at];
  const opens = byte === HASH ? isLetter(bytes[at + 1]) : isNameStart(byte);
  return opens && !_continues(bytes, at) &&
    !continuation?.test(_lineStart(bytes, at));
}

// The first characters of the line at `at`, enough for a keyword test (as
// Latin-1: keywords are ASCII).
function _lineStart(bytes: Uint8Array, at: number): string {
  return String.fromCharCode(...bytes.subarray(at, at + 16));
}

// Words that go on with what is above them (`} else {` written on two lines,
// an `#endif`, Kotlin's `get()` of a property): a piece starting there could
// never stand alone, or would cut a declaration in two.
const CONTINUATIONS = [
  "else",
  "elif",
  "except",
  "finally",
  "catch",
  "get",
  "set",
  "by",
  "#else",
  "#elif",
  "#elifdef",
  "#elifndef",
  "#endif",
].map((word) => new TextEncoder().encode(word));

function _continues(bytes: Uint8Array, at: number): boolean {
  return CONTINUATIONS.some((word) => {
    for (let i = 0; i < word.length; i++) {
      if (bytes[at + i] !== word[i]) return false;
    }
    return !isNameByte(bytes[at + word.length]);
  });
}

// `//`, `/*`, a `*` inside a block comment, or `#` and no letter (a Python
// comment, not a preprocessor line).
function _isCommentLine(bytes: Uint8Array, at: number): boolean {
  const byte = bytes[at];
  if (byte === HASH) return !isLetter(bytes[at + 1]);
  if (byte === STAR) return true;
  return byte === SLASH &&
    (bytes[at + 1] === SLASH || bytes[at + 1] === STAR);
}

// Spaces, tabs and the CR of a CRLF line end.
function _isSpace(byte: number | undefined): boolean {
  return byte === 32 || byte === 9 || byte === RETURN;
}
