// A macro before a constructor with an initializer list (libstdc++'s
// `_GLIBCXX20_CONSTEXPR` / `vector(const vector& __x)` / `: _Base(...)`):
// tree-sitter-cpp@0.23.4 reads the macro as a return type and the `:` as a
// bit-field, and the class ends at the next `}`. Blanked before the parse. It
// can go when constructor_macros_cpp_0_23_4_test.ts passes without it in cpp.ts's prepare.
//
// No function with a return type has an initializer list, so `WORD Name(...)
// :` (after the parameters, `noexcept`, `throw()` or macros with their
// arguments) makes WORD a macro when it is spelled as one and opens its line
// (after `explicit`, `inline` or `constexpr`). Runs inside the outline worker
// only.
import { MACRO_SPELLING } from "./declaration_macros_c_0_24_1_cpp_0_23_4.ts";

// A line opening with macro-spelled words (each maybe with arguments), then
// a name and its `(`. The name is matched by the caller.
const HEAD = new RegExp(
  `^[ \\t]*(?:(?:explicit|inline|constexpr)\\s+)*((?:${MACRO_SPELLING}(?![\\w(])\\s*)+)(~?[A-Za-z_]\\w*)\\s*\\(`,
  "gm",
);
const MACRO = new RegExp(`^${MACRO_SPELLING}$`);
const WORD = /[A-Za-z_]\w*/y;

/**
 * The [start, end) ranges of the macros before constructors with an
 * initializer list, in order, from the text's `codeOnly()` form.
 */
export function constructorMacroRanges(code: string): [number, number][] {
  // Most files have no initializer list after such a macro: a `:` is needed.
  const ranges: [number, number][] = [];
  HEAD.lastIndex = 0;
  for (let match; (match = HEAD.exec(code)) !== null;) {
    const [, macros, name] = match;
    if (MACRO.test(name.replace("~", ""))) continue;
    const open = match.index + match[0].length - 1;
    if (_initializerFollows(code, _closing(code, open))) {
      const start = match.index + match[0].indexOf(macros);
      ranges.push([start, start + macros.trimEnd().length]);
    }
  }
  return ranges;
}

// Whether a constructor's initializer list (`:`, not `::`) follows `at`, past
// `noexcept`, `throw(...)` and macros with their arguments.
function _initializerFollows(code: string, at: number): boolean {
  let i = _skipSpace(code, at);
  for (let words = 0; words < 8; words++) {
    WORD.lastIndex = i;
    const word = WORD.exec(code)?.[0];
    if (word === undefined) break;
    if (word !== "noexcept" && word !== "throw" && !MACRO.test(word)) {
      return false;
    }
    i = _skipSpace(code, i + word.length);
    if (code[i] === "(") i = _skipSpace(code, _closing(code, i));
  }
  return code[i] === ":" && code[i + 1] !== ":";
}

// The index after the `)` that closes the `(` at `open`, or where a `;`, `{`
// or `}` ends the declaration first.
function _closing(code: string, open: number): number {
  let depth = 0;
  for (let i = open; i < code.length; i++) {
    const char = code.charCodeAt(i);
    if (char === 40) depth++;
    else if (char === 41 && --depth === 0) return i + 1;
    else if (char === 59 || char === 123 || char === 125) return i;
  }
  return code.length;
}

function _skipSpace(code: string, index: number): number {
  let i = index;
  while (i < code.length && /\s/.test(code[i])) i++;
  return i;
}
