import assert from "node:assert/strict";
import { memoryFile, readUnsized } from "./_read_at.ts";

Deno.test("readUnsized() reads a file that says nothing of its size to its end, bounded", async () => {
  const source = memoryFile(new Uint8Array(200_000).fill(97));
  const all = await readUnsized(source, 1_000_000);
  assert.equal(all.bytes.length, 200_000);
  const buffer = new Uint8Array(4);
  assert.equal(await all.file.read(buffer, 199_998), 2);
  // Past the bound it stops after the chunk that crossed it.
  const capped = await readUnsized(source, 70_000);
  assert.ok(capped.bytes.length > 70_000 && capped.bytes.length < 200_000);
});
