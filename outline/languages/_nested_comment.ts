// Block comments that nest, as Kotlin's and Swift's do (`/* a /* b */ c */`).
// Runs inside the outline worker only.

/** The index after the block comment starting at `start`. */
export function nestedCommentEnd(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    if (text.startsWith("/*", i)) {
      depth++;
      i += 2;
    } else if (text.startsWith("*/", i)) {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  return i;
}
