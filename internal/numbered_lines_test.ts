import assert from "node:assert/strict";
import { formatNumberedLines, MAX_LINE_CHARS } from "./numbered_lines.ts";

Deno.test("formatNumberedLines() numbers lines, drops terminators and pads to the widest number", () => {
  assert.equal(formatNumberedLines("a\r\nb\n", 9), " 9\ta\n10\tb");
  assert.equal(formatNumberedLines("a\n\n", 1), "1\ta\n2\t");
  assert.equal(formatNumberedLines("", 1), "1\t");
  assert.equal(formatNumberedLines("x", 3), "3\tx");
});

Deno.test("formatNumberedLines() shortens a long line with its length", () => {
  const text = formatNumberedLines(`${"y".repeat(MAX_LINE_CHARS + 5)}\r\nz`, 1);
  assert.match(
    text,
    /^1\ty{2000}… \[line shortened: 2005 characters in total\]\n2\tz$/,
  );
});

Deno.test("formatNumberedLines() stops at maxChars and names the lines left out", () => {
  const text = formatNumberedLines("a\n".repeat(100), 1, { maxChars: 50 });
  assert.ok(text.startsWith("  1\ta\n  2\ta\n"), text);
  const last = text.split("\n").at(-1)!;
  assert.match(
    last,
    /^… \(lines (\d+)-100 are not shown: .* line=\1 and limit\)$/,
  );
  assert.ok(text.length - last.length <= 50);
});
