// withLinearReads(): the MCP stdio read buffer that reads lines in linear time
// and turns an answer over the limit into an error.
import assert from "node:assert/strict";
import type { Transport } from "@modelcontextprotocol/client";
import { withLinearReads } from "./_mcp_read_buffer.ts";

interface Buffered {
  _readBuffer: {
    append(chunk: Uint8Array): void;
    readMessage(): unknown;
    clear(): void;
  };
}

function buffered(max: number): Buffered["_readBuffer"] {
  const fake = { _readBuffer: { append() {}, readMessage() {}, clear() {} } };
  withLinearReads(fake as unknown as Transport, "big", max);
  return (fake as Buffered)._readBuffer;
}

function drain(buffer: Buffered["_readBuffer"]): unknown[] {
  const out: unknown[] = [];
  for (let m = buffer.readMessage(); m !== null; m = buffer.readMessage()) {
    out.push(m);
  }
  return out;
}

Deno.test("withLinearReads() reads lines across chunks and skips non-JSON ones", () => {
  const buffer = buffered(1_000);
  const encoder = new TextEncoder();
  buffer.append(encoder.encode('{"jsonrpc":"2.0","id":1,"res'));
  assert.deepEqual(drain(buffer), []);
  buffer.append(
    encoder.encode(
      'ult":{}}\nnot json\n{"jsonrpc":"2.0","id":2,"result":{}}\n',
    ),
  );
  assert.deepEqual(drain(buffer), [
    { jsonrpc: "2.0", id: 1, result: {} },
    { jsonrpc: "2.0", id: 2, result: {} },
  ]);
});

Deno.test("withLinearReads() turns an answer over the limit into an error answer to its request", () => {
  const buffer = buffered(1_000);
  const line = `{"result":{"content":[{"type":"text","text":"${
    "x".repeat(5_000)
  }"}]},"jsonrpc":"2.0","id":7}\n`;
  const bytes = new TextEncoder().encode(line);
  for (let at = 0; at < bytes.length; at += 700) {
    buffer.append(bytes.subarray(at, at + 700));
  }
  const [answer] = drain(buffer) as {
    id: number;
    error: { message: string };
  }[];
  assert.equal(answer.id, 7);
  assert.match(
    answer.error.message,
    /MCP server "big" sent a message of \d+ bytes, over the limit of 1000 bytes/,
  );
});

Deno.test("withLinearReads() replaces the pinned SDK's stdio read buffer", async () => {
  const { StdioClientTransport } = await import(
    "@modelcontextprotocol/client/stdio"
  );
  const transport = new StdioClientTransport({ command: "true" });
  const before = (transport as unknown as Buffered)._readBuffer;
  assert.ok(before, "the SDK keeps its buffer in _readBuffer");
  withLinearReads(transport, "s");
  assert.notEqual((transport as unknown as Buffered)._readBuffer, before);
});
