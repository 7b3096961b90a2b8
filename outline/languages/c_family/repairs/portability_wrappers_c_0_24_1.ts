// `int deflate OF((z_streamp strm));`, `EXTERN(void) f(...)`, `f(x)
// lzma_nothrow;`: tree-sitter-c@0.24.1 reads the wrapper as a call or loses
// the prototype. Blanked before the parse. It can go when the C tests pass with
// wrapperRanges and trailingAttributeRanges out of c.ts's REPAIR_STAGES.
//
// Portability macros that wrap part of a C declaration, which the grammar
// reads as calls and so loses the function: parameter lists in pre-ANSI
// headers (zlib's `deflate OF((z_streamp strm, int flush));`, libjpeg's
// `JPP((...))`, libpng's `PNGARG((...))`) and return types in export
// macros (ncurses' `NCURSES_EXPORT(void) _nc_warning (...)`, libjpeg's
// `EXTERN(void) jpeg_std_error`). Each expands to its argument; blanking the
// macro's name, its `(` and the matching `)` leaves what the compiler sees.
// Runs inside the outline worker only.
import { openingParen } from "../c_code.ts";

/**
 * A parameter-list wrapper: a capitalised word right after a declarator's
 * name, its argument in double parentheses.
 */
const PARAMETERS =
  /(?<=[A-Za-z0-9_][ \t]+)[A-Z][A-Z0-9_]*[ \t]*\((?=[ \t]*\()/y;
/**
 * A return-type wrapper: a capitalised word with a type as its argument,
 * first in a declaration (maybe after storage classes and other macros),
 * before a name and a parameter list (maybe wrapped itself).
 */
const RETURN_TYPE =
  /(?<=(?:^|[;}])[ \t]*(?:(?:extern|static|inline|[A-Z][A-Z0-9_]*)[ \t]+)*)[A-Z][A-Z0-9_]*\((?=[A-Za-z_][\w \t*]*\)[ \t]*[A-Za-z_]\w*[ \t]*(?:[A-Z][A-Z0-9_]*[ \t]*)?\()/my;
/** Where either may start: a capitalised word before a `(`. */
const CANDIDATE = /\b[A-Z][A-Z0-9_]*[ \t]*\(/g;

/**
 * The ranges to blank for such wrappers (each macro's name with its `(`, and
 * its `)`), in order, from the text's `codeOnly()` form.
 */
export function wrapperRanges(code: string): [number, number][] {
  const ranges: [number, number][] = [];
  CANDIDATE.lastIndex = 0;
  for (let match; (match = CANDIDATE.exec(code)) !== null;) {
    const start = match.index;
    const open = start + match[0].length - 1;
    if (!_isWrapper(code, start)) continue;
    const close = _closing(code, open);
    if (close < 0) continue;
    ranges.push([start, open + 1], [close, close + 1]);
    CANDIDATE.lastIndex = close + 1;
  }
  return ranges;
}

// Either wrapper must leave a declaration that ends cleanly: its parameter
// list followed by `;` or a body, maybe after attribute macros
// (`GCC_PRINTFLIKE(1,2)`). Anything else there (lower-case attributes, as in
// `lzma_code(...) lzma_nothrow;`) reads worse unwrapped than wrapped.
function _isWrapper(code: string, start: number): boolean {
  RETURN_TYPE.lastIndex = start;
  if (RETURN_TYPE.test(code)) {
    const close = _closing(code, RETURN_TYPE.lastIndex - 1);
    NAME_AND_LIST.lastIndex = close + 1;
    if (close < 0 || !NAME_AND_LIST.test(code)) return false;
    return _endsClean(code, _closing(code, NAME_AND_LIST.lastIndex - 1));
  }
  PARAMETERS.lastIndex = start;
  if (!PARAMETERS.test(code)) return false;
  return _endsClean(code, _closing(code, PARAMETERS.lastIndex - 1));
}

/** A declarator's name and the `(` of its parameter list (maybe wrapped). */
const NAME_AND_LIST = /[ \t]*[A-Za-z_]\w*[ \t]*(?:[A-Z][A-Z0-9_]*[ \t]*)?\(/y;
/** Attribute macros, then the `;` or `{` that ends a declaration. */
const CLEAN_END =
  /^(?:\s*[A-Z_][A-Z0-9_]*(?:\s*\([^();{}]*(?:\([^();{}]*\))?[^();{}]*\))?)*\s*[;{]/;

function _endsClean(code: string, close: number): boolean {
  return close >= 0 && CLEAN_END.test(code.slice(close + 1, close + 200));
}

// The index of the `)` that closes the `(` at `open`, or -1 when a `;`, `{`
// or `}` comes first (a statement, not a parameter list).
function _closing(code: string, open: number): number {
  let depth = 0;
  const end = Math.min(code.length, open + MAX_PARENTHESES);
  for (let i = open; i < end; i++) {
    const char = code.charCodeAt(i);
    if (char === 40) depth++;
    else if (char === 41 && --depth === 0) return i;
    else if (char === 59 || char === 123 || char === 125) return -1;
  }
  return -1;
}

/** Lower-case words between a parameter list and its `;`. */
const TRAILING_WORDS = /\)((?:\s+[A-Za-z_]\w*)+)\s*;/g;
/** C's keywords: after `)` they start a statement or a K&R declaration. */
const C_KEYWORDS = new Set(
  ("auto break case char const continue default do double else enum extern " +
    "float for goto if inline int long register restrict return short " +
    "signed sizeof static struct switch typedef union unsigned void " +
    "volatile while _Bool _Atomic").split(" "),
);
/** Words whose parentheses hold an attribute, not parameters. */
const ATTRIBUTE_CALL = /^(?:__\w*|_Alignas|alignas|_Static_assert)$/;
/** How far a parenthesis is matched (unclosed ones made the scans quadratic). */
const MAX_PARENTHESES = 4000;
/** A K&R parameter list: names only (`(a, b)`), declared after the `)`. */
const NAME_LIST = /^\s*[A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*\s*$/;

/**
 * The ranges of attribute macros spelled in lower case after a prototype's
 * parameter list (liblzma's `lzma_code(...) lzma_nothrow
 * lzma_attr_warn_unused_result;`), which the grammar cannot read. Not after
 * a K&R definition's name list (`f(a, b) int a;`), nor after a statement's
 * condition (`if (x) return;`: a keyword).
 */
export function trailingAttributeRanges(code: string): [number, number][] {
  const ranges: [number, number][] = [];
  TRAILING_WORDS.lastIndex = 0;
  for (let match; (match = TRAILING_WORDS.exec(code)) !== null;) {
    const words = match[1].trim().split(/\s+/);
    // glibc's reserved `__THROW` and `__wur` the grammar reads well enough:
    // blanked, whole headers (sys/socket.h) parsed worse.
    if (words.some((word) => C_KEYWORDS.has(word) || word.startsWith("__"))) {
      continue;
    }
    const open = openingParen(code, match.index);
    if (open < 0) continue;
    const list = code.slice(open + 1, match.index);
    if (NAME_LIST.test(list) && list.trim() !== "void") continue;
    const callee = /([A-Za-z_]\w*)\s*$/.exec(
      code.slice(Math.max(0, open - 80), open),
    );
    // Not after an attribute's own parentheses: `} __attribute__((packed))
    // name;` names a type.
    if (
      callee === null || C_KEYWORDS.has(callee[1]) ||
      ATTRIBUTE_CALL.test(callee[1])
    ) {
      continue;
    }
    const from = match.index + 1 +
      (match[1].length - match[1].trimStart().length);
    ranges.push([from, match.index + 1 + match[1].length]);
  }
  return ranges;
}
