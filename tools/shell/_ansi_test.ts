import assert from "node:assert/strict";
import { AnsiStripper, stripAnsi } from "./_ansi.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

function stripChunks(chunks: string[]): string {
  const stripper = new AnsiStripper();
  return chunks.map((chunk) =>
    decoder.decode(stripper.push(encoder.encode(chunk)))
  ).join("");
}

Deno.test("AnsiStripper removes colors, cursor moves and OSC titles and links", () => {
  assert.equal(stripAnsi("\x1b[1;31mred\x1b[0m plain"), "red plain");
  assert.equal(stripAnsi("a\x1b[2K\x1b[1Gb\x1b[?25lc"), "abc");
  assert.equal(stripAnsi("\x1b]0;title\x07text"), "text");
  assert.equal(
    stripAnsi("\x1b]8;;https://x.dev\x1b\\link\x1b]8;;\x1b\\"),
    "link",
  );
  assert.equal(stripAnsi("\x1b(B\x1b7saved\x1b8"), "saved");
});

Deno.test("AnsiStripper removes sequences split across chunks", () => {
  assert.equal(
    stripChunks(["ok \x1b", "[3", "2m green \x1b]0;t", "itle\x1b", "\\!"]),
    "ok  green !",
  );
});

Deno.test("AnsiStripper returns the same chunk when it has no escape", () => {
  const chunk = encoder.encode("plain text é\n");
  assert.equal(new AnsiStripper().push(chunk), chunk);
});

Deno.test("AnsiStripper keeps text after an unterminated or broken sequence", () => {
  assert.equal(stripAnsi("a\x1b[12\nb"), "a\nb");
  assert.equal(
    stripAnsi(`\x1b]${"x".repeat(5000)}tail`).endsWith("tail"),
    true,
  );
});

Deno.test("AnsiStripper gives the same text whole, split anywhere, or a byte at a time", () => {
  const pieces = ["plain ", "\x1b[1;31m", "rød\n", "\x1b]0;t\x07", "ok"]
    .concat(["\x1b[2K", "\x1b(B", "ünï ", "\x1b]8;;u\x1b\\", "end\n"]);
  const text = pieces.join("").repeat(20);
  const expected = "plain rød\nokünï end\n".repeat(20);
  const bytes = encoder.encode(text);
  const bytewise = new AnsiStripper();
  const out: number[] = [];
  for (const byte of bytes) out.push(...bytewise.push(Uint8Array.of(byte)));
  assert.equal(decoder.decode(Uint8Array.from(out)), expected);
  for (let split = 0; split <= 60; split++) {
    const stripper = new AnsiStripper();
    const first = decoder.decode(stripper.push(bytes.subarray(0, split)), {
      stream: true,
    });
    const rest = decoder.decode(stripper.push(bytes.subarray(split)));
    assert.equal(first + rest, expected, `split at ${split}`);
  }
});

Deno.test("AnsiStripper strips a CSI of up to 64 parameter bytes, whole or a byte at a time, and keeps a longer one's rest as text", () => {
  for (const params of [0, 1, 63, 64, 65, 70]) {
    const text = `a\x1b[${"1".repeat(params)}mb`;
    const bytewise = new AnsiStripper();
    const out: number[] = [];
    for (const byte of encoder.encode(text)) {
      out.push(...bytewise.push(Uint8Array.of(byte)));
    }
    const whole = stripAnsi(text);
    assert.equal(decoder.decode(Uint8Array.from(out)), whole, `${params}`);
    assert.equal(
      whole,
      params <= 64 ? "ab" : `a${"1".repeat(params - 64)}mb`,
      `${params}`,
    );
  }
});
