// What grammar @tree-sitter-grammars/tree-sitter-kotlin@1.1.0 does not know
// and no other repair undoes can turn a whole file into one ERROR node. Cut
// before each top-level declaration and parsed one by one, it costs its own
// declaration only. The last resort of kotlin.ts, after REPAIRS.
import type { OutlineSymbol } from "../../../types.ts";
import { nestedCommentEnd } from "../../_nested_comment.ts";
import { stringEnd } from "../_kotlin_text.ts";

/** A run of whole lines of a file: its 0-based first line and its text. */
export interface Chunk {
  line: number;
  text: string;
}

// A line that starts a top-level declaration: an annotation, a modifier or a
// declaration keyword at column 0.
const DECLARATION_START =
  /^(?:@|context\(|(?:public|private|protected|internal|open|abstract|sealed|final|data|enum|annotation|value|inline|inner|fun|class|interface|object|val|var|const|typealias|suspend|tailrec|operator|infix|external|expect|actual|lateinit)\b)/;

// A primary constructor on the line after its class's name (ktfmt's style):
// `protected constructor(...)`, `@Inject constructor(...)`.
const CONSTRUCTOR_LINE =
  /^(?:@[\w.]+(?:\([^()\n]*\))?[ \t]+)*(?:(?:public|private|protected|internal)[ \t]+)?constructor\b/;

// A comment line above a declaration: `/**`, ` * text`, ` */`, `//`.
const COMMENT_LINE = /^[ \t]*(?:\/\/|\/\*|\*)/;

// Where a line starts, beside its bracket depths (below).
const IN_COMMENT = -1;
const IN_STRING = -2;

/**
 * Cuts `text` into chunks of whole lines, each starting at a top-level
 * declaration (outside any bracket, string or comment) with the annotations
 * and comments right above it; the first chunk holds what comes before
 * (`package`, imports).
 *
 * @example
 * ```ts
 * declarationChunks("class A\n\nclass B\n").map((c) => c.line); // [0, 2]
 * ```
 */
export function declarationChunks(text: string): Chunk[] {
  const lines = text.split("\n");
  const { braces, parens } = _lineDepths(text, lines.length);
  const constructors = _constructorLines(lines);
  const starts = [0];
  for (let i = 1; i < lines.length; i++) {
    if (braces[i] !== 0 || parens[i] !== 0) continue;
    if (!DECLARATION_START.test(lines[i]) || constructors[i]) continue;
    const first = _aboveDeclaration(lines, braces, parens, i);
    if (first > starts.at(-1)!) starts.push(first);
  }
  return starts.map((line, index) => ({
    line,
    text: lines.slice(line, starts[index + 1] ?? lines.length).join("\n"),
  }));
}

// Which lines start a primary constructor or the annotation lines above one
// (`@JvmOverloads` `constructor(`): the class goes on there.
function _constructorLines(lines: string[]): Uint8Array {
  const constructors = new Uint8Array(lines.length + 1);
  for (let i = lines.length - 1; i >= 0; i--) {
    constructors[i] = lines[i].startsWith("@")
      ? constructors[i + 1]
      : Number(CONSTRUCTOR_LINE.test(lines[i]));
  }
  return constructors;
}

// The first line of what belongs to the declaration at `line`: the comment
// lines and annotations (an annotation's arguments may span lines) above.
function _aboveDeclaration(
  lines: string[],
  braces: Int32Array,
  parens: Int32Array,
  line: number,
): number {
  let first = line;
  while (first > 0) {
    const above = first - 1;
    if (braces[above] === IN_COMMENT || COMMENT_LINE.test(lines[above])) {
      first = above;
    } else if (braces[above] === 0 && parens[above] === 0) {
      if (!lines[above].startsWith("@")) break;
      first = above;
    } else if (braces[above] === 0 && parens[above] > 0) {
      // Inside parentheses: the arguments of an annotation above, or the end
      // of the declaration before.
      let opener = above;
      while (opener > 0 && braces[opener] === 0 && parens[opener] > 0) {
        opener--;
      }
      const annotation = braces[opener] === 0 && parens[opener] === 0 &&
        lines[opener].startsWith("@");
      if (!annotation) break;
      first = opener;
    } else break;
  }
  return first;
}

// The depth of braces and of parentheses at the start of each line, or
// IN_COMMENT / IN_STRING (in `braces`) for a line that starts inside a block
// comment or a raw string. One scan; Kotlin's block comments nest and string
// templates (`"${ ... }"`) hold code.
function _lineDepths(
  text: string,
  count: number,
): { braces: Int32Array; parens: Int32Array } {
  const braces = new Int32Array(count);
  const parens = new Int32Array(count);
  // What each open `{` belongs to: code, or the quote of the string whose
  // `${` template it opened.
  const open: string[] = [];
  let depth = 0;
  let line = 0;
  const skipTo = (end: number, state: number, from: number) => {
    for (let j = text.indexOf("\n", from); j !== -1 && j < end;) {
      braces[++line] = state;
      j = text.indexOf("\n", j + 1);
    }
    return end;
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "\n") {
      line++;
      braces[line] = open.length;
      parens[line] = depth;
      i++;
    } else if (ch === "/" && text[i + 1] === "/") {
      const end = text.indexOf("\n", i);
      i = end === -1 ? text.length : end;
    } else if (ch === "/" && text[i + 1] === "*") {
      i = skipTo(nestedCommentEnd(text, i), IN_COMMENT, i);
    } else if (ch === '"' || ch === "'") {
      const quote = text.startsWith('"""', i) ? '"""' : ch;
      i = skipTo(stringEnd(text, i + quote.length, quote, open), IN_STRING, i);
    } else {
      if (ch === "{") open.push("code");
      else if (ch === "(") depth++;
      else if (ch === ")") depth = Math.max(0, depth - 1);
      else if (ch === "}") {
        const owner = open.pop();
        if (owner !== undefined && owner !== "code") {
          i = skipTo(stringEnd(text, i + 1, owner, open), IN_STRING, i);
          continue;
        }
      }
      i++;
    }
  }
  return { braces, parens };
}

/** Moves symbols (and their members) `lines` lines down. */
export function shiftLines(
  symbols: OutlineSymbol[],
  lines: number,
): OutlineSymbol[] {
  for (const symbol of symbols) {
    symbol.startLine += lines;
    symbol.endLine += lines;
    shiftLines(symbol.children, lines);
  }
  return symbols;
}
