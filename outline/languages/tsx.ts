import type { LanguageSpec } from "./_language.ts";
import {
  ECMASCRIPT_CONTINUATION,
  extractEcmascript,
  joinEcmascript,
} from "./_ecmascript.ts";
import { prepareTypeScript, restoreKeywordNames } from "./_ts_text.ts";

/** TSX (".tsx"): the specification's TS/JS symbol table. */
export const tsx: LanguageSpec = {
  name: "TSX",
  grammar: "tsx",
  extensions: [".tsx"],
  prepare: prepareTypeScript,
  extract: (root, source) =>
    restoreKeywordNames(extractEcmascript(root), source),
  join: joinEcmascript,
  continuation: ECMASCRIPT_CONTINUATION,
  braces: true,
};
