import assert from "node:assert/strict";
import { countNewlines, countNewlinesUnlessEscape } from "./_newlines.ts";

Deno.test("countNewlines() agrees with a byte loop at every alignment", () => {
  const bytes = new Uint8Array(1000);
  let seed = 7;
  for (let i = 0; i < bytes.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = seed % 5 === 0 ? 0x0a : seed & 0xff;
  }
  for (let start = 0; start < 8; start++) {
    for (const end of [start, start + 1, start + 3, 500, 997, 1000]) {
      const view = bytes.subarray(start, end);
      const expected = view.filter((byte) => byte === 0x0a).length;
      assert.equal(countNewlines(view), expected, `bytes ${start}..${end}`);
    }
  }
});

Deno.test("countNewlines() counts four newlines in one word", () => {
  assert.equal(
    countNewlines(new TextEncoder().encode("\n\n\n\n\n\n\n\n\n")),
    9,
  );
  assert.equal(countNewlines(new Uint8Array([0x8a, 0x0b, 0x09, 0xfa])), 0);
});

Deno.test("countNewlinesUnlessEscape() counts newlines, or gives -1 when an ESC appears anywhere", () => {
  const text = new TextEncoder().encode("ab\ncd\n\nef\x1bgh\n");
  for (let start = 0; start < 4; start++) {
    const escape = text.indexOf(0x1b);
    for (let end = start; end <= text.length; end++) {
      const view = text.subarray(start, end);
      const expected = start <= escape && escape < end
        ? -1
        : view.filter((byte) => byte === 0x0a).length;
      assert.equal(
        countNewlinesUnlessEscape(view),
        expected,
        `bytes ${start}..${end}`,
      );
    }
  }
});
