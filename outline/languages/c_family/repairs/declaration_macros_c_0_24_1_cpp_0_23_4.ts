// Declaration macros (`SQLITE_API int f(void);`, `class V8_EXPORT Isolate {`):
// tree-sitter-c@0.24.1 and tree-sitter-cpp@0.23.4 read them as types or names
// and lose the declaration. Blanked before the parse. It can go when the C and
// C++ macro tests (c_test.ts, cpp_test.ts) pass with macroRanges out of c.ts's
// REPAIR_STAGES and cpp.ts's prepare.
//
// The declaration macros of C and C++ code that the grammars cannot read,
// found so that prepare() can blank them (spaces, line breaks kept): export
// and attribute macros before a declaration (`SQLITE_API`,
// `V8_INLINE static`, `V8_DEPRECATED("...")`), lines that open or close a
// namespace (`FMT_BEGIN_NAMESPACE`), field lists and class boilerplate
// (`UV_REQ_FIELDS`, `Q_OBJECT`), macros in a class head (`class V8_EXPORT
// Isolate U_FINAL {`), after a parameter list or a field's name (`bool done_
// ABSL_GUARDED_BY(mu_);`). A macro is a word spelled in capitals with an
// underscore; C spells its real types and functions that way too, so a
// word is blanked only where a declaration goes on after it, never where it
// is a type, a name or a value. Where C has no place for a type at all
// (calling conventions: `(PR_CALLBACK *fn)(`, `char * XMLCALL name(`; a
// word before a type, `*` and a name: `FcPublic FcBlanks *f(`), a word
// spelled otherwise is blanked too. Runs inside the outline worker only.
import { blankRanges, codeOnly, openingParen } from "../c_code.ts";
import { lastAtOrBefore } from "../../../../internal/last_at_or_before.ts";

/**
 * How a macro is spelled: capitals, digits and at least one underscore
 * inside, or one leading underscore and a capital (a name reserved to the
 * implementation, which C's mixed-case keywords `_Bool`, `_Atomic` are not:
 * X11's `_XFUNCPROTOBEGIN`).
 */
export const MACRO_SPELLING = "(?:_*[A-Z][A-Z0-9]*_[A-Z0-9_]*|_[A-Z][A-Z0-9]+)";
/** Any identifier. */
const WORD = /[A-Za-z_]\w*/y;
/** Where to look for macros at all: a capital, maybe after underscores. */
const CANDIDATE = /\b_*[A-Z][A-Z0-9]*_|\b_[A-Z]/g;
/**
 * Words that start a declaration (or a member list's section) when they
 * come first: storage classes, specifiers, keywords of types. Not `const`
 * or `volatile`, which also come after a type (`MY_TYPE const *p;`).
 */
const DECLARATION_KEYWORDS = new Set([
  "auto",
  "bool",
  "char",
  "class",
  "consteval",
  "constexpr",
  "constinit",
  "double",
  "enum",
  "explicit",
  "extern",
  "float",
  "friend",
  "inline",
  "int",
  "long",
  "namespace",
  "private",
  "protected",
  "public",
  "register",
  "short",
  "signed",
  "static",
  "struct",
  "template",
  "thread_local",
  "typedef",
  "typename",
  "union",
  "unsigned",
  "using",
  "virtual",
  "void",
  "_Bool",
  "__inline",
  "__inline__",
]);
/** After a type's name, what shows a declarator follows: `T x`, `T *x`, `T<`, `T::`. */
const AFTER_TYPE = /[A-Za-z_*&<~]|::/y;
/** A namespace's head before a word: `namespace std `. */
const NAMESPACE_HEAD = /(?<![\w:])namespace(?:\s+([A-Za-z_][\w:]*))?\s+$/;
/** Specifiers that may come before a macro at a declaration's start. */
const LEADING_SPECIFIERS = new Set([
  "static",
  "inline",
  "virtual",
  "explicit",
  "constexpr",
  "friend",
  "extern",
]);
/** The end of a return type before a word: a type's name, or `*`. */
const RETURN_TYPE_END = /(?:[A-Za-z_]\w*|[*&])\s+$|[*&]$/;
/** Words after which the next word is not a function's name. */
const TAG_BEFORE =
  /(?<!\w)(?:struct|union|enum|class|return|case|goto|sizeof|new|delete|typename|namespace|using|operator)\s*$/;
