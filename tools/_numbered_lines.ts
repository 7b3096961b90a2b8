// Line-numbered text for the model, with very long lines shortened.

/** Lines longer than this are shortened in model-facing text. */
export const MAX_LINE_CHARS = 2000;

/**
 * Numbers every line of `text` from `firstLine` ("  12\tcode"), dropping line
 * terminators and shortening lines over {@linkcode MAX_LINE_CHARS} with a marker.
 */
export function formatNumberedLines(text: string, firstLine: number): string {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const width = String(firstLine + lines.length - 1).length;
  const out: string[] = new Array(lines.length);
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (line.endsWith("\r")) line = line.slice(0, -1);
    out[i] = `${String(firstLine + i).padStart(width)}\t${shorten(line)}`;
  }
  return out.join("\n");
}

function shorten(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  let cut = MAX_LINE_CHARS;
  const code = line.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut--; // keep surrogate pairs whole
  return `${
    line.slice(0, cut)
  }… [line shortened: ${line.length} characters in total]`;
}
