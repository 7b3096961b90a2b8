// The Objective-C parts of a header, read line by line: the C grammar has no
// `@interface`, and its error recovery inside one loses the C declarations
// after it too. `objcBlocks()` finds the `@interface`, `@protocol` and
// `@implementation` blocks with their methods and properties, and
// Foundation's enum macros; `blankObjc()` turns them, the other `@` lines
// and the attribute macros C cannot read into spaces for the C parse,
// keeping every line and every offset where it was.
//
// Lines are read without their comments and the insides of their string
// literals (codeOnly()). Every pattern here has one way to match a given
// text, so a scan takes linear time whatever the header holds.
import type { OutlineSymbol } from "../types.ts";
import { codeOnly } from "./_c_code.ts";
import { firstMeaningfulLine } from "./_nodes.ts";

const BLOCK_START = /^\s*@(interface|protocol|implementation)\b/;
const BLOCK_END = /@end\b/;
/** `@protocol A, B;` declares names only; `@class`, `@import` likewise. */
const DECLARATION_LINE = /^\s*@(?:class\b|import\b|protocol\b[\w\s,]*;)/;
/** `NS_ASSUME_NONNULL_BEGIN`, `CF_EXTERN_C_END`: macros C would misread. */
const MARKER_MACRO = /^\s*[A-Z][A-Z0-9_]*_(?:BEGIN|END)\b(?:\s*\([^)]*\))?\s*$/;
/** `typedef NS_ENUM(NSInteger, Name) {`: Foundation's enum macros. */
const ENUM_START =
  /^\s*typedef\s+(?:NS|CF)_(?:ENUM|OPTIONS|CLOSED_ENUM|ERROR_ENUM)\s*\([^,()]*,\s*(\w+)\s*\)/;
/** A macro call with up to three levels of parentheses. */
const MACRO = String
  .raw`(?:[A-Z_][A-Z0-9_]*|__attribute__)\b(?:\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?`;
/** A line of attribute macros alone: `API_AVAILABLE(ios(13))`, `NS_SWIFT_NAME(X)`. */
const ATTRIBUTE_LINE = new RegExp(String.raw`^\s*(?:${MACRO}\s*)+$`);
/**
 * What C reads as junk around a C declaration: export and inline macros
 * before it (`FOUNDATION_EXPORT`, `UIKIT_EXTERN`, `NS_INLINE`) and
 * availability, Swift-name and attribute macros after it.
 */
const C_ATTRIBUTE = new RegExp(
  String
    .raw`\b(?:[A-Z][A-Z0-9_]*_(?:EXPORT|EXTERN|INLINE)\b|(?:API|NS|CF|UIKIT|__API|__IOS|__OSX|__TVOS|__WATCHOS)_[A-Z_]+\b(?:\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?|__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\))`,
  "g",
);
/** Words that are never a property's name: qualifiers and macros. */
const NOT_A_NAME = /^(?:__|_[A-Z])|^[A-Z][A-Z0-9]*_[A-Z0-9_]*$/;

/**
 * The Objective-C blocks of a header (and Foundation's enum macros), each
 * with its members.
 */
export function objcBlocks(source: string): OutlineSymbol[] {
  return _scan(source).blocks;
}

/**
 * The text the C grammar reads: Objective-C lines and attribute macros
 * turned into spaces, line breaks kept.
 */
export function blankObjc(source: string): string {
  const { lines, code, blank } = _scan(source);
  return lines.map((line, i) =>
    blank[i] ? line.replace(/[^\r]/g, " ") : _blankAttributes(line, code[i])
  ).join("\n");
}

// Found in the line's code (a `)` in a macro's string argument is no end),
// blanked in the line itself.
function _blankAttributes(line: string, code: string): string {
  let out = line;
  for (const macro of code.matchAll(C_ATTRIBUTE)) {
    const end = macro.index + macro[0].length;
    out = out.slice(0, macro.index) + " ".repeat(macro[0].length) +
      out.slice(end);
  }
  return out;
}