/** Words that take parentheses but name no function: `int X __attribute__((...))`. */
const NOT_A_NAME =
  /^(?:__attribute__|__declspec|__asm__|__asm|asm|alignas|_Alignas|noexcept|throw|decltype|__typeof__|typeof)$/;
/** Qualifiers, which come after a type too: `MY_TYPE const *p;`. */
const QUALIFIER = /^(?:const|volatile|restrict|__restrict|_Atomic)$/;
/** A parameter list's end, maybe with qualifiers, before a word. */
const AFTER_DECLARATOR =
  /\)\s*(?:(?:const|volatile|override|final|noexcept|__THROW|__wur|&&?)\s*)*$/;
/** Words that come after a function's parameter list. */
const TRAILING_WORDS = new Set([
  "const",
  "volatile",
  "override",
  "final",
  "noexcept",
  "throw",
  "__attribute__",
  "__asm__",
  "__asm",
  "requires",
]);
/** Words whose parentheses hold a condition or an operand, not parameters. */
const STATEMENTS = new Set([
  "if",
  "while",
  "for",
  "switch",
  "return",
  "sizeof",
  "alignof",
  "decltype",
  "noexcept",
  "catch",
  "__attribute__",
  "defined",
]);
/** How many macros in a row are looked through to find a declaration. */
const MAX_CHAIN = 8;
/** A type (a word, or a declarator's `*`, `&`, `>`) and a name before a word. */
const FIELD_BEFORE =
  /(?:[*&>]|(?<!#\s*)\b([A-Za-z_]\w*))\s*\b([A-Za-z_]\w*)\s+$/;
/** Types spelled as keywords. */
const BUILTIN_TYPES = new Set(
  "auto bool char double float int long short signed unsigned void _Bool"
    .split(" "),
);
/** Keywords, which are neither a variable's name nor a type's. */
const KEYWORDS = new Set([
  ...DECLARATION_KEYWORDS,
  ...STATEMENTS,
  ..."try const volatile restrict mutable return else case default goto do new delete throw sizeof operator override final noexcept co_return co_yield co_await"
    .split(" "),
]);
/** A calling convention in a function pointer: `(PR_CALLBACK *name)(`. */
const CONVENTION_IN_POINTER =
  /\(\s*([A-Z][A-Z0-9_]{2,})\s*\*\s*[A-Za-z_]\w*\s*\)\s*\(/g;
/** A return type's end before a function pointer's `(`. */
const TYPE_END = /[\w*&>]\s*$/;
/** A calling convention after a return type that no type can follow. */
const CONVENTION_BEFORE_NAME =
  /([*&]\s*|\b(?:void|int|char|float|double|bool|_Bool)\s+)([A-Z][A-Z0-9_]{2,})\s+([A-Za-z_]\w*)\s*\(/g;
/** A `*`, then a function's name and its `(`. */
const POINTER_AND_NAME = /\*[\s*]*([A-Za-z_]\w*)\s*\(/g;
/** An operator function's name: `operator*`, `operator()`, `operator[]`. */
const OPERATOR_END = /\boperator\s*(?:\(\s*\)|\[\s*\]|[^\w\s()[\]]+)\s*$/;
/** A class head's keyword right before a word. */
const CLASS_KEYWORD = /(?<![\w:])(?:class|struct|union)\s+$/;
/** A class head's keyword, its name and maybe macros, before a word. */
const CLASS_NAME_BEFORE =
  /(?<![\w:])(?:class|struct|union)\s+(?:[A-Za-z_]\w*\s+){1,3}$/;

/**
 * The text with the declaration macros of C or C++ code blanked (see the
 * file's comment). Every line and offset stays where it was.
 */
export function blankCMacros(source: string): string {
  return blankRanges(source, macroRanges(codeOnly(source)));
}

/**
 * The [start, end) ranges {@linkcode blankCMacros} blanks, in order, from
 * the text's {@linkcode codeOnly} form.
 */
export function macroRanges(code: string): [number, number][] {
  return new _Scanner(code).ranges();
}

class _Scanner {
  #code: string;
  #lines: _Lines;
  #ranges: [number, number][] = [];

  constructor(code: string) {
    this.#code = code;
    this.#lines = new _Lines(code);
  }

  ranges(): [number, number][] {
    const code = this.#code;
    CANDIDATE.lastIndex = 0;
    // test(), not exec(): no match object for each of the tens of thousands
    // of candidates of a large file. A match starts a run of word characters
    // (a word boundary) and holds only word characters.
    while (CANDIDATE.test(code)) {
      let start = CANDIDATE.lastIndex - 1;
      // Back over capitals, digits and underscores (all a match holds),
      // inline as in _skipSpace().
      for (
        let char = code.charCodeAt(start - 1);
        char === 95 || (char >= 65 && char <= 90) || (char >= 48 && char <= 57);
      ) {
        char = code.charCodeAt(--start - 1);
      }
      const end = this.#macroEnd(start);
      if (end < 0) continue;
      CANDIDATE.lastIndex = end;
      const before = this.#declarationStart(start);
      const blank = before === undefined
        ? this.#inHead(start, end)
        : this.#macroExtent(end, { depth: 0, afterOpen: before === "{" });
      if (blank <= 0) continue;
      this.#ranges.push([start, blank]);
      CANDIDATE.lastIndex = blank;
    }
    return this.#withLooseMacros();
  }

  // The ranges with calling conventions and export macros added (see
  // below), each where C has no place for a type; spelled without an
  // underscore too (`WINAPI`, `XMLCALL`, `FcPublic`).
  #withLooseMacros(): [number, number][] {
    const found = [...this.#conventions(), ...this.#exportMacros()]
      .filter(([start]) => !this.#lines.inDirective(start));
    if (found.length === 0) return this.#ranges;
    const all = [...this.#ranges, ...found].sort((a, b) => a[0] - b[0]);
    return all.filter((range, i) => i === 0 || all[i - 1][1] <= range[0]);
  }

  // Capitalised words inside a function pointer's declarator (NSS's
  // `typedef SECStatus(PR_CALLBACK *Fn)(...)`) or between a return type's
  // `*`, `&` or keyword and a function's name (libxml2's `const xmlChar *
  // XMLCALL\n name(`). Each regular expression starts with a character
  // to look for, which keeps the scans of large files (sqlite3.c) fast.
  #conventions(): [number, number][] {
    const code = this.#code;
    const found: [number, number][] = [];
    for (const match of code.matchAll(CONVENTION_IN_POINTER)) {
      const before = code.slice(Math.max(0, match.index - 40), match.index);
      if (!TYPE_END.test(before)) continue;
      const start = match.index + match[0].indexOf(match[1]);
      found.push([start, start + match[1].length]);
    }
    for (const match of code.matchAll(CONVENTION_BEFORE_NAME)) {
      const [, type, convention, name] = match;
      if (KEYWORDS.has(name) || NOT_A_NAME.test(name)) continue;
      const start = match.index + type.length;
      found.push([start, start + convention.length]);
    }
    return found;
  }

  // Fontconfig's `FcPublic FcBlanks *\nFcBlanksCreate (void);`: a word
  // first on its line, then a type, `*` and a function's name, which the
  // grammar loses (not when a type's name follows the macro). Two names in a
  // row are no type in C: the first is a macro.
  #exportMacros(): [number, number][] {
    const code = this.#code;
    const found: [number, number][] = [];
    for (const match of code.matchAll(POINTER_AND_NAME)) {
      if (KEYWORDS.has(match[1]) || NOT_A_NAME.test(match[1])) continue;
      const head = _twoWordsOpening(code, match.index);
      if (head === undefined) continue;
      const { first, macro, type } = head;
      if (KEYWORDS.has(macro) || KEYWORDS.has(type)) continue;
      if (BUILTIN_TYPES.has(macro) || this.#macroEnd(first) > 0) continue;
      found.push([first, first + macro.length]);
    }
    return found;
  }
  // Where the macro word at `start` ends, or -1 when it is none.
  #macroEnd(start: number): number {
    return _macroEnd(this.#code, start);
  }

  // A macro inside a declaration's head: see the three cases below.
  #inHead(start: number, end: number): number {
    const code = this.#code;
    const before = code.slice(Math.max(0, start - 40), start);
    // Each pattern below runs only where the words or signs it needs are
    // there: they are tried at every position of `before`, for every macro
    // word of a large file (sqlite3.c has tens of thousands).
    const tagged = before.includes("class") || before.includes("struct") ||
      before.includes("union");
    if (tagged && CLASS_KEYWORD.test(before)) return this.#inClassHead(end);
    if (tagged && CLASS_NAME_BEFORE.test(before)) {
      return this.#afterClassName(end);
    }
    if (this.#lines.inDirective(start)) return -1;
    if (before.includes(")") && AFTER_DECLARATOR.test(before)) {
      return this.#afterDeclarator(start, end);
    }
    // `namespace std _GLIBCXX_VISIBILITY(default) {`; not a namespace's
    // name (`inline namespace _V2 {`).
    const namespace = before.includes("namespace")
      ? NAMESPACE_HEAD.exec(before)
      : null;
    if (namespace !== null) {
      const open = _skipSpace(code, end);
      if (namespace[1] === undefined && code[open] !== "(") return -1;
      const last = code[open] === "(" ? _closing(code, open) : end;
      return code[_skipSpace(code, last)] === "{" ? last : -1;
    }
    const field = this.#afterFieldName(before, start, end);
    if (field > 0) return field;
    // `void GL_APIENTRY glClear(`: a calling convention between a return
    // type and the function's name (not a tag's: `struct NAME f(`).
    if (!_mayEndReturnType(before) || !RETURN_TYPE_END.test(before)) return -1;
    if (TAG_BEFORE.test(before)) return -1;
    const name = _skipSpace(code, end);
    WORD.lastIndex = name;
    const word = WORD.exec(code);
    if (word === null || DECLARATION_KEYWORDS.has(word[0])) return -1;
    if (NOT_A_NAME.test(word[0])) return -1;
    return code[_skipSpace(code, name + word[0].length)] === "(" ? end : -1;
  }

  // `bool done_ ABSL_GUARDED_BY(mu_);`, `T* p_ ABSL_PT_GUARDED_BY(mu_) =
  // nullptr;`: annotations after a field's or a variable's name, before its
  // `;`, `,`, `=` or brace initializer. A type must come before the name:
  // in `static foo_t MY_FUNC(int);` the capitals name a function.
  #afterFieldName(before: string, start: number, end: number): number {
    if (!_mayEndTypeAndName(before)) return -1;
    const match = FIELD_BEFORE.exec(before);
    if (match === null) return -1;
    const [, type, name] = match;
    if (!/[a-z]/.test(name) || KEYWORDS.has(name)) return -1;
    if (type !== undefined && !_isTypeWord(type)) return -1;
    // Not a name and a type read off a `#define` line above.
    const from = start - before.length + match.index;
    if (this.#lines.inDirective(from)) return -1;
    const code = this.#code;
    const last = this.#macrosEnd(end);
    const char = code[_skipSpace(code, last)];
    const ends = char === ";" || char === "," || char === "=" || char === "{";
    return ends ? last : -1;
  }

  // `_Vector_impl_data() _GLIBCXX_NOEXCEPT {`, `int size() const
  // LLVM_READONLY;`: a macro after a function's parameter list (not after
  // a cast, a condition or a call's arguments), before its body, its `;`,
  // its initializers or more such words.
  #afterDeclarator(start: number, end: number): number {
    const code = this.#code;
    // Through macros blanked since the list: `f(int) GCC_DEPRECATED(x)
    // GCC_PRINTFLIKE(2, 0);`.
    let close = code.lastIndexOf(")", start);
    for (let k = this.#ranges.length - 1; k >= 0; k--) {
      const [from, to] = this.#ranges[k];
      if (to <= close) break;
      if (from <= close) close = code.lastIndexOf(")", from);
    }
    const open = openingParen(code, close);
    if (open < 0) return -1;
    const callee = code.slice(Math.max(0, open - 40), open);
    // `const T& operator*() const& ABSL_ATTRIBUTE_LIFETIME_BOUND {`
    if (!OPERATOR_END.test(callee)) {
      const name = /([A-Za-z_]\w*)\s*$/.exec(callee);
      if (
        name === null || TAG_BEFORE.test(callee) || STATEMENTS.has(name[1])
      ) {
        return -1;
      }
      // After a macro's call (`FORWARD_SYMBOL_METHOD(getName)`), a macro is
      // a call of its own.
      if (/^_*[A-Z][A-Z0-9_]*$/.test(name[1])) return -1;
    }
    const args = _skipSpace(code, end);
    const last = code[args] === "(" ? _closing(code, args) : end;
    const next = _skipSpace(code, last);
    const char = code[next];
    if (char === "{" || char === ";" || char === "=" || char === ":") {
      return last;
    }
    if (code.startsWith("->", next)) return last;
    WORD.lastIndex = next;
    const word = WORD.exec(code);
    if (word === null) return -1;
    const macro = this.#macroEnd(next) === next + word[0].length;
    return macro || TRAILING_WORDS.has(word[0]) ? last : -1;
  }

  // `class V8_EXPORT Isolate {`, `struct GTEST_API_ TestInfo final` or
  // abseil's `struct ABSL_DEPRECATED("...") Breakdown {`: the macros' end
  // (with their arguments) when a class's name and its body, bases or
  // `final` follow.
  #inClassHead(end: number): number {
    const code = this.#code;
    const last = this.#macrosEnd(end);
    const name = _skipSpace(code, last);
    WORD.lastIndex = name;
    const word = WORD.exec(code);
    // `class MY_WIDGET final {`: the macro-spelled word was the name.
    if (word === null || word[0] === "final") return -1;
    // Macros after the name are blanked in their turn (#afterClassName).
    const nameEnd = name + word[0].length;
    const more = this.#macroEnd(_skipSpace(code, nameEnd));
    const tail = more < 0 ? nameEnd : this.#macrosEnd(more);
    return this.#opensClass(tail) ? last : -1;
  }

  // ICU's `class U_COMMON_API Iter U_FINAL : public UObject {`: the end of
  // the macros after a class's name, when its body, bases or `final` follow.
  #afterClassName(end: number): number {
    const last = this.#macrosEnd(end);
    return this.#opensClass(last) ? last : -1;
  }

  // The end of the macros (with their arguments) from `end`, the end of one.
  #macrosEnd(end: number): number {
    const code = this.#code;
    let last = end;
    for (;;) {
      const open = _skipSpace(code, last);
      if (code[open] === "(") last = _closing(code, open);
      const next = _skipSpace(code, last);
      const more = this.#macroEnd(next);
      if (more < 0) return last;
      last = more;
    }
  }

  // Whether a class's body, bases, template arguments or `final` follow a
  // class's name ending at `nameEnd`.
  #opensClass(nameEnd: number): boolean {
    const code = this.#code;
    const after = _skipSpace(code, nameEnd);
    const char = code[after];
    // `struct FOO_T state{};`: a variable's brace initializer, not a body.
    if (char === "{" && after === nameEnd && _initializer(code, after)) {
      return false;
    }
    // `struct s { int f FOO_BITS : 3; }` would be a bit-field, not bases.
    const bases = char === ":" && code[after + 1] !== ":" &&
      !/\d/.test(code[_skipSpace(code, after + 1)] ?? "");
    return char === "{" || char === "<" || bases ||
      code.startsWith("final", after);
  }

  // The end of the macro (with its arguments) ending at `end`, when a
  // declaration or the end of a body follows it; 0 when none does. Right
  // after `{`, a word alone before `}` is more likely an enumerator.
  #macroExtent(
    end: number,
    { depth, afterOpen }: { depth: number; afterOpen: boolean },
  ): number {
    const code = this.#code;
    let last = end;
    const open = _skipSpace(code, end);
    if (code[open] === "(") last = _closing(code, open);
    const next = this.#skipBlank(last);
    // A call that ends a body may declare members itself (LLVM's
    // `FORWARD_SYMBOL_METHOD(getName)`): only one before a declaration goes.
    const ends = afterOpen || last > end;
    if (next >= code.length) return ends ? 0 : last;
    const char = code[next];
    if (char === "}") return ends ? 0 : last;
    if (char === "~" || (char === "[" && code[next + 1] === "[")) return last;
    WORD.lastIndex = next;
    const word = WORD.exec(code);
    if (word === null) return 0;
    if (DECLARATION_KEYWORDS.has(word[0])) return last;
    if (QUALIFIER.test(word[0])) return 0;
    const wordEnd = next + word[0].length;
    if (depth < MAX_CHAIN && this.#macroEnd(next) === wordEnd) {
      const chained = { depth: depth + 1, afterOpen: false };
      if (this.#macroExtent(wordEnd, chained) > 0) return last;
    }
    AFTER_TYPE.lastIndex = _skipSpace(code, wordEnd);
    return AFTER_TYPE.test(code) ? last : 0;
  }

  // Whether the word at `start` comes first in a declaration: at the start
  // of the file (""), or after `;`, `{`, `}` or a label's `:` (`public:`),
  // with preprocessor lines and the macros blanked so far looked through.
  // Answers the character before, or undefined when it is not.
  #declarationStart(start: number): string | undefined {
    const code = this.#code;
    const lines = this.#lines;
    if (lines.inDirective(start)) return undefined;
    let i = start - 1;
    let range = this.#ranges.length - 1;
    for (;;) {
      // White space inline (see _skipSpace()): this walks back over every
      // blanked comment above a declaration.
      for (
        let char = code.charCodeAt(i);
        char === 32 || (char >= 9 && char <= 13);
      ) {
        char = code.charCodeAt(--i);
      }
      if (i < 0) return "";
      if (range >= 0 && i < this.#ranges[range][1]) {
        i = this.#ranges[range][0] - 1;
        range--;
        continue;
      }
      if (lines.inDirective(i)) {
        i = lines.directiveStart(i) - 1;
        continue;
      }
      const char = code[i];
      // `static V8_WARN_UNUSED_RESULT MaybeLocal<Value> New(`
      if (_isWordChar(code.charCodeAt(i))) {
        let from = i;
        while (from > 0 && _isWordChar(code.charCodeAt(from - 1))) from--;
        if (!LEADING_SPECIFIERS.has(code.slice(from, i + 1))) return undefined;
        i = from - 1;
        continue;
      }
      if (char === ":") return code[i - 1] !== ":" ? char : undefined;
      return char === ";" || char === "{" || char === "}" ? char : undefined;
    }
  }

  // The first character at or after `index` that is neither white space nor
  // part of a preprocessor line.
  #skipBlank(index: number): number {
    const code = this.#code;
    let i = _skipSpace(code, index);
    while (i < code.length && code[i] === "#" && _blankBefore(code, i) >= 0) {
      i = _skipSpace(code, _directiveEnd(code, i));
    }
    return i;
  }
}

