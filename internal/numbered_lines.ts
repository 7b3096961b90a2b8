// Line-numbered text for the model, with very long lines shortened. Built in
// one pass from line to line (no split(), no array of every line): a forced
// read of millions of short lines would otherwise need tens of times its
// size in memory.

/** Lines longer than this are shortened in model-facing text. */
export const MAX_LINE_CHARS = 2000;

/** Lines joined into one string at a time before the final join. */
const BATCH_LINES = 4096;

/** Options of formatNumberedLines(). */
export interface NumberedOptions {
  /**
   * Stop before the text grows past this many characters, ending it with a
   * line that says which lines were left out and how to read them.
   */
  maxChars?: number;
}

/**
 * Numbers every line of `text` from `firstLine` ("  12\tcode"), dropping line
 * terminators and shortening lines over {@linkcode MAX_LINE_CHARS} with a marker.
 */
export function formatNumberedLines(
  text: string,
  firstLine: number,
  options: NumberedOptions = {},
): string {
  const maxChars = options.maxChars ?? Infinity;
  const count = lineCount(text);
  const lastLine = firstLine + count - 1;
  const width = String(lastLine).length;
  const batches: string[] = [];
  let batch: string[] = [];
  let size = 0;
  let from = 0;
  for (let i = 0; i < count; i++) {
    const nl = text.indexOf("\n", from);
    const end = nl === -1 ? text.length : nl;
    const number = firstLine + i;
    const line = `${String(number).padStart(width)}\t${
      lineAt(text, from, end)
    }`;
    if (i > 0 && size + line.length + 1 > maxChars) {
      batch.push(
        `… (lines ${number}-${lastLine} are not shown: the text would be over ${maxChars} characters; read them with line=${number} and limit)`,
      );
      break;
    }
    batch.push(line);
    size += line.length + 1;
    if (batch.length >= BATCH_LINES) {
      batches.push(batch.join("\n"));
      batch = [];
    }
    from = end + 1;
  }
  if (batch.length > 0) batches.push(batch.join("\n"));
  return batches.join("\n");
}

/** Lines of `text`: a final newline ends the last line rather than starting one. */
function lineCount(text: string): number {
  let count = 1;
  for (
    let at = text.indexOf("\n");
    at !== -1;
    at = text.indexOf("\n", at + 1)
  ) {
    count++;
  }
  return count > 1 && text.endsWith("\n") ? count - 1 : count;
}

/** The line from `from` to `end` without a "\r", shortened past MAX_LINE_CHARS. */
function lineAt(text: string, from: number, end: number): string {
  if (end > from && text.charCodeAt(end - 1) === 13) end--; // "\r"
  const length = end - from;
  if (length <= MAX_LINE_CHARS) return text.slice(from, end);
  let cut = MAX_LINE_CHARS;
  const code = text.charCodeAt(from + cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // keep surrogate pairs whole
  return `${
    text.slice(from, from + cut)
  }… [line shortened: ${length} characters in total]`;
}
