import type { LanguageSpec } from "../_language.ts";
import { javascript } from "./javascript.ts";

/**
 * JavaScript with Flow types (a `.js` file whose leading comment says
 * `@flow`, see _dialect.ts). The JavaScript grammar reads each type
 * annotation as an error and loses most declarations; the TSX grammar reads
 * Flow's annotations, type aliases and JSX. No extension maps here.
 */
export const flow: LanguageSpec = {
  ...javascript,
  grammar: "tsx",
  extensions: [],
};