// Where the word at `start` ends when it is spelled as a macro (see
// MACRO_SPELLING), else -1: what that pattern with a word boundary on each
// side answers, by hand, as it is asked for every candidate word of a large
// file. The word must be all of the run
// of capitals, digits and underscores there (a word boundary on both sides),
// and be spelled with an underscore after its first capital, or be an
// underscore, a capital and at least one more capital or digit.
function _macroEnd(code: string, start: number): number {
  if (start > 0 && _isWordChar(code.charCodeAt(start - 1))) return -1;
  let i = start;
  while (code.charCodeAt(i) === 95) i++;
  const underscores = i - start;
  let char = code.charCodeAt(i);
  if (char < 65 || char > 90) return -1;
  let underscoreAfter = false;
  for (i++;; i++) {
    char = code.charCodeAt(i);
    if (char === 95) underscoreAfter = true;
    else if (!((char >= 65 && char <= 90) || (char >= 48 && char <= 57))) {
      break;
    }
  }
  // Lower case letters are the word characters left.
  if (char >= 97 && char <= 122) return -1;
  if (underscoreAfter) return i;
  return underscores === 1 && i - start >= 3 ? i : -1;
}

// Whether FIELD_BEFORE may match `before`: it needs white space at the end,
// after a word, after `*`, `&`, `>` or another word (white space between).
// A character beyond ASCII may be white space to the pattern: it decides.
function _mayEndTypeAndName(before: string): boolean {
  let i = before.length - 1;
  let char = before.charCodeAt(i);
  if (char > 127) return true;
  if (!_isAsciiSpace(char)) return false;
  while (i >= 0 && _isAsciiSpace(char = before.charCodeAt(i))) i--;
  if (i < 0 || char > 127) return i >= 0;
  if (!_isWordChar(char)) return false;
  while (i >= 0 && _isWordChar(char = before.charCodeAt(i))) i--;
  while (i >= 0 && _isAsciiSpace(char = before.charCodeAt(i))) i--;
  if (i < 0) return false;
  return char > 127 || char === 42 || char === 38 || char === 62 ||
    _isWordChar(char);
}

