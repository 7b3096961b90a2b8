// The token estimate that the agent's context budget and the repo map share.

/** ASCII characters per token in the estimate (code and English average 3-4). */
export const CHARS_PER_TOKEN = 4;

/**
 * A rough token count: ASCII at {@linkcode CHARS_PER_TOKEN} characters a
 * token, any other character a token of its own (CJK text takes about one
 * token a character).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(estimateTokens("abcdefgh"), 2);
 * ```
 */
export function estimateTokens(text: string): number {
  let other = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) > 0x7f) other++;
  }
  return (text.length - other) / CHARS_PER_TOKEN + other;
}
