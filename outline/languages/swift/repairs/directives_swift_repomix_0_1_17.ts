// `#if os(iOS)` ... `#endif` inside a type body: the Swift grammar of
// @repomix/tree-sitter-wasms@0.1.17 reads a directive only between statements
// and drops the type. The directive lines are blanked. It can go when the
// swift_test.ts tests pass with blankDirectives out of swift.ts's REPAIRS.
import { type Directive, laterBranches } from "./_directive_branches.ts";

// A conditional compilation line: `#if`, `#elseif`, `#else`, `#endif`.
const DIRECTIVE = /^[ \t]*#(if|elseif|else|endif)(?![A-Za-z0-9_])/gm;
// A condition goes on over the next line while a parenthesis is open or the
// line ends with `&&` or `||`; never past this many lines.
const MAX_CONDITION_LINES = 20;
const OPEN_CONDITION = /(?:&&|\|\|)\s*$/;

/**
 * The text with its `#if`/`#elseif`/`#else`/`#endif` lines blanked (spaces,
 * same length, line breaks kept), so every branch parses as plain code. The
 * grammar reads a directive only between statements: inside a type body it
 * drops the type and lists its members at the top level (`#if DEBUG` merely
 * leaves an ERROR, `#if os(iOS)` or `#if canImport(X)` after a member loses
 * the type). The outline wants the members of every branch anyway, unless
 * the branches do not balance their braces (see _directive_branches.ts).
 */
export function blankDirectives(source: string): string {
  const directives: Directive[] = [];
  DIRECTIVE.lastIndex = 0;
  for (let match; (match = DIRECTIVE.exec(source)) !== null;) {
    const end = _directiveEnd(source, match.index + match[0].length);
    directives.push({ start: match.index, end, word: match[1] });
    DIRECTIVE.lastIndex = end;
  }
  if (directives.length === 0) return source;
  // A block whose branches each open (or close) a body keeps its first.
  const branches = laterBranches(source, directives)
    .sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let from = 0;
  // Ranges come in order of their starts; a later branch holds directives.
  const blank = (start: number, end: number) => {
    if (end <= from) return;
    const at = Math.max(start, from);
    parts.push(source.slice(from, at));
    parts.push(source.slice(at, end).replace(/[^\r\n]/g, " "));
    from = end;
  };
  let next = 0;
  for (const directive of directives) {
    while (next < branches.length && branches[next][0] <= directive.start) {
      blank(...branches[next++]);
    }
    blank(directive.start, directive.end);
  }
  while (next < branches.length) blank(...branches[next++]);
  parts.push(source.slice(from));
  return parts.join("");
}

// Where a directive that starts before `at` ends: at its line break, or at
// that of the line its condition ends on.
function _directiveEnd(source: string, at: number): number {
  let depth = 0;
  for (let lines = 1;; lines++) {
    let end = source.indexOf("\n", at);
    if (end === -1) end = source.length;
    let line = source.slice(at, end);
    const comment = line.indexOf("//");
    if (comment !== -1) line = line.slice(0, comment);
    for (const char of line) {
      if (char === "(") depth++;
      else if (char === ")") depth--;
    }
    const open = depth > 0 || OPEN_CONDITION.test(line);
    if (!open || end === source.length || lines >= MAX_CONDITION_LINES) {
      return end;
    }
    at = end + 1;
  }
}
