// Class bodies that end a member and the body on one line, twice (`object O
// { fun f() {} }`): grammar @tree-sitter-grammars/tree-sitter-kotlin@1.1.0
// gives ERROR nodes and loses the declarations after. A `;` before such a `}`
// avoids it. It can go when "the Kotlin grammar still misreads one-line
// bodies" fails.
import { nestedCommentEnd } from "../../_nested_comment.ts";
import { stringEnd } from "../_kotlin_text.ts";
import type { KotlinRepair } from "./_repair.ts";

// What may end a member right before `}`: a name, a literal, a call or a
// block. Anything else (`{`, `;`, `,`, `->`) is left alone.
const MEMBER_END = /[\p{L}\p{N}_)\]}"'?!`]/u;

/**
 * Inserts `;` before each `}` that closes a block on the line where a member
 * ends, skipping comments, strings and string templates' text.
 */
export function terminateOneLineBodies(text: string): string {
  const inserts: number[] = [];
  // What each open `{` belongs to: code, or the quote of the string whose
  // `${` template it opened (the string resumes after its `}`).
  const braces: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "/" && text[i + 1] === "/") i = _indexOrEnd(text, "\n", i);
    else if (ch === "/" && text[i + 1] === "*") i = nestedCommentEnd(text, i);
    else if (ch === "`") {
      // A backticked name (`fun \`reads {a}\`()`) holds no code.
      const close = text.indexOf("`", i + 1);
      i = close !== -1 && !text.slice(i + 1, close).includes("\n")
        ? close + 1
        : i + 1;
    } else if (ch === '"' || ch === "'") {
      const quote = text.startsWith('"""', i) ? '"""' : ch;
      i = stringEnd(text, i + quote.length, quote, braces);
    } else if (ch === "{") {
      braces.push("code");
      i++;
    } else if (ch === "}") {
      const owner = braces.pop();
      if (owner !== undefined && owner !== "code") {
        i = stringEnd(text, i + 1, owner, braces);
        continue;
      }
      if (_endsMemberOnLine(text, i)) inserts.push(i);
      i++;
    } else i++;
  }
  return _insertSemicolons(text, inserts);
}

function _endsMemberOnLine(text: string, index: number): boolean {
  let j = index - 1;
  while (j >= 0 && (text[j] === " " || text[j] === "\t")) j--;
  return j >= 0 && text[j] !== "\n" && MEMBER_END.test(text[j]);
}

function _insertSemicolons(text: string, inserts: number[]): string {
  if (inserts.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const index of inserts) {
    parts.push(text.slice(from, index), ";");
    from = index;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

function _indexOrEnd(text: string, search: string, from: number): number {
  const index = text.indexOf(search, from);
  return index === -1 ? text.length : index;
}

/** Ends each one-line body's last member with a `;`. */
export const oneLineBodies: KotlinRepair = (text) => ({
  text: terminateOneLineBodies(text),
});
