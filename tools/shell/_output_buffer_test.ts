import assert from "node:assert/strict";
import { OutputBuffer } from "./_output_buffer.ts";

const encoder = new TextEncoder();

function bytesOf(text: string): number {
  return encoder.encode(text).length;
}

function parseMarker(output: string): { bytes: number; lines: number } {
  const match = output.match(
    /\[\.\.\. (\d+) bytes \((\d+) lines\) omitted \.\.\.\]/,
  );
  assert.ok(match, `no marker in ${JSON.stringify(output.slice(0, 200))}`);
  return { bytes: Number(match[1]), lines: Number(match[2]) };
}

async function withLogDir<T>(fn: (dir: string) => Promise<T> | T): Promise<T> {
  const dir = await Deno.makeTempDir({ prefix: "output_buffer_test_" });
  try {
    return await fn(dir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("OutputBuffer keeps everything under the limit, without a log", () => {
  const buffer = new OutputBuffer({ limit: 100 });
  const source = buffer.source();
  source.push(encoder.encode("hello\n"));
  source.push(encoder.encode("world\n"));
  source.end();
  assert.deepEqual(buffer.finish(), {
    output: "hello\nworld\n",
    truncated: false,
    totalBytes: 12,
  });
});

Deno.test("OutputBuffer keeps head and tail within the limit and logs everything", async () => {
  await withLogDir(async (logDir) => {
    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i + 1}\n`);
    const full = lines.join("");
    const buffer = new OutputBuffer({ limit: 1000, logDir });
    const source = buffer.source();
    for (let i = 0; i < full.length; i += 77) {
      source.push(encoder.encode(full.slice(i, i + 77)));
    }
    source.end();
    const result = buffer.finish();
    assert.equal(result.truncated, true);
    assert.ok(
      bytesOf(result.output) <= 1000,
      `${bytesOf(result.output)} bytes`,
    );
    assert.ok(result.output.startsWith("line 1\nline 2\n"));
    assert.ok(result.output.endsWith("line 4999\nline 5000\n"));
    const [head, tail] = result.output.split(/\[\.\.\. .*\]\n/);
    assert.ok(tail.length > head.length, "the tail gets most of the budget");
    const { bytes, lines: omittedLines } = parseMarker(result.output);
    assert.equal(bytes, full.length - head.length - tail.length);
    assert.equal(
      omittedLines,
      5000 - head.split("\n").length + 1 - tail.split("\n").length + 1,
    );
    assert.ok(full.includes(head) && full.endsWith(tail));
    assert.equal(await Deno.readTextFile(result.logPath!), full);
  });
});

Deno.test("OutputBuffer never splits a character, fed one byte at a time", async () => {
  await withLogDir((logDir) => {
    const text = "é€😀".repeat(400);
    const buffer = new OutputBuffer({ limit: 301, logDir });
    const source = buffer.source();
    for (const byte of encoder.encode(text)) {
      source.push(new Uint8Array([byte]));
    }
    source.end();
    const result = buffer.finish();
    assert.equal(result.truncated, true);
    assert.ok(!result.output.includes("\uFFFD"), "no replacement character");
    assert.ok(bytesOf(result.output) <= 301);
    assert.ok(result.output.startsWith("é€😀"));
    assert.ok(result.output.endsWith("é€😀"));
  });
});

Deno.test("OutputBuffer replaces invalid UTF-8 and still fits the limit", async () => {
  await withLogDir((logDir) => {
    const small = new OutputBuffer({ limit: 100, logDir });
    small.push(new Uint8Array([0x61, 0xff, 0x62, 0x0a]));
    assert.equal(small.finish().output, "a\uFFFDb\n");
    const inflated = new OutputBuffer({ limit: 60, logDir });
    inflated.push(new Uint8Array(50).fill(0xff)); // 50 bytes, 150 once replaced
    const result = inflated.finish();
    assert.equal(result.truncated, true);
    assert.ok(bytesOf(result.output) <= 60, `${bytesOf(result.output)} bytes`);
  });
});

Deno.test("OutputBuffer strips escape sequences split across chunks of one stream", () => {
  const buffer = new OutputBuffer({ limit: 100 });
  const out = buffer.source();
  const err = buffer.source();
  out.push(encoder.encode("a\x1b[3"));
  err.push(encoder.encode("E"));
  out.push(encoder.encode("1mb\n"));
  out.end();
  err.end();
  assert.equal(buffer.finish().output, "aEb\n");
});

Deno.test("OutputBuffer truncates without a log when the log cannot be written", () => {
  const buffer = new OutputBuffer({
    limit: 100,
    logDir: "/nonexistent/folder",
  });
  buffer.push(encoder.encode("x\n".repeat(500)));
  const result = buffer.finish();
  assert.equal(result.truncated, true);
  assert.equal(result.logPath, undefined);
  assert.equal(
    parseMarker(result.output).bytes,
    1000 - result.output.replace(/\[.*\]\n/, "").length,
  );
});

Deno.test("OutputBuffer stops its log at logLimit, on a character boundary, and says so at its end", async () => {
  await withLogDir(async (logDir) => {
    const buffer = new OutputBuffer({ limit: 100, logDir, logLimit: 1001 });
    const source = buffer.source();
    const chunk = encoder.encode("é".repeat(100)); // 200 bytes
    for (let i = 0; i < 20; i++) source.push(chunk);
    source.end();
    const result = buffer.finish();
    assert.equal(result.logTruncated, true);
    const log = await Deno.readTextFile(result.logPath!);
    const [kept, note] = log.split("\n[... ");
    assert.equal(kept, "é".repeat(500)); // 1000 bytes: the 1001st splits a character
    assert.match(note, /first 1000 bytes of the output; the other 3000 bytes/);
    const small = new OutputBuffer({ limit: 100, logDir, logLimit: 1001 });
    small.push(chunk);
    assert.equal(small.finish().logTruncated, undefined);
  });
});
