// printable(): the escapes that keep text shown for a decision from moving the
// cursor, faking lines or reordering what is read.
import assert from "node:assert/strict";
import { printable } from "./printable.ts";

/** Asserts that printable() turns each text into what it is paired with. */
function assertPrintable(cases: [text: string, shown: string][]): void {
  for (const [text, shown] of cases) {
    assert.equal(printable(text), shown, JSON.stringify(text));
  }
}

Deno.test("printable() escapes C0, DEL and C1 controls, newline and tab included", () => {
  assertPrintable([
    ["rm -rf ~/x #\r\x1b[2Kgit status", "rm -rf ~/x #\\r\\x1b[2Kgit status"],
    ["a\nb\tc\x00d\x7fe\x9bf", "a\\nb\\tc\\x00d\\x7fe\\x9bf"],
  ]);
});

Deno.test("printable() escapes bidirectional overrides and line separators", () => {
  assertPrintable([
    [
      "ls \u202etxt.exe\u2066x\u2069\u2028y",
      "ls \\u202etxt.exe\\u2066x\\u2069\\u2028y",
    ],
  ]);
});

Deno.test("printable() leaves ordinary text, accents, emoji and backslashes alone", () => {
  const text = `grep 'a\\.b' "café/日本.txt" 🎉`;
  assertPrintable([[text, text]]);
});
