// PLACEHOLDER: the "outline languages" helper replaces this file.
import type { LanguageSpec } from "./_language.ts";

/** C++: placeholder spec, finds no symbols yet. */
export const cpp: LanguageSpec = {
  name: "C++",
  grammar: "cpp",
  extensions: [".cpp", ".cc", ".cxx", ".hpp", ".hxx", ".hh"],
  extract: () => [],
};
