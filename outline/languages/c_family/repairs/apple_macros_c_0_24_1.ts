// Apple's declaration macros in an Objective-C header's C code
// (`FOUNDATION_EXPORT NSString *const X API_AVAILABLE(ios(13));`):
// tree-sitter-c@0.24.1 loses the declaration. blankObjc() blanks them. It can
// go when objc_test.ts passes with blankObjc() leaving them in.
//
// Which macro-like words of an Objective-C header's C code the C grammar
// should not see: Apple's declaration macros (`FOUNDATION_EXPORT`,
// `API_AVAILABLE(ios(13))`, `NS_SWIFT_NAME(x)`), export and
// calling-convention macros of any library (`GL_APIENTRY`), and clang's
// nullability qualifiers (`_Nullable`). Where such a word is a name or a
// value, it stays. Every pattern has one way to match a given text (but
// WRAPPED_DECLARATION, which only ever sees 256 characters), and the
// matching parentheses are found in one pass: linear time.

/** A word spelled as a macro (`NS_SWIFT_NAME`, `__TVOS_PROHIBITED`), or a nullability qualifier. */
const MACRO_WORD =
  /\b(?:[A-Z][A-Z0-9]*_[A-Z0-9_]*|__[A-Z][A-Z0-9_]*|__deprecated(?:_msg)?|__unavailable|_Nullable(?:_result)?|_Nonnull|_Null_unspecified|__nullable|__nonnull|__null_unspecified)\b/g;
/** Clang's nullability qualifiers, which C does not know: always blanked. */
const NULLABILITY = /^_(?:_?[Nn]ull|_?[Nn]onnull)/;
/**
 * Apple's declaration macros and availability macros of any library: what C
 * reads as junk around a declaration (`API_AVAILABLE(ios(13))`,
 * `NS_SWIFT_NAME(x)`, `OSSL_DEPRECATEDIN_3_0`), arguments and all.
 */
const ATTRIBUTE_MACRO =
  /^(?:(?:NS|CF|API|UIKIT|APPKIT|FOUNDATION|OBJC2?|CG|CA|AV|MP|__IOS|__OSX|__TVOS|__WATCHOS|__API)_|__deprecated|__unavailable)|_(?:AVAILAB|DEPRECATED|UNAVAILABLE)/;
/**
 * Export, inline and calling-convention macros of any library
 * (`FOUNDATION_EXPORT`, `GL_APIENTRY`): blanked when not called; called
 * (`NSPR_API(void *)`), their arguments are C and they are left alone.
 */
