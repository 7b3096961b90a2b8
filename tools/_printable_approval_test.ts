// printable() on the text of a permission question.
import assert from "node:assert/strict";
import { printable } from "../internal/printable.ts";

Deno.test("printable() on approval text: CJK, accents, emoji and ZWJ sequences stay readable; tab, ESC and bidi marks are escaped", () => {
  const readable = 'Write "résumé/ファイル 😀 👨‍👩‍👧.txt"';
  assert.equal(printable(readable), readable);
  assert.equal(printable("a\tb\x1b[2Kc\u202ed"), "a\\tb\\x1b[2Kc\\u202ed");
});
