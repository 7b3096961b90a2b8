// Checks for text passes that blank what the grammar must not read: random
// texts from a seeded generator, and the rule every such pass keeps.
import assert from "node:assert/strict";

/**
 * A seeded linear congruential generator: each call gives a number in
 * `[0, n)`, the same sequence for the same seed.
 */
export function seededRandom(seed: number): (n: number) => number {
  return (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
}

/**
 * `count` random texts made from `seed`, each of 1 to `most` `pieces` in a
 * row; with `between`, one of them, picked at random, follows each piece.
 */
export function* randomTexts(
  pieces: string[],
  options: { seed: number; count: number; most: number; between?: string[] },
): Generator<string> {
  const next = seededRandom(options.seed);
  const between = options.between;
  for (let trial = 0; trial < options.count; trial++) {
    let text = "";
    for (let k = 1 + next(options.most); k > 0; k--) {
      text += pieces[next(pieces.length)];
      if (between) text += between[next(between.length)];
    }
    yield text;
  }
}

/**
 * Asserts that `out` is `text` with some characters blanked: the same
 * length, every changed character a space, and no line break changed.
 */
export function assertBlankedOnly(out: string, text: string): void {
  assert.equal(out.length, text.length, JSON.stringify(text));
  for (let i = 0; i < text.length; i++) {
    if (out[i] !== text[i]) {
      assert.equal(out[i], " ", JSON.stringify(text));
      assert.notEqual(text[i], "\n", JSON.stringify(text));
    }
  }
}