// Whether RETURN_TYPE_END may match `before`: it needs `*` or `&` at the
// end, or white space after a word's end, `*` or `&`.
function _mayEndReturnType(before: string): boolean {
  let i = before.length - 1;
  let char = before.charCodeAt(i);
  if (char === 42 || char === 38 || char > 127) return true;
  if (!_isAsciiSpace(char)) return false;
  while (i >= 0 && _isAsciiSpace(char = before.charCodeAt(i))) i--;
  if (i < 0) return false;
  return char > 127 || char === 42 || char === 38 || _isWordChar(char);
}

// The white space of ASCII that `\s` matches.
function _isAsciiSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

// Whether `word` may be the last word of a type: a type keyword, or a name
// that is neither a keyword nor spelled as a macro (`EXPORT_API foo_t
// MY_FUNC(int);` declares a function) or reserved (`__inline`).
function _isTypeWord(word: string): boolean {
  if (BUILTIN_TYPES.has(word)) return true;
  if (KEYWORDS.has(word) || word.startsWith("__")) return false;
  return !/^_*[A-Z][A-Z0-9_]*$/.test(word);
}

function _isWordChar(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) || code === 95;
}

function _isSpace(code: number): boolean {
  return code === 32 || code === 10 || code === 9 || code === 13 ||
    code === 12 || code === 11;
}

