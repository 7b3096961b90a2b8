// The Objective-C parts of a header, read line by line: the C grammar has no
// `@interface`, and its error recovery inside one loses the C declarations
// after it too. `objcBlocks()` finds the `@interface`, `@protocol` and
// `@implementation` blocks with their methods and properties, and
// Foundation's enum macros; `blankObjc()` turns them, the other `@` lines
// and the Apple macros C cannot read (see repairs/apple_macros_c_0_24_1.ts)
// into spaces for the C parse, keeping every line and every offset where it
// was.
//
// Lines are read without their comments and the insides of their string
// literals (codeOnly()). Every pattern here has one way to match a given
// text, so a scan takes linear time whatever the header holds.
import type { OutlineSymbol } from "../../types.ts";
import { codeOnly } from "./c_code.ts";
import { declarationMacros } from "./repairs/apple_macros_c_0_24_1.ts";
import { firstMeaningfulLine } from "../_nodes.ts";

/** A macro, maybe called, with up to three levels of parentheses. */
const MACRO = String
  .raw`[A-Z_][A-Za-z0-9_]*\b(?:\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?`;
/** `@interface`, maybe after availability macros on its line. */
const BLOCK_START = new RegExp(
  String.raw`^\s*(?:${MACRO}\s*)*@(interface|protocol|implementation)\b`,
);
const BLOCK_END = /@end\b/;
/** `@protocol A, B;` declares names only; `@class`, `@import` likewise. */
const DECLARATION_LINE = /^\s*@(?:class\b|import\b|protocol\b[\w\s,]*;)/;
/**
 * A line that is one macro switching a mode for what follows
 * (`NS_ASSUME_NONNULL_BEGIN`, `__BEGIN_DECLS`, `PR_END_EXTERN_C`,
 * `CF_IMPLICIT_BRIDGING_DISABLED`): C would misread it, and it is never one
 * declaration's attribute.
 */
const MODE_LINE = /^\s*(_*[A-Z][A-Z0-9_]*)(?:\s*\([^()]*\))?\s*$/;
const MODE_WORD = /(?:^|_)(?:BEGIN|END|ENABLED|DISABLED)(?:_|$)/;
/** `extern "C" {` (its literal blanked: `extern " " {`). */
const EXTERN_C = /^\s*extern\s+"[^"]*"\s*\{/;
/** Foundation's enum macros: `typedef NS_ENUM(NSInteger, Name) {`. */
const ENUM_HEAD =
  /^\s*typedef\s+(?:NS|CF)_(?:ENUM|OPTIONS|CLOSED_ENUM|ERROR_ENUM)\s*\(/;
const ENUM_NAME = /^[^,()]*,\s*(\w+)\s*\)/;
/** Attribute macros alone, maybe over a few lines: `API_AVAILABLE(ios(13))`. */
const ATTRIBUTES = new RegExp(String.raw`^\s*(?:${MACRO}\s*)+$`);
/** How many lines attribute macros above a declaration may take. */
const ATTRIBUTE_LINES = 4;
/** A line of macro words alone, none called. */
const BARE_MACROS = /^\s*(?:[A-Z_][A-Z0-9_]*\b\s*)+$/;
/** Words that are never a property's name: qualifiers and macros. */
const NOT_A_NAME = /^(?:__|_[A-Z])|^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/;

/**
 * The Objective-C blocks of a header (and Foundation's enum macros), each
 * with its members.
 */
export function objcBlocks(source: string): OutlineSymbol[] {
  // A copy: the scan is kept for the next call, and outlines get edited.
  return structuredClone(_scan(source).blocks);
}

/**
 * The C declarations' `symbols` (from the text blankObjc() gave), each
 * reaching up over the attribute macro lines right above it, which the C
 * grammar did not see, and documented by the comment above those.
 */
export function overAttributes(
  symbols: OutlineSymbol[],
  source: string,
): OutlineSymbol[] {
  const { lines, code } = _scan(source);
  // Only over lines the C grammar did not see (blanked attribute macros) or
  // saw as bare macro words (`XPC_MALLOC XPC_RETURNS_RETAINED`), not over a
  // macro call such as `DECLARE_THING(a, b)`.
  const parsed = blankObjc(source).split("\n");
  const unseen = (k: number) =>
    parsed[k].trim() === "" || BARE_MACROS.test(parsed[k]);
  // Read once per line: symbols may share one.
  const tops = new Map<number, number>();
  // Never over a line of the symbol before (a macro line C read as one).
  let taken = 0;
  for (const symbol of symbols) {
    const line = symbol.startLine - 1;
    let top = tops.get(line);
    if (top === undefined) {
      top = _attributesAbove(code, line);
      while (top < line && !unseen(top)) top++;
      tops.set(line, top);
    }
    if (top < line && top >= taken) {
      symbol.startLine = top + 1;
      symbol.doc ??= _doc(lines, code, line).doc;
    }
    taken = Math.max(taken, symbol.endLine);
  }
  return symbols;
}

