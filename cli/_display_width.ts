// How much room text takes on a terminal: wide (CJK, fullwidth, emoji)
// characters take two columns, combining marks and ANSI escape sequences none.
// Characters of ambiguous width count as one, as most terminals show them: a
// caller that erases rows would rather leave one than erase a row not its own.

/** CSI (colors, cursor moves), OSC (titles, links) and two-byte escapes. */
const ANSI_ESCAPE =
  // deno-lint-ignore no-control-regex
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
/** Takes no column: combining marks, format characters (ZWJ), controls. */
const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\p{Cc}]$/u;
const EMOJI = /^\p{Emoji_Presentation}$/u;
const segmenter = new Intl.Segmenter();

/** East Asian Wide and Fullwidth ranges (after Markus Kuhn's wcwidth). */
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f], // Hangul Jamo initial consonants
  [0x2329, 0x232a], // angle brackets
  [0x2e80, 0x303e], // CJK radicals, punctuation
  [0x3040, 0xa4cf], // kana, CJK ideographs, Yi
  [0xa960, 0xa97f], // Hangul Jamo extended-A
  [0xac00, 0xd7a3], // Hangul syllables
  [0xf900, 0xfaff], // CJK compatibility ideographs
  [0xfe10, 0xfe19], // vertical forms
  [0xfe30, 0xfe6f], // CJK compatibility forms
  [0xff00, 0xff60], // fullwidth forms
  [0xffe0, 0xffe6], // fullwidth signs
  [0x1f300, 0x1f64f], // pictographs, emoticons
  [0x1f900, 0x1f9ff], // supplemental pictographs
  [0x20000, 0x3fffd], // CJK extensions B and later
];

/** The columns one code point takes: 0, 1 or 2. */
function codePointWidth(char: string): number {
  if (ZERO_WIDTH.test(char)) return 0;
  const code = char.codePointAt(0)!;
  const wide = WIDE_RANGES.some(([from, to]) => code >= from && code <= to);
  return wide || EMOJI.test(char) ? 2 : 1;
}

/** The columns one user-perceived character (grapheme) takes. */
function graphemeWidth(grapheme: string): number {
  // A base with marks, or emoji joined by ZWJ: as wide as its widest part.
  let width = 0;
  for (const char of grapheme) width = Math.max(width, codePointWidth(char));
  return width;
}

/** The widths of the characters of `text` as a terminal shows them. */
function* widths(text: string): Generator<number> {
  for (const { segment } of segmenter.segment(text.replace(ANSI_ESCAPE, ""))) {
    yield graphemeWidth(segment);
  }
}

/**
 * The columns `text` (one line) takes on a terminal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(displayWidth("\x1b[1mok\x1b[0m 你好"), 7);
 * ```
 */
export function displayWidth(text: string): number {
  let width = 0;
  for (const w of widths(text)) width += w;
  return width;
}

/**
 * The terminal rows `line` (no newline in it) fills from the first column
 * of a terminal `columns` wide: a wide character that does not fit at the end
 * of a row goes whole to the next one, and a line that ends exactly at the
 * last column leaves the cursor on that row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(rowsFilled("a".repeat(81), 80), 2);
 * ```
 */
export function rowsFilled(line: string, columns: number): number {
  let rows = 1;
  let column = 0;
  for (const width of widths(line)) {
    if (column + width > columns) {
      rows++;
      column = 0;
    }
    column += width;
  }
  return rows;
}
