// Portability macros that wrap part of a C declaration, which the grammar
// reads as calls and so loses the function: parameter lists in pre-ANSI
// headers (zlib's `deflate OF((z_streamp strm, int flush));`, libjpeg's
// `JPP((...))`, libpng's `PNGARG((...))`) and return types in export
// macros (ncurses' `NCURSES_EXPORT(void) _nc_warning (...)`, libjpeg's
// `EXTERN(void) jpeg_std_error`). Each expands to its argument; blanking the
// macro's name, its `(` and the matching `)` leaves what the compiler sees.
// Runs inside the outline worker only.

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

// A parameter-list wrapper ends its declaration (`;` or a body follows its
// `)`); a return-type wrapper is checked by its pattern alone.
function _isWrapper(code: string, start: number): boolean {
  RETURN_TYPE.lastIndex = start;
  if (RETURN_TYPE.test(code)) return true;
  PARAMETERS.lastIndex = start;
  if (!PARAMETERS.test(code)) return false;
  const close = _closing(code, PARAMETERS.lastIndex - 1);
  return close >= 0 && /^\s*[;{]/.test(code.slice(close + 1, close + 64));
}

// The index of the `)` that closes the `(` at `open`, or -1 when a `;`, `{`
// or `}` comes first (a statement, not a parameter list).
function _closing(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const char = code.charCodeAt(i);
    if (char === 40) depth++;
    else if (char === 41 && --depth === 0) return i;
    else if (char === 59 || char === 123 || char === 125) return -1;
  }
  return -1;
}