function _scan(source: string) {
  const lines = source.split("\n");
  const code = codeOnly(source).split("\n");
  // A final line break ends the last line; it does not start another.
  const lastLine = Math.max(0, lines.length - (source.endsWith("\n") ? 2 : 1));
  const blank = new Array<boolean>(lines.length).fill(false);
  const blankLines = (from: number, to: number) => {
    for (let j = from; j <= to; j++) blank[j] = true;
  };
  const blocks: OutlineSymbol[] = [];
  for (let i = 0; i < code.length; i++) {
    if (DECLARATION_LINE.test(code[i]) || MARKER_MACRO.test(code[i])) {
      blank[i] = true;
      continue;
    }
    const enumStart = ENUM_START.exec(code[i]);
    const blockStart = enumStart ? null : BLOCK_START.exec(code[i]);
    if (enumStart === null && blockStart === null) continue;
    let first = i;
    while (first > 0 && _isAttributeLine(code[first - 1])) first--;
    const last = enumStart
      ? _enumEnd(code, i, lastLine)
      : _blockEnd(code, i, lastLine);
    blocks.push({
      kind: enumStart ? "enum" : blockStart![1],
      name: enumStart ? enumStart[1] : _blockName(code[i]),
      startLine: i + 1,
      endLine: last + 1,
      ..._doc(lines, code, i),
      children: enumStart ? _enumerators(lines, code, i, last) : _members(
        lines,
        code,
        i + 1,
        BLOCK_END.test(code[last]) ? last : last + 1,
      ),
    });
    blankLines(first, last);
    i = last;
  }
  return { lines, code, blank, blocks };
}

function _isAttributeLine(line: string): boolean {
  return line.trim() !== "" && ATTRIBUTE_LINE.test(line);
}

// The line of a block's `@end` (its first line for `@interface A () @end`),
// or the last line when it has none.
function _blockEnd(code: string[], first: number, lastLine: number): number {
  if (BLOCK_END.test(code[first].replace(BLOCK_START, ""))) return first;
  for (let i = first + 1; i <= lastLine; i++) {
    if (/^\s*@end\b/.test(code[i])) return i;
  }
  return Math.max(first, lastLine);
}

// The line that closes an enum macro's braces (its own line without any).
function _enumEnd(code: string[], first: number, lastLine: number): number {
  let depth = 0;
  for (let i = first; i <= lastLine; i++) {
    depth += _braces(code[i]);
    if (depth <= 0 && (i > first || code[i].includes(";"))) return i;
  }
  return Math.max(first, lastLine);
}

// One enumerator per line that starts with a name where one may start: first
// in the braces or after a `,` (not the rest of a value `A |` / `B,`).
// Preprocessor lines are skipped.
function _enumerators(
  lines: string[],
  code: string[],
  first: number,
  last: number,
): OutlineSymbol[] {
  const enumerators: OutlineSymbol[] = [];
  let expecting = true;
  for (let i = first + 1; i < last; i++) {
    const line = code[i].trim();
    if (line === "" || line.startsWith("#")) continue;
    const name = expecting ? /^[A-Za-z_]\w*/.exec(line)?.[0] : undefined;
    if (name !== undefined) {
      enumerators.push({
        kind: "enumerator",
        name,
        startLine: i + 1,
        endLine: i + 1,
        ..._doc(lines, code, i),
        children: [],
      });
    }
    expecting = line.endsWith(",") || line.endsWith("{");
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
// property `void (^ _Nullable handler)(int)` is `handler`.
function _propertyName(declaration: string): string {
  const text = declaration.split(";")[0].replace(/^\s*@property\s*/, "");
  const block = /\(\s*\^([^()]*)\)/.exec(text);
  const words = (block ? block[1] : _withoutParens(text)).match(/\w+/g) ?? [];
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

// The comment right above line `i` (or above the attribute macro lines right
// above it), as C's outline takes it: the block comment that ends there, or
// the run of line comments.
function _doc(lines: string[], code: string[], i: number): { doc?: string } {
  const commentOnly = (k: number) =>
    k >= 0 && code[k].trim() === "" && lines[k].trim() !== "";
  let top = i;
  while (top > 0 && _isAttributeLine(code[top - 1])) top--;
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
