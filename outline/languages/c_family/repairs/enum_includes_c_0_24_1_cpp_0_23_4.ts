// `#include "Dwarf.def"` inside an enum body: tree-sitter-c@0.24.1 and
// tree-sitter-cpp@0.23.4 lose the whole enum. Its X-macro lines are blanked.
// It can go when the enum tests of enum_includes_..._test.ts and c_test.ts pass
// with enumIncludeRanges out of c.ts's REPAIR_STAGES and cpp.ts's prepare.
//
// An enum that includes an X-macro list (LLVM's `enum LocationAtom {` /
// `#define HANDLE_DW_OP(ID, NAME) DW_OP_##NAME = ID,` / `#include
// "Dwarf.def"`): the C and C++ grammars take no `#include` inside an enum,
// and lose the whole enum. Its `#include`, `#define` and `#undef` lines are
// blanked, leaving the enumerators written out; left alone, a `#define` next
// to nothing else makes a body the grammars cannot read either (LLVM's
// `enum ValueTy`). An enum with no `#include` is left as it is: the grammars
// read `#if` blocks there, and a `#define` as a directive of its own
// (libuv's `#define XX(...)` / `UV_ERRNO_MAP(XX)` / `#undef XX` reads worse
// without it). Runs inside the outline worker only.

// `enum`, `enum class X : T`, `typedef enum tag` up to the body's `{`; no
// `;`, `(` or `=` between (`enum X x = ...` declares a variable).
const ENUM_HEAD = /\benum\b[^;{}()=]*\{/g;
const INCLUDE = /^[ \t]*#[ \t]*(?:include|include_next|import)\b/m;
// An X-macro list's directive line, with its continuation lines.
const DIRECTIVE =
  /^[ \t]*#[ \t]*(?:include|include_next|import|define|undef)\b(?:[^\n\\]|\\[^])*/gm;

/**
 * The [start, end) ranges of the `#include`, `#define` and `#undef` lines
 * inside the enum bodies that hold an `#include`, in order, read from the
 * text's `codeOnly()` form (see c_code.ts).
 */
export function enumIncludeRanges(code: string): [number, number][] {
  const ranges: [number, number][] = [];
  ENUM_HEAD.lastIndex = 0;
  for (let head; (head = ENUM_HEAD.exec(code)) !== null;) {
    const open = head.index + head[0].length - 1;
    const close = _closingBrace(code, open);
    // Unclosed (a piece of a file ends inside it): nothing to go by.
    if (close === -1) break;
    const body = code.slice(open, close);
    if (!INCLUDE.test(body)) continue;
    for (const match of body.matchAll(DIRECTIVE)) {
      ranges.push([open + match.index, open + match.index + match[0].length]);
    }
    ENUM_HEAD.lastIndex = close;
  }
  return ranges;
}

// The index of the `}` closing the `{` at `open`, or -1.
function _closingBrace(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const char = code[i];
    if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return i;
  }
  return -1;
}
