// `#if` blocks inside a declaration, whose branches are alternative parts
// of it (libstdc++'s `template<typename _Arg>` / `#else` / `template<>`
// headers, parameter lists per C++ version): tree-sitter-cpp@0.23.4 reads a
// directive only between declarations, and in a namespace such a block loses
// the class around it (stl_tree.h's `class _Rb_tree`, basic_string.h's
// `class basic_string`, their members listed at the top level). A block one
// of whose branches ends inside a declaration (its last code is not `;`,
// `{`, `}` or a label's `:`) keeps its first branch: the directive lines and
// the later branches are blanked. Blocks between declarations are left for
// the outline, which reads every branch. It can go when
// declaration_directives_cpp_0_23_4_test.ts passes without it in cpp.ts's
// prepare. Runs inside the outline worker only.

// A conditional directive at a line's start, its word captured.
const DIRECTIVE = /^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)(?![\w])/gm;

/** Where the code may end at a declaration's end. */
const BOUNDARY = new Set([";", "{", "}", ":"]);

/** A directive line: where it starts and ends. */
interface Line {
  start: number;
  end: number;
}

/**
 * The [start, end) ranges to blank, in order: of each `#if` block that has a
 * branch ending inside a declaration, its directive lines and its branches
 * after the first. `code` is the text's `codeOnly()` form with the other
 * repairs' macros blanked.
 */
export function declarationDirectiveRanges(code: string): [number, number][] {
  if (!code.includes("#")) return [];
  const ranges: [number, number][] = [];
  const open: Line[][] = [];
  DIRECTIVE.lastIndex = 0;
  for (let match; (match = DIRECTIVE.exec(code)) !== null;) {
    const line = { start: match.index, end: _lineEnd(code, match.index) };
    DIRECTIVE.lastIndex = line.end;
    const word = match[1];
    if (word.startsWith("if")) open.push([line]);
    else if (word !== "endif") open.at(-1)?.push(line);
    else {
      const block = open.pop();
      if (block !== undefined) _blank([...block, line], code, ranges);
    }
  }
  return ranges.sort((a, b) => a[0] - b[0]);
}

// Adds the ranges of `block` (its directive lines, the #endif last) when one
// of its branches ends inside a declaration.
function _blank(block: Line[], code: string, ranges: [number, number][]) {
  const branches = block.slice(0, -1).map((line, i) => [
    line.end,
    block[i + 1].start,
  ]);
  if (!branches.some(([from, to]) => _endsInside(code, from, to))) return;
  ranges.push([block[0].start, block[0].end]);
  for (let i = 1; i < block.length - 1; i++) {
    ranges.push([block[i].start, block[i + 1].start]);
  }
  const last = block[block.length - 1];
  ranges.push([last.start, last.end]);
}

// Whether the last code in [from, to), past blank and preprocessor lines
// (a `#define`'s `\` continuations too), leaves a declaration open.
function _endsInside(code: string, from: number, to: number): boolean {
  let end = to;
  while (end > from) {
    let start = Math.max(from, code.lastIndexOf("\n", end - 1) + 1);
    const line = code.slice(start, end).trimEnd();
    // The logical line: back over the lines that a `\` goes on from.
    while (start > from && code[start - 2] === "\\") {
      start = Math.max(from, code.lastIndexOf("\n", start - 2) + 1);
    }
    const directive = code.slice(start, end).trimStart().startsWith("#");
    if (line.trim() !== "" && !directive) {
      return !BOUNDARY.has(line[line.length - 1]);
    }
    end = start - 1;
  }
  return false;
}

// The end of the directive line at `start`, past `\` continuations.
function _lineEnd(code: string, start: number): number {
  let end = code.indexOf("\n", start);
  while (end > 0 && code[end - 1] === "\\") end = code.indexOf("\n", end + 1);
  return end === -1 ? code.length : end;
}
