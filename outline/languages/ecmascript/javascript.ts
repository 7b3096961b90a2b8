import type { LanguageSpec } from "../_language.ts";
import {
  ECMASCRIPT_CONTINUATION,
  extractEcmascript,
  joinEcmascript,
} from "./_ecmascript.ts";

/** JavaScript (".js", ".jsx", ".mjs", ".cjs"): the specification's TS/JS symbol table. */
export const javascript: LanguageSpec = {
  name: "JavaScript",
  grammar: "javascript",
  extensions: [".js", ".jsx", ".mjs", ".cjs"],
  extract: extractEcmascript,
  join: joinEcmascript,
  continuation: ECMASCRIPT_CONTINUATION,
  braces: true,
};
