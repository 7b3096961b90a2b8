// Where Swift's code bodies are, found by a scan of the text before the
// parse: the insides of the braces of functions, initializers, subscripts and
// properties (accessors, observers, closures that initialize). The outline
// lists no symbol inside them, so the grammar is given the text without them
// (tree-sitter's included ranges), which parses several times faster: the
// grammar's own parse is what a Swift outline spends its time on. Type
// bodies (class, struct, enum, extension, actor, protocol) are scanned, and
// so is whatever the scan cannot place. Runs inside the outline worker only.
import { nestedCommentEnd } from "../_nested_comment.ts";

/** Words that start a declaration whose braces hold code. */
const CODE = new Set(["func", "init", "deinit", "subscript", "var", "let"]);

/** Words that start a declaration whose braces hold declarations. */
const TYPES = new Set(["class", "struct", "enum", "extension", "actor"]);

/** Declaration words besides: what follows them is not one of the above. */
const OTHER = new Set([
  "import",
  "typealias",
  "associatedtype",
  "case",
  "operator",
  "precedencegroup",
  "macro",
]);

// A brace block of declarations being scanned: the word that started the
// declaration now being read, and the depth of ( and [ it is at.
interface Block {
  protocol: boolean;
  word: string | undefined;
  nesting: number;
}

/**
 * The code bodies of `source`, as [start, end) pairs of UTF-16 offsets
 * (inside the braces, which stay), in order; undefined when the scan cannot
 * tell (unbalanced braces, an unterminated string or comment), and the file
 * is then parsed whole.
 *
 * @example The body of a method, not the struct's
 * ```ts
 * import { codeBodies } from "./_code_bodies.ts";
 * import assert from "node:assert/strict";
 *
 * const text = "struct S {\n  func f() { g() }\n}\n";
 * const [[start, end]] = codeBodies(text)!;
 * assert.equal(text.slice(start, end), " g() ");
 * ```
 */
export function codeBodies(source: string): [number, number][] | undefined {
  const bodies: [number, number][] = [];
  const blocks: Block[] = [{ protocol: false, word: undefined, nesting: 0 }];
  let afterDot = false;
  let i = 0;
  while (i < source.length) {
    const code = source.charCodeAt(i);
    const skipped = _skipQuoted(source, i);
    if (skipped === -1) return undefined;
    if (skipped !== i) {
      i = skipped;
      afterDot = false;
      continue;
    }
    const block = blocks[blocks.length - 1];
    if (_isWordStart(code)) {
      let end = i + 1;
      while (end < source.length && _isWordPart(source.charCodeAt(end))) end++;
      const word = source.slice(i, end);
      // `protocol P: class` is still a protocol.
      if (
        !afterDot && block.nesting === 0 &&
        (CODE.has(word) || TYPES.has(word) || OTHER.has(word) ||
          word === "protocol") &&
        !(block.word === "protocol" && word === "class")
      ) block.word = word;
      afterDot = false;
      i = end;
      continue;
    }
    if (code === 0x2e /* . */) {
      afterDot = true;
      i++;
      continue;
    }
    if (code > 0x20) afterDot = false;
    if (code === 0x28 /* ( */ || code === 0x5b /* [ */) block.nesting++;
    else if (code === 0x29 /* ) */ || code === 0x5d /* ] */) {
      block.nesting = Math.max(0, block.nesting - 1);
    } else if (code === 0x3b /* ; */ && block.nesting === 0) {
      block.word = undefined;
    } else if (code === 0x7b /* { */) {
      const word = block.nesting === 0 && !block.protocol
        ? block.word
        : undefined;
      if (word !== undefined && (TYPES.has(word) || word === "protocol")) {
        block.word = undefined;
        blocks.push({
          protocol: word === "protocol",
          word: undefined,
          nesting: 0,
        });
        i++;
        continue;
      }
      const close = _blockEnd(source, i);
      if (close === -1) return undefined;
      if (word !== undefined && CODE.has(word) && close > i + 1) {
        bodies.push([i + 1, close]);
      }
      // A closure inside ( or [ (a default argument, an attribute's
      // argument) is part of the declaration being read.
      if (block.nesting === 0) block.word = undefined;
      i = close + 1;
      continue;
    } else if (code === 0x7d /* } */) {
      if (blocks.length === 1) return undefined;
      blocks.pop();
      blocks[blocks.length - 1].word = undefined;
    }
    i++;
  }
  return blocks.length === 1 ? bodies : undefined;
}

