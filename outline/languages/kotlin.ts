// PLACEHOLDER: the "outline languages" helper replaces this file.
import type { LanguageSpec } from "./_language.ts";

/** Kotlin: placeholder spec, finds no symbols yet. */
export const kotlin: LanguageSpec = {
  name: "Kotlin",
  grammar: "kotlin",
  extensions: [".kt", ".kts"],
  extract: () => [],
};
