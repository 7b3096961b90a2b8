// The pure part of EditFile: literal matching that respects the file's line
// endings, and the replacement itself (never String#replace, whose "$&", "$1"
// and "$$" patterns would corrupt newText).
import type { Replacement } from "./_diff.ts";

/** What an edit found and produced. */
export interface EditPlan {
  /** The matched text as searched (possibly with adapted line endings). */
  oldText: string;
  /** The replacement as written (in the file's line endings). */
  newText: string;
  /** Every match, in order, with its 1-based line. */
  matches: Replacement[];
}

/** Finds `oldText` in `text`, trying the file's own line endings when needed. */
export function planEdit(
  text: string,
  oldText: string,
  newText: string,
): EditPlan {
  const eol = lineEnding(text);
  const adaptedNew = eol === undefined ? newText : withLineEnding(newText, eol);
  const direct = findAll(text, oldText);
  if (direct.length > 0) {
    // Matched as typed: its own line breaks are those of the region (a file
    // may mix them); without any, the file's.
    const own = lineEnding(oldText);
    const replacement = own === undefined
      ? adaptedNew
      : withLineEnding(newText, own);
    return plan(text, oldText, replacement, direct);
  }
  if (eol === undefined) return plan(text, oldText, adaptedNew, direct);
  const adaptedOld = withLineEnding(oldText, eol);
  if (adaptedOld === oldText) return plan(text, oldText, adaptedNew, direct);
  return plan(text, adaptedOld, adaptedNew, findAll(text, adaptedOld));
}

/** Applies every match of a plan. */
export function applyEdit(text: string, plan: EditPlan): string {
  const parts: string[] = [];
  let last = 0;
  for (const match of plan.matches) {
    parts.push(text.slice(last, match.index), plan.newText);
    last = match.index + match.oldLength;
  }
  parts.push(text.slice(last));
  return parts.join("");
}

function plan(
  text: string,
  oldText: string,
  newText: string,
  indexes: number[],
): EditPlan {
  const lines = lineNumbers(text, indexes);
  const matches = indexes.map((index, i) => ({
    index,
    oldLength: oldText.length,
    replacement: newText,
    line: lines[i],
  }));
  return { oldText, newText, matches };
}

/** The file's line ending, decided by its first line; undefined without newlines. */
export function lineEnding(text: string): "\r\n" | "\n" | undefined {
  const nl = text.indexOf("\n");
  if (nl === -1) return undefined;
  return nl > 0 && text[nl - 1] === "\r" ? "\r\n" : "\n";
}

/** Rewrites every line break of `text` as `eol`. */
export function withLineEnding(text: string, eol: "\r\n" | "\n"): string {
  return text.split("\r\n").join("\n").split("\n").join(eol);
}

/** Start indexes of the non-overlapping occurrences of `needle`. */
function findAll(text: string, needle: string): number[] {
  const found: number[] = [];
  let at = text.indexOf(needle);
  while (at !== -1) {
    found.push(at);
    at = text.indexOf(needle, at + needle.length);
  }
  return found;
}

/** 1-based line numbers of ascending indexes, counting newlines once. */
function lineNumbers(text: string, indexes: number[]): number[] {
  const lines: number[] = [];
  let line = 1;
  let from = 0;
  for (const index of indexes) {
    let nl = text.indexOf("\n", from);
    while (nl !== -1 && nl < index) {
      line++;
      nl = text.indexOf("\n", nl + 1);
    }
    from = nl === -1 ? text.length : Math.min(nl, index);
    lines.push(line);
  }
  return lines;
}