/**
 * The text the C grammar reads: Objective-C lines and Apple's declaration
 * macros turned into spaces, line breaks kept.
 */
export function blankObjc(source: string): string {
  const scan = _scan(source);
  scan.blanked ??= _blank(scan);
  return scan.blanked;
}

function _blank({ lines, code, blank }: Scan): string {
  // What the macros are looked for in: code outside the Objective-C lines
  // and outside preprocessor lines (and their continuations), which keep
  // theirs (`#if NS_BLOCKS_AVAILABLE`).
  const searched = code.map((line, i) =>
    blank[i] || _inDirective(code, i) ? " ".repeat(line.length) : line
  ).join("\n");
  const text = lines.map((line, i) =>
    blank[i] ? line.replace(/[^\r]/g, " ") : line
  ).join("\n");
  const pieces: string[] = [];
  let at = 0;
  for (const [start, end] of declarationMacros(searched)) {
    pieces.push(
      text.slice(at, start),
      text.slice(start, end).replace(/[^\r\n]/g, " "),
    );
    at = end;
  }
  pieces.push(text.slice(at));
  return pieces.join("");
}

/** A header read line by line, with what blankObjc() made of it. */
interface Scan {
  lines: string[];
  /** The lines without comments and literal contents. */
  code: string[];
  /** The lines that are Objective-C (or mode macros), blanked whole. */
  blank: boolean[];
  blocks: OutlineSymbol[];
  blanked?: string;
}

// The last header read: one outline reads it three times (the text to
// parse, the blocks, the attribute lines above the C declarations).
let lastScan: { source: string; scan: Scan } | undefined;

function _scan(source: string): Scan {
  if (lastScan?.source === source) return lastScan.scan;
  const scan = _read(source);
  lastScan = { source, scan };
  return scan;
}

function _read(source: string): Scan {
  const lines = source.split("\n");
  const code = codeOnly(source).split("\n");
  // A final line break ends the last line; it does not start another.
  const lastLine = Math.max(0, lines.length - (source.endsWith("\n") ? 2 : 1));
  const blank = new Array<boolean>(lines.length).fill(false);
  const blocks: OutlineSymbol[] = [];
  // Brace depth outside the blocks: a mode macro stands at the top level
  // (`TK_CONFIG_END` alone inside an enum is its last enumerator).
  let depth = 0;
  for (let i = 0; i < code.length; i++) {
    if (
      DECLARATION_LINE.test(code[i]) || (depth === 0 && _isModeLine(code[i]))
    ) {
      blank[i] = true;
      continue;
    }
    const block = ENUM_HEAD.test(code[i])
      ? _enum(lines, code, i, lastLine)
      : BLOCK_START.test(code[i])
      ? _block(lines, code, i, lastLine)
      : undefined;
    if (block === undefined) {
      // `extern "C" {` wraps the whole header: it opens no level.
      if (!_inDirective(code, i) && !EXTERN_C.test(code[i])) {
        depth = Math.max(0, depth + _braces(code[i]));
      }
      continue;
    }
    blocks.push(block.symbol);
    for (let j = _attributesAbove(code, i); j <= block.last; j++) {
      blank[j] = true;
    }
    i = block.last;
  }
  return { lines, code, blank, blocks };
}

