// The text a tree without syntax errors was parsed from, read by offset. Each
// `.text`, `childForFieldName` or `endPosition` of web-tree-sitter is a call
// into WASM with its arguments copied in and out; a large file's outline
// makes tens of thousands of them, most of its time in a fresh worker before
// V8 optimizes any of it. The TS/JS reader (_es_text.ts) and the C/C++ one
// (_c_tree_text.ts) build on this. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";

/** The text a tree was parsed from, from its root's first token on. */
export interface ParsedText {
  text: string;
  /**
   * The offset of `text` in the parsed text. Tree-sitter's indexes count
   * UTF-16 code units for a string input.
   */
  base: number;
}

/**
 * The text of `root`'s tree, or undefined when the tree has errors (a
 * MISSING token stands for no text) or its text is not the string it was
 * parsed from.
 */
export function parsedText(root: Node): ParsedText | undefined {
  if (root.hasError) return undefined;
  const text = root.text;
  const base = root.startIndex;
  return text.length === root.endIndex - base ? { text, base } : undefined;
}

/**
 * Whether only spaces and tabs stand before offset `at` of `text` on its
 * line, so that no token before it ends there (tokens do not end in white
 * space). False at the text's start: no sibling starts before the root's
 * first token, so the caller asks the tree.
 */
export function opensLineAt(text: string, at: number): boolean {
  for (let before = at - 1; before >= 0; before--) {
    const char = text.charCodeAt(before);
    if (char === LINE_FEED) return true;
    if (char !== SPACE && char !== TAB) return false;
  }
  return false;
}

/** Character codes the readers compare with. */
export const TAB = 9;
export const LINE_FEED = 10;
export const CARRIAGE_RETURN = 13;
export const SPACE = 32;
