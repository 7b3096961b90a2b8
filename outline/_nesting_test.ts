import assert from "node:assert/strict";
import { Nesting, type NestingRules } from "./_nesting.ts";

// Whether something is open at the start of each line that starts with `@`
// (the marker is removed from the text read).
function openAtMarks(text: string, rules: NestingRules): boolean[] {
  const marks: number[] = [];
  let plain = "";
  for (const line of text.split("\n")) {
    if (line.startsWith("@")) {
      marks.push(new TextEncoder().encode(plain).length);
    }
    plain += `${line.replace(/^@/, "")}\n`;
  }
  const nesting = new Nesting(new TextEncoder().encode(plain), rules);
  return marks.map((at) => nesting.openAt(at));
}

Deno.test("Nesting counts braces outside strings and comments", () => {
  const text = [
    "@function f() {",
    '@  const s = "}}", c = \'{\', t = `a ${"{"} }`;',
    "  // } in a comment",
    "  /* } in a block",
    "     comment } */",
    "}",
    '@const q = """ { """;',
    "@done()",
  ].join("\n");
  assert.deepEqual(openAtMarks(text, { braces: true }), [
    false,
    true,
    false,
    false,
  ]);
});

Deno.test("Nesting counts #if blocks, skipping directive bodies and lines not starting with #", () => {
  const text = [
    "@#ifndef A_H",
    "@#define A_H { \\",
    "   } {",
    "  #  ifdef X",
    "int a; /* # if not a directive */ int b = 1 # 2;",
    "  #endif",
    "@#include <b.h>",
    "#endif",
    "@int c;",
  ].join("\n");
  assert.deepEqual(openAtMarks(text, { preprocessor: true }), [
    false,
    true,
    true,
    false,
  ]);
  // Braces count only where the language has them.
  assert.deepEqual(openAtMarks("{\n@x\n", { preprocessor: true }), [false]);
  assert.deepEqual(openAtMarks("{\n@x\n", { braces: true }), [true]);
});
