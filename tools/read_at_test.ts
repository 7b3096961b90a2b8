import assert from "node:assert/strict";
import { memoryFile, readUnsized } from "./read_at.ts";

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

Deno.test("readUnsized() lets checkHead refuse on the first bytes, before reading on", async () => {
  const source = memoryFile(new Uint8Array(1_000_000));
  let read = 0;
  const counting = {
    read: async (buffer: Uint8Array, position: number) => {
      const n = await source.read(buffer.subarray(0, 1000), position);
      read += n;
      return n;
    },
    close() {},
  };
  await assert.rejects(
    readUnsized(counting, 500_000, {
      headBytes: 8192,
      checkHead: (head) => {
        assert.equal(head.length, 8192);
        throw new Error("binary");
      },
    }),
    /binary/,
  );
  assert.ok(read < 10_000, `${read} bytes read`);
  // Without a refusal it reads the bound and one byte more, no further.
  const capped = await readUnsized(counting, 5000, { checkHead: () => {} });
  assert.equal(capped.bytes.length, 5001);
});
