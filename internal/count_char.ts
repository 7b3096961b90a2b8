/**
 * How many times `char` occurs in `text[from, to)`. With indexOf, so there is
 * no loop over each character in JavaScript.
 */
export function countChar(
  text: string,
  char: string,
  from = 0,
  to: number = text.length,
): number {
  let count = 0;
  for (let at = text.indexOf(char, from); at !== -1 && at < to;) {
    count++;
    at = text.indexOf(char, at + 1);
  }
  return count;
}
