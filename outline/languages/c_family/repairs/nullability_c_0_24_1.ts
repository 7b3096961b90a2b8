// Clang's nullability qualifiers (`char *_Nullable name;`, Apple's C
// headers): tree-sitter-c@0.24.1 does not know them and loses the
// declaration. Blanked before the parse. It can go when the C tests pass with
// nullabilityRanges out of c.ts's REPAIR_STAGES.

/**
 * Clang's nullability qualifiers (Apple's C headers), unknown to the grammar;
 * not glibc's `__nonnull ((1))` attribute.
 */
const NULLABILITY =
  /\b(?:_Nullable(?:_result)?|_Nonnull|_Null_unspecified|__nullable|__nonnull(?!\s*\()|__null_unspecified)\b/g;

/** Where the nullability qualifiers of `code` are. */
export function nullabilityRanges(code: string): [number, number][] {
  return Array.from(
    code.matchAll(NULLABILITY),
    (match): [number, number] => [match.index, match.index + match[0].length],
  );
}