function _skipSpace(text: string, index: number): number {
  let i = index;
  // _isSpace() inline: a fresh worker runs this before V8 optimizes it (and
  // inlines calls).
  for (
    let char = text.charCodeAt(i);
    char === 32 || (char >= 9 && char <= 13);
  ) {
    char = text.charCodeAt(++i);
  }
  return i;
}

/**
 * Which lines of the text belong to a preprocessor directive (a `#` line and
 * the lines its trailing `\\` continues it on), found once. Asked per macro
 * word, a scan back to the line's start made a long line of macro calls take
 * time quadratic in its length. The directives are found from their `#`s
 * (code has no other), a few thousand in the largest file, so a fresh worker
 * does not go over every line.
 */
class _Lines {
  /** Each directive's first line's start, in order. */
  #directiveStarts: number[] = [];
  /** Where each directive's lines end: after its last line break. */
  #directiveEnds: number[] = [];
  /** The directive the last question found (questions come in order). */
  #last = 0;

  constructor(text: string) {
    for (let at = text.indexOf("#"); at !== -1; at = text.indexOf("#", at)) {
      const start = _blankBefore(text, at);
      if (start < 0) {
        at++;
        continue;
      }
      const end = _directiveLinesEnd(text, start);
      this.#directiveStarts.push(start);
      this.#directiveEnds.push(end);
      at = end;
    }
  }

