// jsonLines() and requestOf(): newline-delimited JSON read with a line limit,
// and the request a line over it answers.
import assert from "node:assert/strict";
import { jsonLines, type LongLine, requestOf } from "./json_lines.ts";

const encoder = new TextEncoder();

/** The lines `chunks` split into, and the long lines reported. */
async function split(
  chunks: string[],
  maxLineBytes: number,
): Promise<{ lines: string[]; long: LongLine[] }> {
  const long: LongLine[] = [];
  const input = ReadableStream.from(chunks.map((c) => encoder.encode(c)));
  const lines: string[] = [];
  const decoder = new TextDecoder();
  for await (
    const line of jsonLines(input, {
      maxLineBytes,
      onLongLine: (l) => void long.push(l),
    })
  ) {
    lines.push(decoder.decode(line));
  }
  return { lines, long };
}

Deno.test("jsonLines() gives each line whole across chunks, the last without a newline too", async () => {
  const { lines, long } = await split(
    ['{"a":', '1}\n{"b":2}\n\n{"c"', ":3}"],
    100,
  );
  assert.deepEqual(lines, ['{"a":1}\n', '{"b":2}\n', '{"c":3}\n']);
  assert.deepEqual(long, []);
});

Deno.test("jsonLines() leaves out a line over the limit, reporting its id and method, and goes on", async () => {
  const big =
    `{"jsonrpc":"2.0","id":7,"method":"session/prompt","params":{"text":"${
      "x".repeat(10_000)
    }"}}`;
  const { lines, long } = await split(
    ['{"id":1}\n', big.slice(0, 5_000), big.slice(5_000), '\n{"id":2}\n'],
    1_000,
  );
  assert.deepEqual(lines, ['{"id":1}\n', '{"id":2}\n']);
  assert.deepEqual(long, [
    { bytes: big.length, id: 7, method: "session/prompt" },
  ]);
});

Deno.test("requestOf() finds an id the MCP client puts last", () => {
  const head = encoder.encode(
    '{"method":"tools/call","params":{"name":"search"',
  );
  const tail = encoder.encode('xxxx"}},"jsonrpc":"2.0","id":"r-1"}');
  assert.deepEqual(requestOf(head, tail), { method: "tools/call", id: "r-1" });
  assert.deepEqual(requestOf(encoder.encode("[1,2"), encoder.encode("3]")), {});
});

Deno.test("requestOf() tells an answer to one of our requests, result first or last", () => {
  const none = new Uint8Array();
  assert.deepEqual(
    requestOf(
      encoder.encode('{"jsonrpc":"2.0","id":4,"result":{"content":"xx'),
      none,
    ),
    { id: 4, response: true },
  );
  assert.deepEqual(
    requestOf(
      encoder.encode('{"result":{"text":"xx'),
      encoder.encode('x"},"jsonrpc":"2.0","id":9}'),
    ),
    { id: 9, response: true },
  );
});
