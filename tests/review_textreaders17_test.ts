// Review 17 of the text readers (_es_text.ts, _c_tree_text.ts and the
// hand-written scans of the C/C++ text pass), differential: each adversarial
// file's outline was compared with the outline of the code before those
// readers (commit cce0b53). Each fault below is a small input whose outline
// differed from that older one; the tests assert the older (correct) outline.
// Both faults (one reader, `declarationName()`) are fixed.
import assert from "node:assert/strict";
import { join } from "node:path";
import { outlineSymbols } from "../mod.ts";
import type { OutlineSymbol } from "../mod.ts";

// The outline of `text` written to a temporary file named `name`, as lines of
// `kind name (start-end)`, members indented.
async function outlineOf(name: string, text: string): Promise<string[]> {
  const dir = await Deno.makeTempDir({ prefix: "review17_" });
  try {
    const path = join(dir, name);
    await Deno.writeTextFile(path, text);
    const { symbols } = await outlineSymbols(path);
    return flatten(symbols, "");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

function flatten(symbols: OutlineSymbol[], indent: string): string[] {
  return symbols.flatMap((symbol) => [
    `${indent}${symbol.kind} ${symbol.name} (${symbol.startLine}-${symbol.endLine})`,
    ...flatten(symbol.children, `${indent}  `),
  ]);
}

// Fixed fault: input `namespace A .B {\n  export const x = 1;\n}\n` (white space
// before the `.` of a qualified namespace name; also `module F .G {}`,
// `namespace C\r\n  .D.E {}`). Old: `namespace A .B (lines 1-3)`; new:
// `namespace A (lines 1-3)`. TreeText.declarationName() (_es_text.ts): the
// DECLARATION_NAME lookahead takes white space after the first name as the
// name's end, but a nested_identifier may have white space before its `.`.
Deno.test({
  name: "outlineSymbols() names a namespace `A .B` with its whole name",
  fn: async () => {
    const text = "namespace A .B {\n  export const x = 1;\n}\n" +
      "declare module F .G {\n}\n" +
      "namespace C\r\n  .D.E {\r\n}\r\n";
    assert.deepEqual(await outlineOf("a.ts", text), [
      "namespace A .B (1-3)",
      "  const x (2-2)",
      "namespace F .G (4-5)",
      "namespace C .D.E (6-8)",
    ]);
  },
});

// Fixed fault: input `namespace A \u00a0.B {\n}\n` (a no-break space, a form feed,
// a vertical tab or U+2028 among the white space before the `.`: all white
// space to the grammar). Old: `namespace A .B (lines 1-2)`; new: `namespace
// A (lines 1-2)`. TreeText.declarationName() (_es_text.ts) again: a fix that
// looks past only spaces, tabs and line breaks for a `.` still misses these.
Deno.test({
  name: "outlineSymbols() names a namespace `A .B` after any white space",
  fn: async () => {
    const text = "namespace A \u00a0.B {\n}\nnamespace C \f.D {\n}\n" +
      "namespace E\t\v.F {}\nnamespace G \u2028.H {}\n";
    assert.deepEqual(await outlineOf("a.ts", text), [
      "namespace A .B (1-2)",
      "namespace C .D (3-4)",
      "namespace E .F (5-5)",
      "namespace G .H (6-6)",
    ]);
  },
});