  /** Whether `index` is on a preprocessor line, or on a line continuing one. */
  inDirective(index: number): boolean {
    return this.#directive(index) >= 0;
  }

  /** Where the directive holding `index` starts (its first line's start). */
  directiveStart(index: number): number {
    const directive = this.#directive(index);
    return directive < 0 ? -1 : this.#directiveStarts[directive];
  }

  // The index of the directive holding `index`, or -1.
  #directive(index: number): number {
    const starts = this.#directiveStarts;
    let found = this.#last;
    // The last directive starting at or before `index`: the one the last
    // question found, or the next, answers most questions.
    if (!_isLastAtOrBefore(starts, found, index)) {
      if (_isLastAtOrBefore(starts, found + 1, index)) found++;
      else found = lastAtOrBefore(starts, index);
    }
    this.#last = found;
    return found < starts.length && starts[found] <= index &&
        index < this.#directiveEnds[found]
      ? found
      : -1;
  }
}

// Whether `sorted[at]` is the last of `sorted` at or before `index`.
function _isLastAtOrBefore(
  sorted: number[],
  at: number,
  index: number,
): boolean {
  return at < sorted.length && sorted[at] <= index &&
    (at + 1 === sorted.length || sorted[at + 1] > index);
}

// The two words alone before `index` on its line (`FcPublic FcBlanks` before
// `*`), with where the first starts, or undefined: read back from `index`,
// so that no table of lines is needed. The first must open its line.
function _twoWordsOpening(
  code: string,
  index: number,
): { first: number; macro: string; type: string } | undefined {
  let i = index;
  while (i > 0 && _isSpaceOrTab(code.charCodeAt(i - 1))) i--;
  const typeEnd = i;
  while (i > 0 && _isWordChar(code.charCodeAt(i - 1))) i--;
  const typeStart = i;
  if (typeStart === typeEnd || _isDigit(code.charCodeAt(typeStart))) {
    return undefined;
  }
  while (i > 0 && _isSpaceOrTab(code.charCodeAt(i - 1))) i--;
  if (i === typeStart) return undefined;
  const macroEnd = i;
  while (i > 0 && _isWordChar(code.charCodeAt(i - 1))) i--;
  const first = i;
  if (first === macroEnd || _isDigit(code.charCodeAt(first))) return undefined;
  if (_blankBefore(code, first) < 0) return undefined;
  return {
    first,
    macro: code.slice(first, macroEnd),
    type: code.slice(typeStart, typeEnd),
  };
}

