// The Objective-C parts of a header, read line by line: the C grammar has no
// `@interface`, and its error recovery inside one loses the C declarations
// after it too. `objcBlocks()` finds the `@interface`, `@protocol` and
// `@implementation` blocks with their methods and properties; `blankObjc()`
// turns them (and the other `@` lines) into spaces for the C parse, keeping
// every line and every offset where it was.
import type { OutlineSymbol } from "../types.ts";
import { firstMeaningfulLine } from "./_nodes.ts";

const BLOCK_START = /^\s*@(interface|protocol|implementation)\b/;
const BLOCK_END = /^\s*@end\b/;
/** `@protocol A, B;` declares names only; `@class`, `@import` likewise. */
const DECLARATION_LINE = /^\s*@(?:class|import|protocol\s+[\w\s,]+;)/;
/** `NS_ASSUME_NONNULL_BEGIN`, `CF_EXTERN_C_END`: macros C would misread. */
const MARKER_MACRO = /^\s*[A-Z][A-Z0-9_]*_(?:BEGIN|END)\b(?:\s*\([^)]*\))?\s*$/;

/** `typedef NS_ENUM(NSInteger, Name) {`: Foundation's enum macros. */
const ENUM_START =
  /^\s*typedef\s+(?:NS|CF)_(?:ENUM|OPTIONS|CLOSED_ENUM|ERROR_ENUM)\s*\(\s*[^,()]*,\s*(\w+)\s*\)/;

/**
 * The Objective-C blocks of a header (and Foundation's enum macros), each
 * with its members.
 */
export function objcBlocks(source: string): OutlineSymbol[] {
  return _scan(source).blocks;
}

/**
 * The text with every Objective-C line turned into spaces (line breaks
 * kept), for the C grammar.
 */
export function blankObjc(source: string): string {
  const { lines, blank } = _scan(source);
  return lines.map((line, i) => blank[i] ? line.replace(/[^\r]/g, " ") : line)
    .join("\n");
}

function _scan(source: string) {
  const lines = source.split("\n");
  const code = _withoutComments(source).split("\n");
  const blank = new Array<boolean>(lines.length).fill(false);
  const blocks: OutlineSymbol[] = [];
  for (let i = 0; i < code.length; i++) {
    if (DECLARATION_LINE.test(code[i]) || MARKER_MACRO.test(code[i])) {
      blank[i] = true;
      continue;
    }
    const enumStart = ENUM_START.exec(code[i]);
    if (enumStart !== null) {
      const last = _enumEnd(code, i);
      blocks.push({
        kind: "enum",
        name: enumStart[1],
        startLine: i + 1,
        endLine: last + 1,
        ...(_doc(lines, code, i)),
        children: _enumerators(lines, code, i, last),
      });
      for (let j = i; j <= last; j++) blank[j] = true;
      i = last;
      continue;
    }
    const start = BLOCK_START.exec(code[i]);
    if (start === null) continue;
    // Its `@end`, or the last line when it has none.
    let end = i + 1;
    while (end < code.length && !BLOCK_END.test(code[end])) end++;
    const last = Math.min(end, code.length - 1);
    blocks.push({
      kind: start[1],
      name: _blockName(code[i]),
      startLine: i + 1,
      endLine: last + 1,
      ...(_doc(lines, code, i)),
      children: _members(lines, code, i + 1, end),
    });
    for (let j = i; j <= last; j++) blank[j] = true;
    i = last;
  }
  return { lines, blank, blocks };
}

// The line that closes an enum macro's braces (its own line without any).
function _enumEnd(code: string[], first: number): number {
  let depth = 0;
  for (let i = first; i < code.length; i++) {
    depth += _braces(code[i]);
    if (depth <= 0 && (i > first || code[i].includes(";"))) return i;
  }
  return code.length - 1;
}

// One enumerator per line that starts with a name, inside the braces.
function _enumerators(
  lines: string[],
  code: string[],
  first: number,
  last: number,
): OutlineSymbol[] {
  const enumerators: OutlineSymbol[] = [];
  for (let i = first + 1; i < last; i++) {
    const name = /^\s*([A-Za-z_]\w*)\b/.exec(code[i])?.[1];
    if (name === undefined) continue;
    enumerators.push({
      kind: "enumerator",
      name,
      startLine: i + 1,
      endLine: i + 1,
      ...(_doc(lines, code, i)),
      children: [],
    });
  }
  return enumerators;
}

// `Foo`, or `Foo (Category)` for a category (`Foo ()` for an extension).
function _blockName(line: string): string {
  const match = /@\w+\s+(\w+)\s*(?:<[^>]*>\s*)?(\(\s*\w*\s*\))?/.exec(line);
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
    let text = line;
    while (end < to - 1 && !/[;{]/.test(code[end])) text += ` ${code[++end]}`;
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
        ...(_doc(lines, code, i)),
        children: [],
      });
    }
    i = end;
  }
  return members;
}

// `- (id)initWithName:(NSString *)name count:(int)n;` is `initWithName:count:`.
function _selector(declaration: string): string {
  const text = _withoutParens(
    declaration.replace(/^\s*[-+]\s*/, "").split(/[;{]/)[0],
  );
  const parts = [...text.matchAll(/(\w+)\s*:/g)].map((part) => `${part[1]}:`);
  return parts.length > 0 ? parts.join("") : /\w+/.exec(text)?.[0] ?? "";
}

// `@property (nonatomic) NSString *name NS_SWIFT_NAME(x);` is `name`; a block
// property `void (^handler)(int)` is `handler`.
function _propertyName(declaration: string): string {
  const text = declaration.split(";")[0].replace(/^\s*@property\s*/, "");
  const block = /\(\s*\^\s*(\w+)\s*\)/.exec(text);
  if (block) return block[1];
  const words = _withoutParens(text)
    .match(/\w+/g)?.filter((word) => !/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(word));
  return words?.at(-1) ?? "";
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

// The comment directly above line `i`, as C's outline takes it: the block
// comment that ends there, or the run of line comments.
function _doc(lines: string[], code: string[], i: number): { doc?: string } {
  const commentOnly = (k: number) =>
    k >= 0 && code[k].trim() === "" && lines[k].trim() !== "";
  let first = i;
  if (commentOnly(i - 1) && lines[i - 1].trimEnd().endsWith("*/")) {
    first = i - 1;
    while (!lines[first].includes("/*") && commentOnly(first - 1)) first--;
  } else {
    while (commentOnly(first - 1) && lines[first - 1].trim().startsWith("//")) {
      first--;
    }
  }
  if (first === i) return {};
  const doc = firstMeaningfulLine(lines.slice(first, i).join("\n"));
  return doc === undefined ? {} : { doc };
}

// Comments turned into spaces, line breaks kept. String literals are not
// looked at: a header's comment markers are not inside strings.
function _withoutComments(text: string): string {
  return text.replace(
    /\/\*[\s\S]*?(?:\*\/|$)|\/\/[^\n]*/g,
    (comment) => comment.replace(/[^\n]/g, " "),
  );
}
