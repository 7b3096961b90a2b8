// skimForLiteral(): a file's bytes tell "absent" only when the scan of its
// text would find nothing and cut no line; anything else is left to the scan.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../../tests/support/workspace.ts";
import { indexOfBytes, skimForLiteral } from "./_literal_skim.ts";
import { MAX_LINE_CHARS, scanFile } from "./_search_file.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("skimForLiteral() finds a literal that spans two reads", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "a.txt");
    // The first read is 256 KiB: "needle" starts 3 bytes before its end.
    await Deno.writeTextFile(
      path,
      `${"x".repeat(1000)}\n`.repeat(261) + "y".repeat(880) + "needle\n",
    );
    assert.equal(skimForLiteral(path, bytes("needle")), "maybe");
    assert.equal(skimForLiteral(path, bytes("needles")), "absent");
  });
});

Deno.test("skimForLiteral() tells binary files as scanFile does, and leaves UTF-16 text to the scan", async () => {
  await withWorkspace(async (dir) => {
    const binary = join(dir, "a.bin");
    await Deno.writeFile(binary, new Uint8Array([110, 0, 101]));
    const utf16 = join(dir, "b.txt");
    await Deno.writeFile(utf16, new Uint8Array([0xff, 0xfe, 110, 0, 101, 0]));
    assert.equal(skimForLiteral(binary, bytes("zz")), "binary");
    assert.equal((await scanFile(binary, /zz/gm, { limit: 1 })).binary, true);
    assert.equal(skimForLiteral(utf16, bytes("zz")), "maybe");
  });
});

Deno.test("skimForLiteral() leaves a file with a line the scan would cut to the scan", async () => {
  await withWorkspace(async (dir) => {
    const long = join(dir, "bundle.js");
    await Deno.writeTextFile(long, `${"a".repeat(2 * MAX_LINE_CHARS)}\nb\n`);
    assert.equal(skimForLiteral(long, bytes("zz")), "maybe");
    assert.equal((await scanFile(long, /zz/gm, { limit: 1 })).cutLines, 1);
    const short = join(dir, "lines.js");
    await Deno.writeTextFile(
      short,
      `${"a".repeat(MAX_LINE_CHARS)}\n`.repeat(2),
    );
    assert.equal(skimForLiteral(short, bytes("zz")), "absent");
    assert.equal(
      (await scanFile(short, /zz/gm, { limit: 1 })).cutLines,
      undefined,
    );
  });
});

Deno.test("indexOfBytes() finds the first whole occurrence", () => {
  const haystack = bytes("abcabdabd");
  assert.equal(indexOfBytes(haystack, bytes("abd")), 3);
  assert.equal(indexOfBytes(haystack, bytes("abdx")), -1);
  assert.equal(indexOfBytes(haystack, bytes("d")), 5);
  assert.equal(indexOfBytes(bytes("ab"), bytes("abc")), -1);
});