// An `@interface`, `@protocol` or `@implementation` block, to its `@end` (on
// its first line for `@interface A () @end`) or to the last line.
function _block(
  lines: string[],
  code: string[],
  first: number,
  lastLine: number,
): { symbol: OutlineSymbol; last: number } {
  const start = BLOCK_START.exec(code[first])!;
  let last = Math.max(first, lastLine);
  let membersEnd = last + 1;
  if (BLOCK_END.test(code[first].slice(start[0].length))) {
    last = first;
    membersEnd = first + 1;
  } else {
    for (let i = first + 1; i <= lastLine; i++) {
      const end = BLOCK_END.exec(code[i]);
      if (end === null) continue;
      last = i;
      // A member may share the line of the `@end` after it.
      membersEnd = code[i].slice(0, end.index).trim() === "" ? i : i + 1;
      break;
    }
  }
  const members = membersEnd > first + 1
    ? _members(lines, code, first + 1, membersEnd)
    : [];
  return {
    symbol: {
      kind: start[1],
      name: _blockName(code[first].slice(code[first].indexOf("@"))),
      startLine: first + 1,
      endLine: last + 1,
      ..._doc(lines, code, first),
      children: members,
    },
    last,
  };
}

// A Foundation enum macro (its name maybe on the next lines, as wrapped
// arguments put it), to the line that closes its braces.
function _enum(
  lines: string[],
  code: string[],
  first: number,
  lastLine: number,
): { symbol: OutlineSymbol; last: number } | undefined {
  const head = code.slice(first, first + 3).join(" ")
    .replace(ENUM_HEAD, "");
  const name = ENUM_NAME.exec(head)?.[1];
  if (name === undefined) return undefined;
  let depth = 0;
  let last = Math.max(first, lastLine);
  for (let i = first; i <= lastLine; i++) {
    depth += _braces(code[i]);
    if (depth > 0 || !/[;}]/.test(code[i])) continue;
    last = i;
    break;
  }
  return {
    symbol: {
      kind: "enum",
      name,
      startLine: first + 1,
      endLine: last + 1,
      ..._doc(lines, code, first),
      children: _enumerators(lines, code, first, last),
    },
    last,
  };
}

// The enumerators between an enum's braces: the name that starts each
// comma-separated item (a value may go on over lines: `A |` / `B,`).
// Preprocessor lines are skipped.
function _enumerators(
  lines: string[],
  code: string[],
  first: number,
  last: number,
): OutlineSymbol[] {
  const enumerators: OutlineSymbol[] = [];
  let braces = 0;
  let parens = 0;
  let expecting = false;
  for (let i = first; i <= last; i++) {
    const line = code[i];
    if (line.trimStart().startsWith("#")) continue;
    for (let at = 0; at < line.length; at++) {
      const char = line[at];
      if (char === "{" && ++braces === 1) expecting = true;
      else if (char === "}" && --braces === 0) return enumerators;
      else if (char === "(") parens++;
      else if (char === ")") parens = Math.max(0, parens - 1);
      else if (char === "," && braces === 1 && parens === 0) expecting = true;
      else if (expecting && braces === 1 && /[A-Za-z_]/.test(char)) {
        const name = /^\w+/.exec(line.slice(at, at + 256))![0];
        // The comment above is its doc when it starts the line.
        const own = line.slice(0, at).trim() === "";
        enumerators.push({
          kind: "enumerator",
          name,
          startLine: i + 1,
          endLine: i + 1,
          ...(own ? _doc(lines, code, i) : {}),
          children: [],
        });
        expecting = false;
        at += name.length - 1;
      } else if (!/\s/.test(char)) expecting = false;
    }
  }
  return enumerators;
}

// `Foo`, or `Foo (Category)` for a category (`Foo ()` for an extension).
function _blockName(line: string): string {
  const match = /^@\w+\s+(\w+)\s*(?:<[^>]*>\s*)?(\(\s*\w*\s*\))?/.exec(line);
  if (match === null) return "";
  return match[2] ? `${match[1]} ${match[2].replace(/\s+/g, "")}` : match[1];
}

