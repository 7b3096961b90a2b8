// The declarations of a C or C++ container as a flat list: #if blocks, ERROR
// nodes and `extern "C"` bodies looked through, each item's doc comment found
// in the list. Runs inside the outline worker only.
//
// Why a list and not previousSibling: tree-sitter answers previousSibling by
// scanning the parent's children from the start, and sqlite3.c's root has
// tens of thousands of them; and web-tree-sitter asks WASM for a node's type
// on every `.type`, so each item's type is read once here.
import type { Node } from "web-tree-sitter";
import { countChar } from "../../../internal/count_char.ts";
import { firstMeaningfulLine } from "../_nodes.ts";
import type { CTreeText } from "./_c_tree_text.ts";

/** A declaration-level node and its type. */
export interface CItem {
  node: Node;
  type: string;
}

// Nodes whose children are declarations at the same level: conditional
// compilation (sqlite3.c hides most of its functions there) and parse errors.
// A block directly among declarations is never valid C: it is the parser's
// recovery from text it could not read (sqlite3.c's `#if 0` around a Tcl
// script swallows 40,000 lines of functions into one), so look inside.
const TRANSPARENT = new Set([
  "compound_statement",
  "preproc_if",
  "preproc_ifdef",
  "preproc_else",
  "preproc_elif",
  "preproc_elifdef",
  "ERROR",
]);

/** Whether an item type is a comment. */
export function isCommentType(type: string): boolean {
  return type === "comment";
}

/**
 * The named children of `container`, looking through #if blocks, ERROR nodes
 * and `extern "C" { ... }` (C headers wrap themselves in one under #ifdef
 * __cplusplus, and the C grammar reads it too).
 */
export function flattenItems(container: Node): CItem[] {
  const items: CItem[] = [];
  _flatten(container, items);
  return items;
}

function _flatten(container: Node, items: CItem[]): void {
  // The last #if block met, and the row its end is on (read only once a
  // comment follows the block: its `#endif`, read as the block's last child,
  // takes three more calls into WASM).
  let block: Node | undefined;
  let blockEndRow = -1;
  // Indexed: a fresh worker runs this before V8 optimizes it, and for-of
  // goes through an iterator there.
  const children = container.namedChildren;
  for (let i = 0; i < children.length; i++) {
    const node = children[i];
    const type = node.type;
    if (TRANSPARENT.has(type)) {
      _flatten(node, items);
      block = node;
      blockEndRow = -1;
    } else if (type === "linkage_specification") {
      const body = node.childForFieldName("body");
      if (body === null) continue;
      if (body.type === "declaration_list") _flatten(body, items);
      else items.push({ node: body, type: body.type });
    } else if (block === undefined || !isCommentType(type)) {
      items.push({ node, type });
    } else {
      // `#endif /* X */` speaks of the directive, not of what follows. The
      // `#endif` ends the block, so only a comment on the block's last row
      // can share its row.
      if (blockEndRow < 0) blockEndRow = block.endPosition.row;
      const row = node.startPosition.row;
      if (row !== blockEndRow || row !== _endifRow(block)) {
        items.push({ node, type });
      }
    }
  }
}

function _endifRow(node: Node): number {
  const last = node.lastChild;
  return last !== null && last.type === "#endif" ? last.startPosition.row : -1;
}

/**
 * Records the doc comment (or `null`) of every non-comment item, by
 * node id: the comments right above it with no blank line between, leaving
 * out a trailing comment on the line of the code before. Across #if lines
 * too, since those are not items: the line check keeps a comment above
 * `#ifdef X` from documenting what is inside. C has no doc-comment
 * convention, so any comment counts (`/** *\/`, `//`, sqlite3.c's `/* ** *\/`).
 */
export function recordDocs(
  items: CItem[],
  docs: Map<number, string | null>,
  text?: CTreeText,
): void {
  for (let i = 0; i < items.length; i++) {
    const { node, type } = items[i];
    if (isCommentType(type)) continue;
    if (i === 0 || !isCommentType(items[i - 1].type)) {
      docs.set(node.id, null);
      continue;
    }
    let first = i;
    let row = node.startPosition.row;
    // The texts of the comments taken, last first. A comment's last row is
    // counted from its text, which the doc needs anyway: one call into WASM
    // per comment instead of two.
    const texts: string[] = [];
    while (first > 0 && isCommentType(items[first - 1].type)) {
      const comment = items[first - 1].node;
      const commentText = text?.comment(comment) ?? comment.text;
      const commentRow = comment.startPosition.row;
      if (commentRow + countChar(commentText, "\n") < row - 1) break;
      const before = items[first - 2];
      // Code ending on the comment's line makes it a trailing comment; a
      // node that ends at column 0 (a preprocessor line takes its line
      // break) ends on the line above. None does when only indentation
      // stands before the comment.
      const end = before !== undefined && !isCommentType(before.type) &&
          text?.opensLine(comment) !== true
        ? before.node.endPosition
        : undefined;
      if (end !== undefined && end.row === commentRow && end.column > 0) break;
      first--;
      row = commentRow;
      texts.push(commentText);
    }
    docs.set(node.id, texts.length > 0 ? _docText(texts) ?? null : null);
  }
}

// As docComment(): the last block comment, or the run of line comments
// ending the list. `texts` are the comments' texts, last first.
function _docText(texts: string[]): string | undefined {
  const last = texts[0];
  if (last.startsWith("/*")) return firstMeaningfulLine(last);
  const run: string[] = [];
  for (const text of texts) {
    if (text.startsWith("/*")) break;
    run.push(text);
  }
  return firstMeaningfulLine(run.reverse().join("\n"));
}

// Statements that can hold a swallowed function. Expressions, and classes or
// lambdas (where C++ legitimately defines functions), are not entered: the
// walk stays twice as fast as descendantsOfType() over the whole body.
const BLOCKS = new Set([
  ...TRANSPARENT,
  "function_definition",
  "if_statement",
  "else_clause",
  "while_statement",
  "for_statement",
  "do_statement",
  "switch_statement",
  "case_statement",
  "labeled_statement",
  "declaration_list",
  "linkage_specification",
]);

// Type definitions a run-on body may have swallowed. Only at column 0: C
// allows a struct or typedef local to a function, but writes it indented.
const TYPE_DEFINITIONS = new Set([
  "struct_specifier",
  "union_specifier",
  "enum_specifier",
  "class_specifier",
  "type_definition",
  "declaration",
]);

/**
 * The function definitions inside `body`, at any depth, and the type
 * definitions (and declarations, which may define one) starting at column
 * 0, in order.
 */
export function swallowedDefinitions(body: Node): Node[] {
  const found: Node[] = [];
  const cursor = body.walk();
  // Depth below `body`, counted here rather than asked of WASM at each step.
  let depth = 1;
  try {
    if (!cursor.gotoFirstChild()) return found;
    for (;;) {
      const type = cursor.nodeType;
      if (type === "function_definition") found.push(cursor.currentNode);
      else if (
        TYPE_DEFINITIONS.has(type) && cursor.startPosition.column === 0
      ) found.push(cursor.currentNode);
      if (BLOCKS.has(type) && cursor.gotoFirstChild()) {
        depth++;
        continue;
      }
      while (!cursor.gotoNextSibling()) {
        // The cursor starts at `body`: back there, the walk is done.
        if (!cursor.gotoParent() || --depth === 0) return found;
      }
    }
  } finally {
    cursor.delete();
  }
}