// The index of the } that closes the { at `open`, or -1.
function _blockEnd(source: string, open: number): number {
  return _closing(source, open, 0x7b, 0x7d);
}

// The index of the `close` that closes the `open` character at `at` (past
// comments and strings), or -1.
function _closing(
  source: string,
  at: number,
  open: number,
  close: number,
  nesting = 0,
): number {
  let depth = 0;
  let i = at;
  while (i < source.length) {
    const skipped = _skipQuoted(source, i, nesting);
    if (skipped === -1) return -1;
    if (skipped !== i) {
      i = skipped;
      continue;
    }
    const code = source.charCodeAt(i);
    if (code === open) depth++;
    else if (code === close && --depth === 0) return i;
    i++;
  }
  return -1;
}

// The index after a comment, string, `#/regex/#` or `backtick name` that
// starts at `i`; `i` itself when none does; -1 when it never ends.
function _skipQuoted(source: string, i: number, nesting = 0): number {
  const code = source.charCodeAt(i);
  if (code === 0x2f /* / */) {
    const next = source.charCodeAt(i + 1);
    if (next === 0x2f) {
      const end = source.indexOf("\n", i);
      return end === -1 ? source.length : end;
    }
    if (next === 0x2a) {
      const end = nestedCommentEnd(source, i);
      return source.startsWith("*/", end - 2) && end - 2 > i ? end : -1;
    }
    return i;
  }
  if (code === 0x60 /* ` */) {
    let end = i + 1;
    while (end < source.length) {
      const next = source.charCodeAt(end);
      if (next === 0x60) return end + 1;
      if (next === 0x0a) break;
      end++;
    }
    // A lone backtick (in broken code) is not a name: read on past it.
    return i + 1;
  }
  if (code !== 0x22 /* " */ && code !== 0x23 /* # */) return i;
  let hashes = 0;
  while (source.charCodeAt(i + hashes) === 0x23) hashes++;
  const quote = source.charCodeAt(i + hashes);
  if (quote === 0x2f && hashes > 0) {
    const end = source.indexOf("/" + "#".repeat(hashes), i + hashes + 1);
    return end === -1 ? -1 : end + 1 + hashes;
  }
  // A run of #s is read at once: one at a time, each would count the rest.
  if (quote !== 0x22) return i + hashes;
  return _stringEnd(source, i + hashes, hashes, nesting);
}

/** Strings inside interpolations inside strings, at most (then the scan gives up). */
const MAX_NESTING = 16;

// The index after the string literal whose opening quote is at `quote`,
// with `hashes` #s around it; -1 when it never ends. Interpolations
// (`\(...)`, `\#(...)` in a raw string) may hold strings of their own.
function _stringEnd(
  source: string,
  quote: number,
  hashes: number,
  nesting: number,
): number {
  if (nesting >= MAX_NESTING) return -1;
  const multiline = source.startsWith('"""', quote);
  const closing = (multiline ? '"""' : '"') + "#".repeat(hashes);
  const escape = "\\" + "#".repeat(hashes);
  let i = quote + (multiline ? 3 : 1);
  while (i < source.length) {
    const code = source.charCodeAt(i);
    if (code === 0x0a && !multiline) return -1;
    if (source.startsWith(closing, i)) return i + closing.length;
    if (code === 0x5c && source.startsWith(escape, i)) {
      const after = i + escape.length;
      if (source.charCodeAt(after) === 0x28 /* ( */) {
        const end = _closing(source, after, 0x28, 0x29, nesting + 1);
        if (end === -1) return -1;
        i = end + 1;
      } else i = after + 1;
      continue;
    }
    i++;
  }
  return -1;
}

// Any other letter (Swift names may be Unicode) too, but a byte order mark.
function _isWordStart(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) ||
    code === 0x5f || (code >= 0x80 && code !== 0xfeff);
}

function _isWordPart(code: number): boolean {
  return _isWordStart(code) || (code >= 0x30 && code <= 0x39);
}
