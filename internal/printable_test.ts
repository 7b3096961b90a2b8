// printable(): the escapes that keep text shown for a decision from moving the
// cursor, faking lines or reordering what is read.
import assert from "node:assert/strict";
import { printable } from "./printable.ts";

Deno.test("printable() escapes C0, DEL and C1 controls, newline and tab included", () => {
  assert.equal(
    printable("rm -rf ~/x #\r\x1b[2Kgit status"),
    "rm -rf ~/x #\\r\\x1b[2Kgit status",
  );
  assert.equal(
    printable("a\nb\tc\x00d\x7fe\x9bf"),
    "a\\nb\\tc\\x00d\\x7fe\\x9bf",
  );
});

Deno.test("printable() escapes bidirectional overrides and line separators", () => {
  assert.equal(
    printable("ls \u202etxt.exe\u2066x\u2069\u2028y"),
    "ls \\u202etxt.exe\\u2066x\\u2069\\u2028y",
  );
});

Deno.test("printable() leaves ordinary text, accents, emoji and backslashes alone", () => {
  const text = `grep 'a\\.b' "café/日本.txt" 🎉`;
  assert.equal(printable(text), text);
});
