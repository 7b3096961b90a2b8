// PLACEHOLDER: the "outline languages" helper replaces this file.
import type { LanguageSpec } from "./_language.ts";

/** C: placeholder spec, finds no symbols yet. */
export const c: LanguageSpec = {
  name: "C",
  grammar: "c",
  extensions: [".c", ".h"],
  extract: () => [],
};
