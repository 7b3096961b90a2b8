// A unified diff of an edit, made with the npm "diff" package. Only windows of
// lines around the replacements are diffed, so a one-line edit of a 50 MB file
// costs as much as diffing a few lines. A window with many changes (a
// replaceAll over every line) would cost lines × changes to diff, minutes for
// tens of thousands of lines: past a budget, its hunk is written straight from
// the replacements instead.
import { FILE_HEADERS_ONLY, formatPatch, structuredPatch } from "diff";
import { countChar } from "../../internal/count_char.ts";

/** Lines of context around each change. */
const CONTEXT = 3;
/** Beyond this many separate change windows, the rest is summarized. */
const MAX_WINDOWS = 200;
/** Lines × edit length one window's diff may cost (about 60 ms). */
const DIFF_BUDGET = 2_000_000;

/** One replacement: `oldLength` chars at `index` of the old text became `replacement`. */
export interface Replacement {
  index: number;
  oldLength: number;
  replacement: string;
  /** The 1-based line of the old text where `index` lies. */
  line: number;
}

/** A unified diff and its counts of added and removed lines. */
export interface EditDiff {
  diff: string;
  added: number;
  removed: number;
}

interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** Options of editDiff(). */
export interface EditDiffOptions {
  /** All replacements of the edit, when `replacements` holds only the first ones. */
  total?: number;
  /** About the most characters the diff may take (it is cut with a note past it). */
  maxChars?: number;
}

/** The diff's default size bound: a result no one could read whole anyway. */
export const MAX_EDIT_DIFF_CHARS = 1024 * 1024;

/**
 * Diffs `oldText` against the result of applying `replacements` (in order).
 * Only the changes that fit `maxChars` are shown, then a line counting the
 * rest: the diff of a replaceAll over a 200 MB file would be twice its size.
 */
export function editDiff(
  name: string,
  oldText: string,
  replacements: Replacement[],
  options: EditDiffOptions = {},
): EditDiff {
  const total = options.total ?? replacements.length;
  const grouped = groupWindows(oldText, replacements, {
    budget: options.maxChars ?? MAX_EDIT_DIFF_CHARS,
    complete: total === replacements.length,
  });
  const hunks: Hunk[] = [];
  let shift = 0; // lines added minus removed by earlier windows
  let added = 0;
  let removed = 0;
  for (const window of grouped.windows) {
    const before = oldText.slice(window.start, window.end);
    const after = applyWithin(before, window.start, window.replacements);
    const lines = lineCount(before) + lineCount(after) + 2;
    const patch = structuredPatch(
      "a",
      "b",
      before,
      after,
      undefined,
      undefined,
      {
        context: CONTEXT,
        maxEditLength: Math.max(64, Math.floor(DIFF_BUDGET / lines)),
      },
    );
    const windowHunks = patch?.hunks ?? [directHunk(before, after)];
    for (const hunk of windowHunks) {
      hunk.oldStart += window.line - 1;
      hunk.newStart += window.line - 1 + shift;
      for (const line of hunk.lines) {
        if (line[0] === "+") added++;
        else if (line[0] === "-") removed++;
      }
      hunks.push(hunk);
    }
    shift += lineCount(after) - lineCount(before);
  }
  let diff = formatPatch({
    oldFileName: name,
    newFileName: name,
    oldHeader: undefined,
    newHeader: undefined,
    hunks,
  }, FILE_HEADERS_ONLY);
  const hidden = total - grouped.shown;
  if (hidden > 0) diff += cutNote(hidden, grouped);
  return { diff, added, removed };
}

/** Starts the line that says a diff was cut (see diffWasCut()). */
const CUT_MARK = "… ";

function cutNote(hidden: number, grouped: Grouped): string {
  const more = grouped.shown > 0 ? "more " : "";
  const what = `${hidden} ${more}${
    hidden === 1 ? "replacement" : "replacements"
  }`;
  const why = grouped.longLine === undefined
    ? "the diff is cut to keep it small"
    : `the lines around line ${grouped.longLine} are too long to show in a diff`;
  return `${CUT_MARK}${what} not shown (${why}); ReadFile the file to check them\n`;
}

