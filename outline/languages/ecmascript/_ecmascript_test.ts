import assert from "node:assert/strict";
import {
  extractLines,
  lines,
} from "../../../tests/support/outline_languages.ts";
import { javascript } from "./javascript.ts";
import { typescript } from "./typescript.ts";

Deno.test("extractEcmascript() ends a declaration at its '}' when a comment opens after it, and gives that doc to the next", async () => {
  const text = lines(
    "export function f() { return 1; } /**",
    " * Doc b.",
    " */",
    "export const b = 1;",
    "class A { x() {} } /** Doc c. */",
    "export function c() {}",
    "function d() {} /** Not next to e. */",
    "",
    "function e() {}",
  );
  assert.deepEqual(await extractLines(typescript, text), [
    "function f 1-1",
    "const b 4-4 // Doc b.",
    "class A 5-5",
    "    method x 5-5",
    "function c 6-6 // Doc c.",
    "function d 7-7",
    "function e 9-9",
  ]);
  // A file overview taken in this way is no doc.
  const babel = lines(
    "function _a(t) { return t; } /**",
    " * @module rules",
    " * Enforce things.",
    " */",
    "const b = 1;",
  );
  assert.deepEqual(await extractLines(javascript, babel), [
    "function _a 1-1",
    "const b 5-5",
  ]);
});

Deno.test("extractEcmascript() leaves an adjacent @module or @packageDocumentation JSDoc to the file", async () => {
  for (const tag of ["@module", "@packageDocumentation", "@fileOverview"]) {
    const text = lines(
      "/**",
      " * Says what the package does.",
      ` * ${tag}`,
      " */",
      'export { a } from "./a.js";',
    );
    assert.deepEqual(await extractLines(typescript, text), [
      "export { a } from ./a.js 5-5",
    ], tag);
  }
  // Named in a sentence, the tag is no overview.
  const text = lines(
    "/** Reads the @file attribute. */",
    "export const a = 1;",
  );
  assert.deepEqual(await extractLines(typescript, text), [
    "const a 2-2 // Reads the @file attribute.",
  ]);
});
