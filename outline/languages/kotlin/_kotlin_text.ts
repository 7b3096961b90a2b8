// Kotlin strings with `${...}` templates, as the text passes step over them.
// Runs inside the outline worker only.

/**
 * Scans string text from `start` up to and past the closing `quote`, or past
 * a `${` (pushing `quote` on `open` so the string resumes after the
 * template).
 */
export function stringEnd(
  text: string,
  start: number,
  quote: string,
  open: string[],
): number {
  const raw = quote === '"""';
  let i = start;
  while (i < text.length) {
    if (!raw && text[i] === "\\") i += 2;
    else if (text.startsWith(quote, i)) return i + quote.length;
    else if (quote !== "'" && text.startsWith("${", i)) {
      open.push(quote);
      return i + 2;
    } else if (!raw && text[i] === "\n") return i;
    else i++;
  }
  return i;
}
