import assert from "node:assert/strict";
import {
  asUtf8,
  readUpTo,
  readUpToAsync,
  startsBinary,
  TooBig,
} from "./_file_bytes.ts";
import { utf16WithBom } from "../tests/support/utf16.ts";

Deno.test("readUpTo() reads a file whole up to the limit, and refuses one over it", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeTextFile(path, "abcdef");
    assert.equal(new TextDecoder().decode(readUpTo(path, 6)), "abcdef");
    assert.equal(
      new TextDecoder().decode(await readUpToAsync(path, 6)),
      "abcdef",
    );
    assert.throws(() => readUpTo(path, 5), TooBig);
    await assert.rejects(readUpToAsync(path, 5), TooBig);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("startsBinary() tells a NUL in the first 8000 bytes only", async () => {
  const path = await Deno.makeTempFile();
  try {
    await Deno.writeFile(path, new Uint8Array(10_000).fill(65));
    assert.equal(await startsBinary(path), false);
    const late = new Uint8Array(10_000).fill(65);
    late[9_000] = 0;
    await Deno.writeFile(path, late);
    assert.equal(await startsBinary(path), false);
    late[10] = 0;
    await Deno.writeFile(path, late);
    assert.equal(await startsBinary(path), true);
  } finally {
    await Deno.remove(path);
  }
});

Deno.test("asUtf8() re-encodes UTF-16 text behind its BOM and leaves other bytes alone", () => {
  const text = "const a = 1; // 😀\n";
  const utf8 = new TextEncoder().encode(text);
  for (const littleEndian of [true, false]) {
    assert.deepEqual(asUtf8(utf16WithBom(text, { littleEndian })), utf8);
  }
  const binary = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 0xff, 0xfe]);
  assert.equal(asUtf8(binary), binary);
  assert.equal(asUtf8(utf8), utf8);
});
