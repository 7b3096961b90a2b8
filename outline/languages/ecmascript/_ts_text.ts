// The text repairs for TypeScript and TSX: shapes tsc and Prettier write that
// tree-sitter-typescript 0.23.2 cannot parse, rewritten in place (same
// length, every line where it was), one per file of repairs/. Runs inside the
// outline worker only.
import { blankImportTypes } from "./repairs/import_types_typescript_0_23_2.ts";
import { separateSignatures } from "./repairs/generic_signatures_typescript_0_23_2.ts";
import { renameKeywords } from "./repairs/keyword_names_typescript_0_23_2.ts";

// In this order: each reads the text the ones before it wrote, and `source`,
// the text as the file has it.
const REPAIRS: readonly ((text: string, source: string) => string)[] = [
  blankImportTypes,
  separateSignatures,
  renameKeywords,
];

/** The text with every repair of REPAIRS applied. */
export function prepareTypeScript(source: string): string {
  let text = source;
  for (const repair of REPAIRS) text = repair(text, source);
  return text;
}
