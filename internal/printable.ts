// Text shown to a person who decides (an approval question): it must show
// what will run, so nothing in it may move the cursor, erase or recolor what
// is already printed, start a fake second line, or reorder the text.

// C0 controls (tab and newline included), DEL and C1 controls; the line and
// paragraph separators; and the bidirectional marks, embeddings, overrides
// and isolates ("Trojan Source": text displayed in another order than read).
const UNSAFE =
  /[\p{Cc}\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

const NAMED: Record<string, string> = {
  "\t": "\\t",
  "\n": "\\n",
  "\r": "\\r",
};

/**
 * `text` with every control character (newline and tab included: a newline
 * could fake a second prompt line, or push the real command off screen)
 * and every bidirectional or line-separator mark written as an escape:
 * `\n`, `\r`, `\t`, `\x1b`, `\x9b`, `\u202e`. Backslashes stay as they are,
 * so `\n` may also be a backslash and an `n` in the text; what is hidden can
 * no longer be.
 */
export function printable(text: string): string {
  return text.replace(UNSAFE, (char) => NAMED[char] ?? escapeCode(char));
}

function escapeCode(char: string): string {
  const code = char.charCodeAt(0);
  const hex = code.toString(16).padStart(code <= 0xff ? 2 : 4, "0");
  return code <= 0xff ? `\\x${hex}` : `\\u${hex}`;
}
