import assert from "node:assert/strict";
import { LineScanner, MAX_LINE_CHARS, scanFile } from "./_search_file.ts";
import { utf16WithBom } from "../../tests/support/utf16.ts";

/** The reference: split into lines, test each one on its own. */
function naive(text: string, pattern: RegExp): string[] {
  const single = new RegExp(pattern.source, pattern.flags.replace("g", ""));
  const lines = text.split("\n");
  // A trailing newline ends the last line; it does not start another.
  if (text.endsWith("\n")) lines.pop();
  return lines.flatMap((line, i) => {
    const clean = line.replace(/\r$/, "");
    return single.test(clean) ? [`${i + 1}:${clean}`] : [];
  });
}

function scanInPieces(text: string, pattern: RegExp, seed: number): string[] {
  const scanner = new LineScanner(pattern, Infinity);
  let random = seed;
  for (let at = 0; at < text.length;) {
    random = (random * 1103515245 + 12345) % 2147483648;
    const size = 1 + (random % 17);
    scanner.push(text.slice(at, at + size));
    at += size;
  }
  scanner.end();
  return scanner.matches.map((m) => `${m.line}:${m.text}`);
}

Deno.test("LineScanner matches line by line however the text is split", () => {
  const text = [
    "alpha",
    "",
    "beta gamma",
    "x\r",
    "gamma",
    "",
    "a b",
    "end",
  ].join("\n");
  const patterns = [/gamma/gmu, /^$/gmu, /a\s+b/gmu, /a$/gmu, /^/gmu, /b/gmiu];
  for (const pattern of patterns) {
    for (const ending of ["", "\n"]) {
      for (let seed = 1; seed < 30; seed++) {
        assert.deepEqual(
          scanInPieces(text + ending, pattern, seed),
          naive(text + ending, pattern),
          `${pattern} seed ${seed} ending ${JSON.stringify(ending)}`,
        );
      }
    }
  }
});

Deno.test("LineScanner stops at its limit and searches only the head of a huge line", () => {
  const scanner = new LineScanner(/x/gmu, 2);
  scanner.push("x\nx\nx\n");
  assert.equal(scanner.full, true);
  assert.deepEqual(scanner.matches.map((m) => m.line), [1, 2]);

  const huge = new LineScanner(/needle/gmu, 10);
  const chunk = "y".repeat(64 * 1024);
  huge.push("needle first\n");
  for (let size = 0; size <= MAX_LINE_CHARS; size += chunk.length) {
    huge.push(chunk);
  }
  huge.push("needle lost in the tail\nneedle after\n");
  huge.end();
  assert.deepEqual(huge.matches.map((m) => m.line), [1, 3]);
});

Deno.test("scanFile() reads up to the size the file had when its scan began", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/growing.log`;
    await Deno.writeTextFile(path, "needle 1\n" + "x\n".repeat(50_000));
    let grown = 0;
    const scan = await scanFile(path, /needle/g, {
      limit: 100,
      // Each chunk read makes the file longer, with a match in what is added.
      onChunk: () => {
        grown++;
        Deno.writeTextFileSync(path, "needle 2\n".repeat(10_000), {
          append: true,
        });
      },
    });
    assert.deepEqual(scan.matches.map((m) => m.text), ["needle 1"]);
    assert.ok(grown < 10, `${grown} chunks`);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("scanFile() searches UTF-16 text with a BOM, across chunk boundaries", async () => {
  const dir = await Deno.makeTempDir({ prefix: "search_file_test_" });
  try {
    // Over 64 KiB of UTF-16, with surrogate pairs, so chunks split characters.
    const lines = Array.from({ length: 6000 }, (_, i) => `line ${i} 😀`);
    lines[5555] = "needle 😀 here";
    const text = `${lines.join("\n")}\n`;
    for (const littleEndian of [true, false]) {
      const path = `${dir}/${littleEndian ? "le" : "be"}.txt`;
      await Deno.writeFile(path, utf16WithBom(text, { littleEndian }));
      const scan = await scanFile(path, /needle|😀 h/gu, { limit: 10 });
      assert.equal(scan.binary, false);
      assert.deepEqual(
        scan.matches.map((m) => `${m.line}:${m.text}`),
        ["5556:needle 😀 here"],
      );
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
