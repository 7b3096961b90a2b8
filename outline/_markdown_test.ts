import assert from "node:assert/strict";
import { outlineMarkdown } from "./_markdown.ts";
import type { OutlineSymbol } from "./types.ts";

function flat(symbols: OutlineSymbol[], depth = 0): string[] {
  return symbols.flatMap((s) => [
    `${"  ".repeat(depth)}${s.name} ${s.startLine}-${s.endLine}`,
    ...flat(s.children, depth + 1),
  ]);
}

Deno.test("outlineMarkdown() nests headings and ends each before the next of the same or higher level", () => {
  const text = "## A\n#### A.1\n### A.2\ntext\n# B\n##### B.1\n";
  assert.deepEqual(flat(outlineMarkdown(text, 6)), [
    "A 1-4",
    "  A.1 2-2",
    "  A.2 3-4",
    "B 5-6",
    "  B.1 6-6",
  ]);
});

Deno.test("outlineMarkdown() ignores headings in fences, indented code, comments and thematic breaks", () => {
  const text = [
    "# Real",
    "````md",
    "# in a fence",
    "```",
    "still fenced",
    "````",
    "    # indented code",
    "<!--",
    "# commented",
    "-->",
    "",
    "---",
    "- item",
    "---",
    "#hashtag is not a heading",
    "## Closing hashes ##",
  ].join("\n");
  assert.deepEqual(flat(outlineMarkdown(text, 16)), [
    "Real 1-16",
    "  Closing hashes 16-16",
  ]);
});

Deno.test("outlineMarkdown() reads multi-line setext headings and empty ATX headings", () => {
  const text = "First line\nsecond line\n===\n#\nbody\n";
  assert.deepEqual(flat(outlineMarkdown(text, 5)), [
    "First line second line 1-3",
    " 4-5",
  ]);
});

Deno.test("outlineMarkdown() ends a paragraph at a thematic break, which is no heading text", () => {
  const text = "-----\nSIL OPEN FONT LICENSE\n-----\n\n* * *\nbody\n";
  assert.deepEqual(flat(outlineMarkdown(text, 6)), [
    "SIL OPEN FONT LICENSE 2-6",
  ]);
});

Deno.test("outlineMarkdown() names a heading by its text: links show their text, badges and HTML nothing", () => {
  const text = [
    "# rustfmt [![linux](https://ci/badge.svg)](https://ci) [![mac](m.svg)](https://m)",
    '## <img src="logo.png" alt="Logo"> RxJS: Reactive Extensions <a name="top"></a>',
    "## See [the docs](https://docs) and [the spec][spec]",
    "## `code`, *emphasis* and array[0]",
    "## Option<T>, Map<string, number> and <kbd>Ctrl</kbd>",
    "## ![Logo](logo.png)",
  ].join("\n");
  assert.deepEqual(outlineMarkdown(text, 6)[0].children.map((s) => s.name), [
    "RxJS: Reactive Extensions",
    "See the docs and the spec",
    "`code`, *emphasis* and array[0]",
    "Option<T>, Map<string, number> and Ctrl",
    "Logo",
  ]);
  assert.equal(outlineMarkdown(text, 6)[0].name, "rustfmt");
});

Deno.test("outlineMarkdown() stays fast on huge heading lines and clips their names", () => {
  const lines = [];
  for (let i = 0; i < 500; i++) {
    lines.push(
      `# a${" ".repeat(500)}b${" ".repeat(5000)}c`,
      `# ${"[".repeat(5000)}`,
    );
  }
  const started = performance.now();
  const symbols = outlineMarkdown(lines.join("\n"), lines.length);
  // Quadratic matching took minutes here; a generous bound, not a benchmark.
  assert.ok(performance.now() - started < 10_000);
  assert.equal(symbols.length, 1000);
  assert.equal(symbols[0].name, "a b");
  assert.equal(symbols[1].name, "[".repeat(1024));
});

Deno.test("outlineMarkdown() reads a line of megabytes of '-' without overflowing the stack", () => {
  const text = `# Top\n${"-".repeat(3_000_000)}x\n\n## Next\n`;
  assert.deepEqual(flat(outlineMarkdown(text, 4)), ["Top 1-4", "  Next 4-4"]);
});

Deno.test("outlineMarkdown() reads no heading in a <pre>, <script> or <style> block, wherever it ends", () => {
  const text = [
    "# A",
    "<PRE class=x>",
    "# shell comment",
    "</pre>",
    "<script>",
    "# not markdown",
    "text</script>",
    "<pre># one line</pre>",
    "<prefix-tag>",
    "## B",
    "",
  ].join("\n");
  assert.deepEqual(flat(outlineMarkdown(text, 10)), ["A 1-10", "  B 10-10"]);
});
