// When EditFile's oldText is not in the file: find where the model probably
// meant, and say whether only line endings or whitespace differ.
import { formatNumberedLines } from "../../internal/numbered_lines.ts";
import { lastAtOrBefore } from "../../internal/last_at_or_before.ts";

/** Why the closest region did not match exactly. */
export type Mismatch = "line-endings" | "whitespace" | "similar";

/** A region of the file near to oldText. */
export interface ClosestText {
  startLine: number;
  endLine: number;
  mismatch: Mismatch;
  /** The region's lines, numbered as ReadFile shows them. */
  excerpt: string;
}

/** Beyond this, only the cheap checks run. */
const FUZZY_MAX_CHARS = 5 * 1024 * 1024;
/** Beyond this, no region is searched at all. */
export const SEARCH_MAX_CHARS = 64 * 1024 * 1024;
const EXCERPT_MAX_LINES = 30;
const MIN_SIMILARITY = 0.5;
/**
 * Characters of a line that the similarity looks at: the start of a line
 * tells where it is, and a file of lines of 100,000 characters would
 * otherwise cost seconds and hundreds of megabytes.
 */
const DICE_MAX_CHARS = 2000;

/** The region of `text` closest to `oldText`, or undefined when nothing is close. */
export function closestText(
  text: string,
  oldText: string,
): ClosestText | undefined {
  if (text.length > SEARCH_MAX_CHARS) return undefined;
  const lines = text.split("\n");
  const found = sameWithoutCr(text, oldText, lines) ??
    sameWithoutWhitespace(lines, oldText) ??
    (text.length <= FUZZY_MAX_CHARS ? mostSimilar(lines, oldText) : undefined);
  if (!found) return undefined;
  const [start, end, mismatch] = found;
  const shownEnd = Math.min(end, start + EXCERPT_MAX_LINES - 1);
  const excerpt = formatNumberedLines(
    lines.slice(start - 1, shownEnd).join("\n"),
    start,
  );
  return { startLine: start, endLine: end, mismatch, excerpt };
}

type Found = [startLine: number, endLine: number, mismatch: Mismatch];

function sameWithoutCr(
  text: string,
  oldText: string,
  lines: string[],
): Found | undefined {
  if (!text.includes("\r") && !oldText.includes("\r")) return undefined;
  const at = text.replaceAll("\r", "").indexOf(oldText.replaceAll("\r", ""));
  if (at === -1) return undefined;
  // Line numbers do not change when "\r" is removed: count "\n" before `at`.
  let line = 1;
  let chars = 0;
  for (const l of lines) {
    const length = l.replaceAll("\r", "").length + 1;
    if (chars + length > at) break;
    chars += length;
    line++;
  }
  const span = oldText.split("\n").length - 1;
  return [line, Math.min(line + span, lines.length), "line-endings"];
}

/** Compares with every whitespace character removed, so spacing, indentation and line breaks do not count. */
function sameWithoutWhitespace(
  lines: string[],
  oldText: string,
): Found | undefined {
  const wanted = oldText.replace(/\s+/g, "");
  if (wanted.length === 0) return undefined;
  const squeezed: string[] = new Array(lines.length);
  const starts: number[] = new Array(lines.length);
  let offset = 0;
  for (let i = 0; i < lines.length; i++) {
    squeezed[i] = lines[i].replace(/\s+/g, "");
    starts[i] = offset;
    offset += squeezed[i].length;
  }
  const at = squeezed.join("").indexOf(wanted);
  if (at === -1) return undefined;
  const first = lastAtOrBefore(starts, at);
  const last = lastAtOrBefore(starts, at + wanted.length - 1);
  return [first + 1, last + 1, "whitespace"];
}

/** Aligns the most distinctive line of oldText with the file line most like it. */
function mostSimilar(lines: string[], oldText: string): Found | undefined {
  const oldLines = oldText.split("\n").map((l) => l.trim());
  let anchor = 0;
  for (let i = 1; i < oldLines.length; i++) {
    if (oldLines[i].length > oldLines[anchor].length) anchor = i;
  }
  const wanted = oldLines[anchor];
  if (wanted.length < 3) return undefined;
  const wantedGrams = bigrams(wanted.slice(0, DICE_MAX_CHARS));
  let best = -1;
  let bestScore = MIN_SIMILARITY;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].trim();
    if (line.length < wanted.length / 2 || line.length > wanted.length * 2) {
      continue;
    }
    const score = dice(wantedGrams, line.slice(0, DICE_MAX_CHARS));
    if (score > bestScore) {
      bestScore = score;
      best = i;
    }
  }
  if (best === -1) return undefined;
  const start = Math.max(1, best + 1 - anchor);
  const end = Math.min(lines.length, start + oldLines.length - 1);
  return [start, end, "similar"];
}

interface Bigrams {
  grams: Map<string, number>;
  count: number;
}

function bigrams(text: string): Bigrams {
  const grams = new Map<string, number>();
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    grams.set(gram, (grams.get(gram) ?? 0) + 1);
  }
  return { grams, count: Math.max(0, text.length - 1) };
}

/** Sørensen–Dice similarity of character bigrams, 0 to 1. */
function dice(wanted: Bigrams, text: string): number {
  const seen = new Map<string, number>();
  let common = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const gram = text.slice(i, i + 2);
    const used = seen.get(gram) ?? 0;
    if (used < (wanted.grams.get(gram) ?? 0)) common++;
    seen.set(gram, used + 1);
  }
  return (2 * common) / (wanted.count + Math.max(0, text.length - 1));
}
