import type { LanguageSpec } from "../_language.ts";
import {
  ECMASCRIPT_CONTINUATION,
  extractEcmascript,
  joinEcmascript,
} from "./_ecmascript.ts";
import { prepareTypeScript } from "./_ts_text.ts";
import { restoreKeywordNames } from "./repairs/keyword_names_typescript_0_23_2.ts";

/** TSX (".tsx"): the specification's TS/JS symbol table. */
export const tsx: LanguageSpec = {
  name: "TSX",
  grammar: "tsx",
  extensions: [".tsx"],
  prepare: prepareTypeScript,
  // The root's text is the parsed text (see restoreKeywordNames()).
  extract: (root, source) =>
    restoreKeywordNames(extractEcmascript(root), source, {
      parsed: root.text,
    }),
  join: joinEcmascript,
  continuation: ECMASCRIPT_CONTINUATION,
  braces: true,
};
