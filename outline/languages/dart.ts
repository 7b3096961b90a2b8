// PLACEHOLDER: the "outline languages" helper replaces this file.
import type { LanguageSpec } from "./_language.ts";

/** Dart: placeholder spec, finds no symbols yet. */
export const dart: LanguageSpec = {
  name: "Dart",
  grammar: "dart",
  extensions: [".dart"],
  extract: () => [],
};
