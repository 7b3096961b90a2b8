// A call named like a modifier (`override(w, h)`, `open(file)`): grammar
// @tree-sitter-grammars/tree-sitter-kotlin@1.1.0 takes the word for a modifier
// and loses the class around it. It can go when "the Kotlin grammar still
// misreads a call named override" fails.
//
// A modifier is never directly followed by `(`, so such a word is a name: a
// stand-in as long (one Latin letter swapped for its Cyrillic look-alike)
// parses as a call, and the symbols get the word back after.
import type { OutlineSymbol } from "../../../types.ts";
import type { KotlinRepair } from "./_repair.ts";

// The modifiers the grammar misreads before `(` (probed one by one).
// `suspend` is left out: `suspend(Int) -> Unit` is a function type, read well.
const MODIFIER_CALL =
  /\b(?:public|private|protected|internal|abstract|final|open|override|lateinit|tailrec|infix|inline|external|vararg|noinline|crossinline|sealed)(?=\()/g;

// Latin letters and their Cyrillic look-alikes (one UTF-16 unit each).
const LOOK_ALIKES: Record<string, string> = {
  e: "\u0435",
  c: "\u0441",
  o: "\u043e",
  a: "\u0430",
  i: "\u0456",
  p: "\u0440",
  x: "\u0445",
};

/** Each modifier word's stand-in, and back. */
const STAND_INS = new Map<string, string>();
const WORDS = new Map<string, string>();
for (const word of MODIFIER_CALL.source.match(/\w+(?=[|)])/g) ?? []) {
  const at = [...word].findLastIndex((letter) => letter in LOOK_ALIKES);
  const standIn = word.slice(0, at) + LOOK_ALIKES[word[at]] +
    word.slice(at + 1);
  STAND_INS.set(word, standIn);
  WORDS.set(standIn, word);
}
const STAND_IN = new RegExp([...WORDS.keys()].join("|"), "g");

/**
 * Replaces each modifier word directly followed by `(` (a call, never a
 * modifier) with a stand-in of the same length that the grammar reads as a
 * name.
 *
 * @example
 * ```ts
 * standInForModifierCalls("override(w, h)").length; // 14
 * ```
 */
export function standInForModifierCalls(text: string): string {
  return text.replace(MODIFIER_CALL, (word) => STAND_INS.get(word) ?? word);
}

/** Puts the modifier words back in the names and docs of `symbols`. */
export function restoreModifierCalls(
  symbols: OutlineSymbol[],
): OutlineSymbol[] {
  for (const symbol of symbols) {
    symbol.name = _restore(symbol.name);
    if (symbol.doc !== undefined) symbol.doc = _restore(symbol.doc);
    restoreModifierCalls(symbol.children);
  }
  return symbols;
}

function _restore(text: string): string {
  return /[\u0430-\u0456]/.test(text)
    ? text.replace(STAND_IN, (standIn) => WORDS.get(standIn) ?? standIn)
    : text;
}

/** Stands in for calls named like modifiers, and puts the words back after. */
export const modifierCalls: KotlinRepair = (text) => ({
  text: standInForModifierCalls(text),
  restore: restoreModifierCalls,
});
