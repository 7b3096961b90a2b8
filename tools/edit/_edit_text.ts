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
  /** How many matches there are (or `countLimit`, when counting stopped there). */
  count: number;
  /** The first matches (at most MAX_KEPT_MATCHES), in order, with their 1-based line. */
  matches: Replacement[];
}

/**
 * Matches kept with their line for messages and the diff; past it they are
 * only counted (a replaceAll of "e" in a big file has tens of millions).
 */
export const MAX_KEPT_MATCHES = 50_000;

/** Options of planEdit(). */
export interface PlanOptions {
  /** Stop counting matches here (a refusal needs no exact count of millions). */
  countLimit?: number;
}

/** Finds `oldText` in `text`, trying the file's own line endings when needed. */
export function planEdit(
  text: string,
  oldText: string,
  newText: string,
  options: PlanOptions = {},
): EditPlan {
  const limit = options.countLimit ?? Infinity;
  const findAll = (needle: string) => findMatches(text, needle, limit);
  const eol = lineEnding(text);
  const adaptedNew = eol === undefined ? newText : withLineEnding(newText, eol);
  const direct = findAll(oldText);
  if (direct.count > 0) {
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
  return plan(text, adaptedOld, adaptedNew, findAll(adaptedOld));
}

/** Applies every match of a plan. */
export function applyEdit(text: string, plan: EditPlan): string {
  // Joined in batches: one array of two parts per match would cost more
  // than the text itself for millions of matches.
  const chunks: string[] = [];
  let parts: string[] = [];
  let last = 0;
  for (const index of eachMatch(text, plan.oldText)) {
    parts.push(text.slice(last, index), plan.newText);
    last = index + plan.oldText.length;
    if (parts.length >= 8192) {
      chunks.push(parts.join(""));
      parts = [];
    }
  }
  parts.push(text.slice(last));
  chunks.push(parts.join(""));
  return chunks.join("");
}

/** Start indexes of the non-overlapping occurrences of `needle`, in order. */
export function* eachMatch(text: string, needle: string): Generator<number> {
  for (
    let at = text.indexOf(needle);
    at !== -1;
    at = text.indexOf(needle, at + needle.length)
  ) yield at;
}

function plan(
  text: string,
  oldText: string,
  newText: string,
  found: Found,
): EditPlan {
  const lines = lineNumbers(text, found.kept);
  const matches = found.kept.map((index, i) => ({
    index,
    oldLength: oldText.length,
    replacement: newText,
    line: lines[i],
  }));
  return { oldText, newText, count: found.count, matches };
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

interface Found {
  /** The first indexes, at most MAX_KEPT_MATCHES. */
  kept: number[];
  count: number;
}

/** The occurrences of `needle`: counted up to `limit`, the first ones kept. */
function findMatches(text: string, needle: string, limit: number): Found {
  const kept: number[] = [];
  let count = 0;
  for (const at of eachMatch(text, needle)) {
    if (count >= limit) break;
    if (count < MAX_KEPT_MATCHES) kept.push(at);
    count++;
  }
  return { kept, count };
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