/** Whether editDiff() left replacements out of `diff`. */
export function diffWasCut(diff: string): boolean {
  return /\n… \d+ (more )?replacements? not shown \(/.test(
    `\n${diff.slice(-200)}`,
  );
}

interface Window {
  start: number;
  end: number;
  /** The 1-based line where `start` lies. */
  line: number;
  replacements: Replacement[];
}

interface Grouped {
  windows: Window[];
  /** How many replacements the windows hold. */
  shown: number;
  /** The line whose length stopped the diff before any change, if one did. */
  longLine?: number;
}

/**
 * Full-line windows with context around each replacement, merged when they
 * touch, while their cost (old and new text) fits `budget`. The windows end
 * before a line holding a replacement they leave out, so no hunk shows a
 * changed line as unchanged context; when `replacements` are only the first
 * of the edit (`complete` false), the last one's line is left out too, since
 * the next, unknown, may lie on it.
 */
function groupWindows(
  text: string,
  replacements: Replacement[],
  options: { budget: number; complete: boolean },
): Grouped {
  const windows: Window[] = [];
  let cost = 0;
  let shown = 0;
  let cutAt = -1; // index of the first replacement left out
  for (const [i, r] of replacements.entries()) {
    const start = backLines(text, r.index, CONTEXT + 1);
    const end = forwardLines(text, r.index + r.oldLength, CONTEXT + 1);
    const last = windows.at(-1);
    const merges = last !== undefined && start <= last.end;
    const from = merges ? last.end : start;
    const more = 2 * Math.max(0, end - from) + r.replacement.length -
      r.oldLength;
    if (
      cost + more > options.budget ||
      (!merges && windows.length >= MAX_WINDOWS)
    ) {
      cutAt = i;
      break;
    }
    cost += more;
    shown++;
    if (merges) {
      last.end = Math.max(last.end, end);
      last.replacements.push(r);
      continue;
    }
    const skipped = countChar(text, "\n", start, r.index);
    windows.push({ start, end, line: r.line - skipped, replacements: [r] });
  }
  if (cutAt === -1 && options.complete) return { windows, shown };
  const next = cutAt === -1 ? replacements.at(-1) : replacements[cutAt];
  if (next === undefined) return { windows, shown };
  shown -= endBeforeLineOf(text, windows, next.index);
  if (windows.length > 0) return { windows, shown };
  return { windows, shown, longLine: next.line };
}

/**
 * Ends the last window before the line holding `index`, dropping its
 * replacements on that line (and the window, if none is left); returns how
 * many replacements were dropped.
 */
function endBeforeLineOf(
  text: string,
  windows: Window[],
  index: number,
): number {
  const last = windows.at(-1);
  if (last === undefined) return 0;
  const lineStart = text.lastIndexOf("\n", index - 1) + 1;
  if (last.end <= lineStart) return 0;
  last.end = Math.max(last.start, lineStart);
  const before = last.replacements.length;
  last.replacements = last.replacements.filter((r) => r.index < lineStart);
  if (last.replacements.length === 0) windows.pop();
  return before - last.replacements.length;
}

/** The start of the line `n - 1` lines above the one holding `index`. */
function backLines(text: string, index: number, n: number): number {
  let at = index;
  for (let i = 0; i < n; i++) {
    const nl = text.lastIndexOf("\n", at - 1);
    if (nl === -1) return 0;
    at = nl;
  }
  return at + 1;
}

/** The end (after its newline) of the line `n - 1` lines below the one holding `index`. */
function forwardLines(text: string, index: number, n: number): number {
  let at = index - 1;
  for (let i = 0; i < n; i++) {
    const nl = text.indexOf("\n", at + 1);
    if (nl === -1) return text.length;
    at = nl;
  }
  return at + 1;
}

function applyWithin(
  before: string,
  offset: number,
  replacements: Replacement[],
): string {
  const parts: string[] = [];
  let last = 0;
  for (const r of replacements) {
    parts.push(before.slice(last, r.index - offset), r.replacement);
    last = r.index - offset + r.oldLength;
  }
  parts.push(before.slice(last));
  return parts.join("");
}

function lineCount(text: string): number {
  return countChar(text, "\n");
}

/**
 * The whole window as one hunk without a search: the lines it begins and ends
 * with unchanged are context, every line between is removed and added. Not
 * the shortest diff when unchanged lines lie between the changes, but linear
 * in the window's size.
 */
function directHunk(before: string, after: string): Hunk {
  const old = splitLines(before);
  const now = splitLines(after);
  let head = 0;
  while (head < old.length && head < now.length && old[head] === now[head]) {
    head++;
  }
  let tail = 0;
  while (
    tail < old.length - head && tail < now.length - head &&
    old[old.length - 1 - tail] === now[now.length - 1 - tail]
  ) tail++;
  const lines: string[] = [];
  for (const text of old.slice(0, head)) pushLine(lines, " ", text);
  for (const text of old.slice(head, old.length - tail)) {
    pushLine(lines, "-", text);
  }
  for (const text of now.slice(head, now.length - tail)) {
    pushLine(lines, "+", text);
  }
  for (const text of old.slice(old.length - tail)) pushLine(lines, " ", text);
  return {
    oldStart: 1,
    oldLines: old.length,
    newStart: 1,
    newLines: now.length,
    lines,
  };
}

// Lines with their newline, the last one without if the text has none.
function splitLines(text: string): string[] {
  const lines: string[] = [];
  let from = 0;
  for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", from)) {
    lines.push(text.slice(from, at + 1));
    from = at + 1;
  }
  if (from < text.length) lines.push(text.slice(from));
  return lines;
}

// A hunk line: its mark and text, and the marker that a line without a
// newline (the file's last) gets.
function pushLine(lines: string[], mark: string, text: string): void {
  if (text.endsWith("\n")) lines.push(mark + text.slice(0, -1));
  else lines.push(mark + text, "\\ No newline at end of file");
}

/**
 * `diff` cut after its last whole line within `maxChars`, with a line saying
 * how many lines were left out: a model or a prompt cannot take a diff of
 * every line of a large file.
 */
export function clipDiff(diff: string, maxChars: number): string {
  if (diff.length <= maxChars) return diff;
  // Whole lines, unless the first alone is over the budget.
  const lineEnd = diff.lastIndexOf("\n", maxChars - 1) + 1;
  const shown = diff.slice(0, lineEnd > 0 ? lineEnd : maxChars);
  const rest = diff.slice(shown.length);
  const hidden = countChar(rest, "\n") + (rest.endsWith("\n") ? 0 : 1);
  return `${shown}… ${hidden} more diff lines not shown; ReadFile the file to check the change\n`;
}
