import assert from "node:assert/strict";
import { displayWidth, rowsFilled } from "./_display_width.ts";

Deno.test("displayWidth() counts wide characters as two columns", () => {
  assert.equal(displayWidth("abc"), 3);
  assert.equal(displayWidth("你好"), 4);
  assert.equal(displayWidth("，！"), 4); // fullwidth punctuation
  assert.equal(displayWidth("한글"), 4);
  assert.equal(displayWidth("👍"), 2);
  assert.equal(displayWidth("👨‍👩‍👧"), 2); // one family, joined by ZWJ
});

Deno.test("displayWidth() counts escape sequences and combining marks as nothing", () => {
  assert.equal(displayWidth("\x1b[1;31mred\x1b[0m"), 3);
  assert.equal(displayWidth("\x1b]8;;https://x.test\x07link\x1b]8;;\x07"), 4);
  assert.equal(displayWidth("e\u0301"), 1);
  assert.equal(displayWidth(""), 0);
});

Deno.test("rowsFilled() wraps at the last column", () => {
  assert.equal(rowsFilled("", 10), 1);
  assert.equal(rowsFilled("a".repeat(10), 10), 1); // the cursor stays on the row
  assert.equal(rowsFilled("a".repeat(11), 10), 2);
  assert.equal(rowsFilled("a".repeat(25), 10), 3);
  assert.equal(rowsFilled(`\x1b[2m${"a".repeat(10)}\x1b[0m`, 10), 1);
});

Deno.test("rowsFilled() moves a wide character that does not fit to the next row", () => {
  assert.equal(rowsFilled("abc你", 4), 2); // 你 would take columns 4 and 5
  assert.equal(rowsFilled("ab你", 4), 1);
  // 8 columns of text, yet 3 rows of 4: two rows leave their last column empty.
  assert.equal(rowsFilled("abc你b你", 4), 3);
});