function _isSpaceOrTab(code: number): boolean {
  return code === 32 || code === 9;
}

function _isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

// The start of the line of `index` when only blanks stand before `index` on
// it, else -1.
function _blankBefore(text: string, index: number): number {
  for (let i = index - 1; i >= 0; i--) {
    const char = text.charCodeAt(i);
    if (char === 10) return i + 1;
    if (!_isSpace(char)) return -1;
  }
  return 0;
}

// Where the lines of the directive whose first line starts at `start` end:
// after the line break of the first line not ending in `\\` (Infinity when
// the text ends first: its last line takes every index beyond).
function _directiveLinesEnd(text: string, start: number): number {
  let from = start;
  for (;;) {
    const end = text.indexOf("\n", from);
    if (end < 0) return Infinity;
    let last = end - 1;
    if (text[last] === "\r") last--;
    if (text[last] !== "\\") return end + 1;
    from = end + 1;
  }
}

// The end of the directive starting at `index`, continuation lines included.
function _directiveEnd(text: string, index: number): number {
  let i = index;
  for (;;) {
    const end = text.indexOf("\n", i);
    if (end < 0) return text.length;
    let last = end - 1;
    if (text[last] === "\r") last--;
    if (text[last] !== "\\") return end;
    i = end + 1;
  }
}

// The index after the `)` that closes the `(` at `open`; a call left open
// ends before the `;`, `{` or `}` that ends its statement.
function _closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (char === 40) depth++;
    else if (char === 41 && --depth === 0) return i + 1;
    else if (char === 59 || char === 123 || char === 125) return i;
  }
  return text.length;
}

// Whether the braces at `open` hold no member (no `;`, no nested `{`) and a
// `;` or `,` follows them: an initializer (`{}`, `{1, 2}`). Reads up to the
// first `;`, `{` or `}`.
function _initializer(code: string, open: number): boolean {
  for (let i = open + 1; i < code.length; i++) {
    const char = code.charCodeAt(i);
    if (char === 59 || char === 123) return false;
    if (char === 125) {
      const next = code[_skipSpace(code, i + 1)];
      return next === ";" || next === ",";
    }
  }
  return false;
}
