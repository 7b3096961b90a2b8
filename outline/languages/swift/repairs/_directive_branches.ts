// The directives repair (directives_swift_repomix_0_1_17.ts) blanks the
// `#if`/`#elseif`/`#else`/`#endif` lines so every branch parses as plain code. A declaration whose header differs per
// platform opens its body in each branch (`#if os(iOS)` `extension V:
// UIViewRepresentable {` `#else` `extension V: NSViewRepresentable {`
// `#endif`): all branches read together open two bodies for one `}`, and the
// rest of the file nests in the first. When a branch does not balance its
// braces, only the first branch of its block is kept; the others are blanked.
import { nestedCommentEnd } from "../../_nested_comment.ts";

/** A directive line: where it starts and ends, and which it is. */
export interface Directive {
  start: number;
  end: number;
  /** `if`, `elseif`, `else` or `endif`. */
  word: string;
}

/** One branch of an open `#if` block. */
interface Branch {
  /** Where its directive starts. */
  start: number;
  /** The brace depth where it starts. */
  depth: number;
  /** Brace balance of nested branches blanked since. */
  removed: number;
}

/**
 * The [start, end) ranges to blank besides the directive lines: the later
 * branches of each `#if` block with a branch that does not balance its
 * braces (braces in strings and comments do not count).
 *
 * @example
 * ```ts
 * const text = "#if A\nx {\n#else\ny {\n#endif\n}\n";
 * const directives = [
 *   { start: 0, end: 5, word: "if" },
 *   { start: 10, end: 15, word: "else" },
 *   { start: 20, end: 26, word: "endif" },
 * ];
 * laterBranches(text, directives); // [[10, 20]]
 * ```
 */
export function laterBranches(
  source: string,
  directives: Directive[],
): [number, number][] {
  if (!directives.some((directive) => directive.word.startsWith("else"))) {
    return [];
  }
  const braces = _braces(source);
  const ranges: [number, number][] = [];
  // The open blocks, each a list of its branches so far.
  const blocks: Branch[][] = [];
  let next = 0;
  let depth = 0;
  for (const directive of directives) {
    while (next < braces.length && braces[next] < directive.start) {
      depth += braces[next + 1];
      next += 2;
    }
    const branches = blocks.at(-1);
    if (directive.word === "if") {
      blocks.push([{ start: directive.start, depth, removed: 0 }]);
    } else if (branches === undefined) continue;
    else if (directive.word !== "endif") {
      branches.push({ start: directive.start, depth, removed: 0 });
    } else {
      blocks.pop();
      const balances = branches.map((branch, i) =>
        (branches[i + 1]?.depth ?? depth) - branch.depth - branch.removed
      );
      if (branches.length < 2 || balances.every((b) => b === 0)) continue;
      ranges.push([branches[1].start, directive.start]);
      const parent = blocks.at(-1)?.at(-1);
      if (parent !== undefined) {
        parent.removed += balances.slice(1).reduce((a, b) => a + b, 0);
      }
    }
  }
  return ranges;
}

/** An open string literal. */
interface StringLiteral {
  /** Its closing quote, with a raw string's hashes: `"`, `"""`, `"#`. */
  close: string;
  /** What starts an escape or an interpolation: `\\`, `\\#`. */
  escape: string;
  /** Whether a line break goes on with it (`"""`). */
  multiline: boolean;
  /** The parenthesis depth of the interpolation open in it, if any. */
  parens: number;
}

// What may start a comment, a string or a brace, or end an interpolation.
const SPECIAL = /[/"#{}()]/g;

// The code braces of `source`, flat: position, then +1 or -1. Skips
// comments (block comments nest) and string literals (`"..."`, `"""..."""`,
// raw `#"..."#`), whose interpolations `\( ... )` are code.
function _braces(source: string): number[] {
  const braces: number[] = [];
  const strings: StringLiteral[] = [];
  let i = 0;
  while (i < source.length) {
    const string = strings.at(-1);
    if (string !== undefined && string.parens === 0) {
      i = _stringText(source, i, strings);
      continue;
    }
    // Straight to the next character that matters.
    SPECIAL.lastIndex = i;
    if (SPECIAL.exec(source) === null) break;
    i = SPECIAL.lastIndex - 1;
    const char = source[i];
    if (char === "/" && source[i + 1] === "/") {
      i = source.indexOf("\n", i);
      if (i === -1) break;
    } else if (char === "/" && source[i + 1] === "*") {
      i = nestedCommentEnd(source, i);
    } else if (char === '"' || char === "#") {
      const hashes = _hashes(source, i);
      if (source[i + hashes] !== '"') {
        i += hashes;
        continue;
      }
      const multiline = source.startsWith('"""', i + hashes);
      const quote = multiline ? '"""' : '"';
      const raw = "#".repeat(hashes);
      strings.push({
        close: quote + raw,
        escape: "\\" + raw,
        multiline,
        parens: 0,
      });
      i += hashes + quote.length;
    } else {
      if (char === "{") braces.push(i, 1);
      else if (char === "}") braces.push(i, -1);
      else if (string !== undefined && char === "(") string.parens++;
      else if (string !== undefined && char === ")") string.parens--;
      i++;
    }
  }
  return braces;
}

// Reads the text of the innermost string from `from` to its closing quote
// (closing the string) or to an interpolation's `\(` (opening it); a
// one-line string ends at a line break.
function _stringText(
  source: string,
  from: number,
  strings: StringLiteral[],
): number {
  const string = strings.at(-1)!;
  let i = from;
  while (i < source.length) {
    if (source.startsWith(string.close, i)) {
      strings.pop();
      return i + string.close.length;
    }
    if (!string.multiline && source[i] === "\n") {
      strings.pop();
      return i;
    }
    if (source.startsWith(string.escape, i)) {
      const after = i + string.escape.length;
      if (source[after] === "(") {
        string.parens = 1;
        return after + 1;
      }
      i = after + 1;
    } else i++;
  }
  return i;
}

function _hashes(source: string, i: number): number {
  let count = 0;
  while (source[i + count] === "#") count++;
  return count;
}