const WRAPPER_MACRO = /_(?:EXPORT|EXTERN|INLINE|API|APIENTRY|APICALL)$/;
/** A macro argument that declares a function: `LLVMValueRef f(`. */
const WRAPPED_DECLARATION =
  /^\s*[A-Za-z_]\w*(?:[\s*]+\w+)*?[\s*]+[A-Za-z_]\w*\s*\(/;
/** Words only ever attributes, never a function's name. */
const ATTRIBUTE_NAME =
  /AVAILAB|DEPRECATED|SWIFT|FORMAT|BRIDGED|RETURNS|NOESCAPE/;
/** Before a word in an expression or a list: `= NS_X`, `(API_A`, `, CF_B`. */
const VALUE_BEFORE = /[=,(\[+\-|&<>?:!~*/%^]/;
/** After a word that is a name: `NS_A = 1`, `CF_FLAGS[8]`, `API_B,`. */
const NAME_AFTER = /[=,}\[:)]/;
/** A word after which the next word is a tag: `struct API_CONFIG {`. */
const TAG_KEYWORD = /(?<!\w)(?:struct|union|enum)$/;

/**
 * The [start, end) ranges of `text` (C code, comments and literals blanked)
 * to blank for the C grammar: declaration macros with their call's
 * arguments, where they stand around a declaration, not where a macro-like
 * word is a name or a value: an enumerator `NS_STATE_IDLE,`, a field
 * `int CF_FLAGS;`, a value `= API_A(1)`, a tag `struct API_CONFIG`, a
 * function `void NS_LOG(...);`. A macro before `;` or `__attribute__` is one
 * only right after a declarator's `)` or another such macro, or when it is
 * only ever an attribute.
 */
export function declarationMacros(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  const closings = _closingParens(text);
  let lastEnd = -1;
  for (const match of text.matchAll(MACRO_WORD)) {
    const word = match[0];
    const start = match.index;
    if (start < lastEnd) continue;
    const end = start + word.length;
    // glibc's `__nonnull ((1))` is an attribute of its own: left alone.
    if (NULLABILITY.test(word)) {
      const glibc = word === "__nonnull" && _charAfter(text, end).char === "(";
      if (!glibc) ranges.push([start, end]);
      continue;
    }
    // Apple's own are attributes, `MP_API(ios(2.0))` included.
    const apple = ATTRIBUTE_MACRO.test(word);
    const wrapper = !apple && WRAPPER_MACRO.test(word);
    if (!wrapper && !apple) continue;
    const before = _charBefore(text, start);
    const afterMacro = before.index === lastEnd - 1;
    if (!afterMacro && VALUE_BEFORE.test(before.char)) continue;
    const next = _charAfter(text, end);
    const tag = TAG_KEYWORD.test(
      text.slice(Math.max(0, before.index - 6), before.index + 1),
    );
    if (next.char === "(") {
      // A wrapper's arguments are C (`NSPR_API(void *) PR_Malloc(...)`), which
      // the grammar reads as it does in a plain C header.
      if (wrapper) continue;
      const close = closings[next.index];
      // `void NS_LOG(const char *fmt);` declares a function of that name.
      const after = _charAfter(text, close).char;
      const declarator = /\w/.test(before.char) && !afterMacro && !tag &&
        (after === ";" || after === "{") && !ATTRIBUTE_NAME.test(word);
      // `LLVM_ATTRIBUTE_C_DEPRECATED(LLVMValueRef f(void), "...")` wraps a
      // whole declaration, which C reads as it does in a plain C header.
      const wrapsDeclaration = WRAPPED_DECLARATION.test(
        text.slice(next.index + 1, Math.min(close, next.index + 256)),
      );
      if (declarator || wrapsDeclaration) continue;
      ranges.push([start, close]);
      lastEnd = close;
      continue;
    }
    if (tag || NAME_AFTER.test(next.char)) continue;
    // Before `;` a word is the declarator's name, unless it comes after the
    // declarator or is only ever an attribute (`isa OBJC_ISA_AVAILABILITY;`).
    const ends = next.char === ";" ||
      text.startsWith("__attribute__", next.index);
    const attribute = before.char === ")" || afterMacro ||
      (next.char === ";" && ATTRIBUTE_NAME.test(word));
    if (ends && !attribute) continue;
    ranges.push([start, end]);
    lastEnd = end;
  }
  return ranges;
}

// The first character before `index` that is not white space, and where.
function _charBefore(text: string, index: number) {
  let i = index - 1;
  while (i >= 0 && /\s/.test(text[i])) i--;
  return { char: i >= 0 ? text[i] : "", index: i };
}

// The first character at or after `index` that is not white space, and where.
function _charAfter(text: string, index: number) {
  let i = index;
  while (i < text.length && /\s/.test(text[i])) i++;
  return { char: i < text.length ? text[i] : "", index: i };
}

// For each `(` of the text, the index after the `)` that closes it; a call
// left open ends before the `;`, `{` or `}` that ends its statement. One
// pass, however deeply calls nest.
function _closingParens(text: string): Int32Array {
  const closings = new Int32Array(text.length);
  const open: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (char === "(") open.push(i);
    else if (char === ")") {
      const at = open.pop();
      if (at !== undefined) closings[at] = i + 1;
    } else if (char === ";" || char === "{" || char === "}") {
      for (const at of open) closings[at] = i;
      open.length = 0;
    }
  }
  for (const at of open) closings[at] = text.length;
  return closings;
}
