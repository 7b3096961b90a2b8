// Kotlin 2.2's guard in a `when` entry (`is Int if x > 0 -> 1`): grammar
// @tree-sitter-grammars/tree-sitter-kotlin@1.1.0 does not know it and loses
// the class around it. The guard is blanked (same length, one scan). It can
// go when "the Kotlin grammar still misreads a when guard" fails.
import type { KotlinRepair } from "./_repair.ts";

// Words that start a statement, never a `when` condition.
const STATEMENT =
  /^(?:if|val|var|return|throw|while|for|do|when|try|catch|fun|class|object)\b/;

// What may end a `when` condition right before its guard's ` if`.
const CONDITION_END = /[\w)\]>?`'"]/;

/**
 * Blanks the guard of each `when` entry that has one (`is Int if x > 0 ->`
 * reads `is Int          ->`; `else if ready ->` reads `else          ->`).
 *
 * @example
 * ```ts
 * blankWhenGuards("  is Int if x > 0 -> 1\n"); // "  is Int          -> 1\n"
 * ```
 */
export function blankWhenGuards(text: string): string {
  if (!text.includes(" if")) return text;
  const lines = text.split("\n");
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const guard = _guard(lines[i]);
    if (guard === undefined) continue;
    const [from, to] = guard;
    lines[i] = lines[i].slice(0, from) + " ".repeat(to - from) +
      lines[i].slice(to);
    changed = true;
  }
  return changed ? lines.join("\n") : text;
}

// Where the guard of a `when` entry on this line is, `if` to the arrow: the
// one ` if` before the first `->`. The condition holds no braces or `;`
// (a lambda's `{ x -> }`, a statement before) and starts with no statement
// word (an `if` expression); the guard holds no braces or comments,
// and its brackets balance.
function _guard(line: string): [number, number] | undefined {
  const arrow = line.indexOf("->");
  if (arrow === -1) return undefined;
  const at = _onlyIf(line, arrow);
  if (at === -1) return undefined;
  const condition = line.slice(0, at - 1).trim();
  const guard = line.slice(at, arrow);
  if (
    condition === "" || /[{};]/.test(condition) ||
    !CONDITION_END.test(condition.at(-1)!) || STATEMENT.test(condition) ||
    (condition.startsWith("else") && condition !== "else") ||
    /[{};]|\/\//.test(guard) || !_balanced(guard)
  ) {
    return undefined;
  }
  return [at, arrow];
}

// Where the one word `if` after a space (`if x`, `if(x)`) before `end` is,
// or -1 when there is none or more than one.
function _onlyIf(line: string, end: number): number {
  let found = -1;
  for (let i = line.indexOf(" if"); i !== -1 && i < end;) {
    const after = line[i + 3];
    if (after === " " || after === "(") {
      if (found !== -1) return -1;
      found = i + 1;
    }
    i = line.indexOf(" if", i + 3);
  }
  return found;
}

function _balanced(text: string): boolean {
  let depth = 0;
  for (const ch of text) {
    if (ch === "(" || ch === "[") depth++;
    else if (ch === ")" || ch === "]") depth--;
    if (depth < 0) return false;
  }
  return depth === 0;
}

/** Blanks `when` guards before the parse. */
export const whenGuards: KotlinRepair = (text) => ({
  text: blankWhenGuards(text),
});
