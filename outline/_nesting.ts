// What is open at a point of a file, read by a rough lexer: braces, and
// preprocessor conditionals (`#if` ... `#endif`). A piece of a large file
// starting inside either could never stand alone (a bundle's body inside its
// wrapper function, most of sqlite3.c inside some `#if`, a header inside its
// include guard), so the split is not tried there. Being rough is safe: a
// miscount only skips a split, or tries one that the parse then refuses.

import {
  BACKSLASH,
  HASH,
  indexOfPair,
  isLetter,
  lineEnd,
  NEWLINE,
  skipSpaces,
  SLASH,
  SPACE,
  STAR,
  TAB,
} from "./_bytes.ts";

const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const QUOTES = new Set([34, 39, 96]); // " ' `

/** What nests in a language. */
export interface NestingRules {
  /** Blocks are braces. */
  braces?: boolean;
  /** `#if` ... `#endif` blocks (C, C++, Swift). */
  preprocessor?: boolean;
}

// The bytes the reader stops at; every other byte is skipped by one table
// lookup.
const PLAIN = 0;
const HASH_BYTE = 1;
const SLASH_BYTE = 2;
const QUOTE_BYTE = 3;
const OPEN_BYTE = 4;
const CLOSE_BYTE = 5;
const KINDS = new Uint8Array(256);
KINDS[HASH] = HASH_BYTE;
KINDS[SLASH] = SLASH_BYTE;
for (const quote of QUOTES) KINDS[quote] = QUOTE_BYTE;
KINDS[OPEN_BRACE] = OPEN_BYTE;
KINDS[CLOSE_BRACE] = CLOSE_BYTE;

/** Reads a file forward once, asked at rising byte indexes. */
export class Nesting {
  #bytes: Uint8Array;
  #rules: NestingRules;
  #at = 0;
  #braces = 0;
  #conditionals = 0;

  constructor(bytes: Uint8Array, rules: NestingRules) {
    this.#bytes = bytes;
    this.#rules = rules;
  }

  /** Whether a brace or a conditional is open at `index` (a line start). */
  openAt(index: number): boolean {
    const bytes = this.#bytes;
    let at = this.#at;
    while (at < index) {
      const kind = KINDS[bytes[at]];
      if (kind === PLAIN) {
        at++;
      } else if (kind === OPEN_BYTE) {
        this.#braces++;
        at++;
      } else if (kind === CLOSE_BYTE) {
        this.#braces--;
        at++;
      } else if (kind === QUOTE_BYTE) {
        at = _stringEnd(bytes, at);
      } else if (kind === SLASH_BYTE) {
        at = _commentEnd(bytes, at);
      } else if (this.#rules.preprocessor && _firstOnLine(bytes, at)) {
        at = this.#directive(at);
      } else {
        at++;
      }
    }
    this.#at = at;
    return (this.#rules.braces === true && this.#braces > 0) ||
      this.#conditionals > 0;
  }

  // A preprocessor line, continued lines included: counts `#if...` and
  // `#endif`, skips the rest (a `#define` may hold anything). Returns where
  // it ends.
  #directive(hash: number): number {
    const bytes = this.#bytes;
    const word = skipSpaces(bytes, hash + 1);
    if (_startsWith(bytes, word, "endif")) this.#conditionals--;
    else if (_startsWith(bytes, word, "if")) this.#conditionals++;
    let end = lineEnd(bytes, hash);
    while (bytes[end - 1] === BACKSLASH && end < bytes.length) {
      end = lineEnd(bytes, end + 1);
    }
    return end;
  }
}

// Past a comment at `at` (to its line's end, or its `*/`), or past a lone `/`.
function _commentEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at + 1] === SLASH) return lineEnd(bytes, at);
  if (bytes[at + 1] !== STAR) return at + 1;
  const end = indexOfPair(bytes, at + 2, STAR, SLASH);
  return end === -1 ? bytes.length : end + 2;
}

// Whether only spaces stand between the line's start and `at`.
function _firstOnLine(bytes: Uint8Array, at: number): boolean {
  let before = at - 1;
  while (before >= 0 && (bytes[before] === SPACE || bytes[before] === TAB)) {
    before--;
  }
  return before < 0 || bytes[before] === NEWLINE;
}

// Where the string opening at `at` ends (just past its closing quote). A
// tripled quote (Swift, Dart, Python) runs to the same three; a backtick
// string may span lines; any other stops at its line's end, unclosed.
function _stringEnd(bytes: Uint8Array, at: number): number {
  const quote = bytes[at];
  if (bytes[at + 1] === quote && bytes[at + 2] === quote) {
    for (let i = at + 3; i < bytes.length; i++) {
      if (bytes[i] === BACKSLASH) i++;
      else if (
        bytes[i] === quote && bytes[i + 1] === quote && bytes[i + 2] === quote
      ) return i + 3;
    }
    return bytes.length;
  }
  for (let i = at + 1; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte === BACKSLASH) i++;
    else if (byte === quote) return i + 1;
    else if (byte === NEWLINE && quote !== 96) return i;
  }
  return bytes.length;
}

// Whether the directive at `at` is `word`; `if` also matches `ifdef` and
// `ifndef`.
function _startsWith(bytes: Uint8Array, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    if (bytes[at + i] !== word.charCodeAt(i)) return false;
  }
  return word === "if" || !isLetter(bytes[at + word.length]);
}
