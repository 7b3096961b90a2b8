// PLACEHOLDER: the "outline languages" helper replaces this file.
import type { LanguageSpec } from "./_language.ts";

/** Swift: placeholder spec, finds no symbols yet. */
export const swift: LanguageSpec = {
  name: "Swift",
  grammar: "swift",
  extensions: [".swift"],
  extract: () => [],
};
