import assert from "node:assert/strict";
import { ByteBlocks } from "./_byte_blocks.ts";

const encoder = new TextEncoder();
const MB = 1024 * 1024;

function linesOf(first: number, count: number): string {
  let text = "";
  for (let i = first; i < first + count; i++) text += `line ${i}\n`;
  return text;
}

Deno.test("ByteBlocks.keepEnds() keeps the first and the last bytes of a long stream", () => {
  const blocks = new ByteBlocks();
  const chunks: string[] = [];
  for (let i = 0; i < 400; i++) {
    chunks.push(linesOf(i * 5000, 5000)); // about 60 KB each, 24 MB in all
    blocks.append(encoder.encode(chunks[i]));
    blocks.keepEnds(2 * MB, 3 * MB);
  }
  assert.ok(blocks.length < 7 * MB, `${blocks.length} bytes kept`);
  const all = chunks.join("");
  const [head, tail] = blocks.texts([[0, 2 * MB], [
    blocks.length - 3 * MB,
    blocks.length,
  ]]);
  assert.equal(head, all.slice(0, 2 * MB));
  assert.equal(tail, all.slice(-3 * MB));
  assert.equal(blocks.length, 0, "texts() leaves nothing kept");
});

Deno.test("ByteBlocks finds bytes and character boundaries across blocks", () => {
  const blocks = new ByteBlocks();
  const chunk = encoder.encode("ab€\n".repeat(20_000)); // 120 KB
  for (let i = 0; i < 20; i++) blocks.append(chunk);
  const at = chunk.length * 10 + 3; // inside the euro sign of a later block
  assert.equal(blocks.boundaryBefore(at), at - 1);
  assert.equal(blocks.boundaryAfter(at), at + 2);
  assert.equal(blocks.indexOf(0x0a, at), at + 2);
  assert.equal(blocks.lastIndexOf(0x0a, at), at - 4);
  assert.equal(blocks.countNewlines(0, blocks.length), 400_000);
});

Deno.test("ByteBlocks.textBytes() counts the replacement characters of invalid bytes", () => {
  const blocks = new ByteBlocks();
  blocks.append(encoder.encode("ok "));
  blocks.append(new Uint8Array([0xff, 0xfe]));
  assert.equal(blocks.textBytes(0, blocks.length), 3 + 2 * 3);
  assert.deepEqual(blocks.texts([[0, blocks.length]]), ["ok \uFFFD\uFFFD"]);
});