// The methods and properties on the lines from `from` up to, not including,
// `to`, skipping instance variable braces and method bodies.
function _members(
  lines: string[],
  code: string[],
  from: number,
  to: number,
): OutlineSymbol[] {
  const members: OutlineSymbol[] = [];
  let depth = 0;
  for (let i = from; i < to; i++) {
    const line = code[i];
    const method = depth === 0 ? /^\s*([-+])\s*\(/.exec(line) : null;
    const property = depth === 0 && /^\s*@property\b/.test(line);
    if (method === null && !property) {
      depth = Math.max(0, depth + _braces(line));
      continue;
    }
    // A declaration runs to its `;` or to the end of its body.
    let end = i;
    const parts = [line];
    while (end < to - 1 && !/[;{]/.test(code[end])) parts.push(code[++end]);
    const text = parts.join(" ");
    depth = _braces(text);
    while (depth > 0 && end < to - 1) depth += _braces(code[++end]);
    depth = Math.max(0, depth);
    const name = method ? _selector(text) : _propertyName(text);
    if (name !== "") {
      members.push({
        kind: method === null
          ? "property"
          : method[1] === "+"
          ? "class method"
          : "method",
        name,
        startLine: i + 1,
        endLine: end + 1,
        ..._doc(lines, code, i),
        children: [],
      });
    }
    i = end;
  }
  return members;
}

/**
 * `- (id)initWithName:(NSString *)name count:(int)n;` is `initWithName:count:`;
 * `- (void)foo:(int)a :(int)b;` is `foo::`.
 */
function _selector(declaration: string): string {
  const text = _withoutParens(
    declaration.replace(/^\s*[-+]\s*/, "").split(/[;{]/)[0],
  );
  // Between two colons: the previous part's parameter, then this keyword.
  const parts = text.split(":");
  if (parts.length === 1) return /\w+/.exec(text)?.[0] ?? "";
  const keywords = parts.slice(0, -1).map((part, i) => {
    const words = part.match(/\w+/g) ?? [];
    return i === 0 || words.length > 1 ? words.at(-1) ?? "" : "";
  });
  return `${keywords.join(":")}:`;
}

// `@property (nonatomic) NSString *name NS_SWIFT_NAME(x);` is `name`; a block
// or function-pointer property `void (^ _Nullable handler)(int)`,
// `int (*callback)(int)` is `handler`, `callback`.
function _propertyName(declaration: string): string {
  const text = declaration.split(";")[0].replace(/^\s*@property\s*/, "");
  // A `(^name)` or `(*name)` with a name in it (not `NSArray<void (^)(void)>`).
  for (const callable of text.matchAll(/\(\s*[\^*]([^()]*)\)/g)) {
    const name = _lastName(callable[1]);
    if (name !== "") return name;
  }
  return _lastName(_withoutParens(text));
}

function _lastName(text: string): string {
  const words = text.match(/\w+/g) ?? [];
  return words.filter((word) => !NOT_A_NAME.test(word)).at(-1) ?? "";
}

// Removes parenthesized groups, nested ones included.
function _withoutParens(text: string): string {
  let out = "";
  let depth = 0;
  for (const char of text) {
    if (char === "(") depth++;
    else if (char === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0) out += char;
  }
  return out;
}

function _braces(text: string): number {
  let count = 0;
  for (const char of text) {
    if (char === "{") count++;
    else if (char === "}") count--;
  }
  return count;
}

// The first of the lines of attribute macros right above line `i` (`i` when
// there are none); a macro call may be wrapped over a few lines.
function _attributesAbove(code: string[], i: number): number {
  let first = i;
  let text = "";
  for (let k = i - 1; k >= Math.max(0, i - ATTRIBUTE_LINES); k--) {
    if (
      code[k].trim() === "" || _isModeLine(code[k]) || _inDirective(code, k)
    ) {
      break;
    }
    text = `${code[k]} ${text}`;
    if (ATTRIBUTES.test(text)) first = k;
  }
  return first;
}

function _isModeLine(line: string): boolean {
  const word = MODE_LINE.exec(line)?.[1];
  return word !== undefined && MODE_WORD.test(word.replace(/^_+/, ""));
}

// Whether line `k` is a preprocessor line or goes on with one.
function _inDirective(code: string[], k: number): boolean {
  return code[k].trimStart().startsWith("#") ||
    (k > 0 && code[k - 1].trimEnd().endsWith("\\"));
}

// The comment right above line `i` (or above the attribute macro lines right
// above it), as C's outline takes it: the block comment that ends there, or
// the run of line comments.
function _doc(lines: string[], code: string[], i: number): { doc?: string } {
  const commentOnly = (k: number) =>
    k >= 0 && code[k].trim() === "" && lines[k].trim() !== "";
  const top = _attributesAbove(code, i);
  let first = top;
  if (commentOnly(top - 1) && lines[top - 1].trimEnd().endsWith("*/")) {
    first = top - 1;
    while (!lines[first].includes("/*") && commentOnly(first - 1)) first--;
  } else {
    while (commentOnly(first - 1) && lines[first - 1].trim().startsWith("//")) {
      first--;
    }
  }
  if (first === top) return {};
  const doc = firstMeaningfulLine(lines.slice(first, top).join("\n"));
  return doc === undefined ? {} : { doc };
}
