// outlineMarkdown(): headings as nested symbols, and how they are named.
import assert from "node:assert/strict";
import { outlineMarkdown, outlineMarkdownUpTo } from "./markdown.ts";
import type { OutlineSymbol } from "../../types.ts";

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
    '## `ImagePart` <Note type="warning">Deprecated</Note> <Badge text={x} />',
    "## ![Logo](logo.png)",
  ].join("\n");
  assert.deepEqual(outlineMarkdown(text, 7)[0].children.map((s) => s.name), [
    "RxJS: Reactive Extensions",
    "See the docs and the spec",
    "`code`, *emphasis* and array[0]",
    "Option<T>, Map<string, number> and Ctrl",
    "`ImagePart` Deprecated",
    "Logo",
  ]);
  assert.equal(outlineMarkdown(text, 7)[0].name, "rustfmt");
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

Deno.test("outlineMarkdown() keeps a code span in a heading's name as written", () => {
  const text = [
    "# Rules",
    "## `<img>`",
    "## Case: I am using an `<a>` tag",
    "## chalk.`<style>[.<style>...](string, [string...])`",
    "## `micromark(value[, encoding][, options])`",
    "## [`fn()`](#fn) and ``a ` b`` and `unclosed",
    "## \\`not code\\` and `<b>`",
  ].join("\n");
  assert.deepEqual(outlineMarkdown(text, 7)[0].children.map((s) => s.name), [
    "`<img>`",
    "Case: I am using an `<a>` tag",
    "chalk.`<style>[.<style>...](string, [string...])`",
    "`micromark(value[, encoding][, options])`",
    "`fn()` and ``a ` b`` and `unclosed",
    "`not code` and `<b>`",
  ]);
});

Deno.test("outlineMarkdown() leaves HTML comments out of a heading's name", () => {
  const text = [
    "# markdown-it <!-- omit in toc -->",
    "## Install <!-- omit in toc --> now <!-- two -->",
    "## Open <!-- comment",
  ].join("\n");
  assert.deepEqual(flat(outlineMarkdown(text, 3)), [
    "markdown-it 1-3",
    "  Install now 2-2",
    "  Open <!-- comment 3-3",
  ]);
});

Deno.test("outlineMarkdown() names a heading of only HTML images by their alt text", () => {
  const text = [
    '# <img src="media/header.png" title="AVA" alt="AVA logo" width="530">',
    "## <picture><source srcset=\"d.svg\"><img alt='Dark' src=x></picture>",
    '## <img src="a.png"> Text wins',
  ].join("\n");
  assert.deepEqual(flat(outlineMarkdown(text, 3)), [
    "AVA logo 1-3",
    "  Dark 2-2",
    "  Text wins 3-3",
  ]);
});

Deno.test("outlineMarkdown() reads ATX headings in block quotes and on a list item's first line", () => {
  const text = [
    "# Fastify", // 1
    "> ## Note", // 2
    "> `.listen` binds to the local host.", // 3
    "## Reply", // 4
    "- ### set-cookie", // 5
    "  text", // 6
    "> 1. - #### Deep", // 7
    "> MIT License", // 8
    "> -----------", // 9
    "> ```sh", // 10
    "> # a shell comment", // 11
    "# after the quote closed its fence", // 12
    "- ```sh", // 13
    "  # a shell comment in the item", // 14
    "# after the item closed its fence", // 15
    ">     # indented code", // 16
    "-     # indented code", // 17
    "> Lazy", // 18
    "===", // 19
    "- - - # three items deep", // 20
    "* * *", // 21
  ].join("\n");
  // Each heading in a quote or an item is a leaf of the section around it,
  // up to the next heading: it neither ends that section nor adopts others.
  assert.deepEqual(flat(outlineMarkdown(text, 21)), [
    "Fastify 1-11",
    "  Note 2-3",
    "  Reply 4-11",
    "    set-cookie 5-6",
    "    Deep 7-7",
    "    MIT License 8-11",
    "after the quote closed its fence 12-14",
    "after the item closed its fence 15-21",
    "  three items deep 20-21",
  ]);
});

Deno.test("outlineMarkdown() shows a shortcut reference link by its text when it is defined", () => {
  const text = [
    "# Changelog",
    "## [2.31.0] - 2024-10-03",
    "## [2.4.0] - 2017-06-02 [YANKED]",
    "## [Unreleased] and ![Logo]",
    "## minimist [![Version Badge][logo]][unreleased] and a note[^1]",
    "",
    "[2.31.0]: https://github.com/x/y/compare/v2.30.0...v2.31.0",
    " [2.4.0]:",
    "   https://github.com/x/y/compare/v2.3.0...v2.4.0",
    "> [unreleased]: https://github.com/x/y",
    "[logo]: logo.png",
    "text [yanked]: not a definition inside a paragraph",
    "",
    "[^1]: A footnote, no link.",
  ].join("\n");
  assert.deepEqual(outlineMarkdown(text, 15)[0].children.map((s) => s.name), [
    "2.31.0 - 2024-10-03",
    "2.4.0 - 2017-06-02 [YANKED]",
    "Unreleased and",
    "minimist and a note[^1]",
  ]);
});

Deno.test("outlineMarkdown() shows backslash escapes and entities as the characters they stand for", () => {
  const text = [
    "# Escaped \\#5, \\[not a link\\](x) and \\`not code\\`",
    "## new Ajv(options) -&gt; Ajv&lt;T&gt; &amp;&#33;&#x3F; &bogus; `&lt;kept&gt;`",
  ].join("\n");
  assert.deepEqual(flat(outlineMarkdown(text, 2)), [
    "Escaped #5, [not a link](x) and `not code` 1-2",
    "  new Ajv(options) -> Ajv<T> &!? &bogus; `&lt;kept&gt;` 2-2",
  ]);
});

Deno.test("outlineMarkdown() stays fast on deep quotes and lists and on unclosed code spans, comments and tags", () => {
  const headings = (line: string) => Array(1000).fill(`# ${line}`);
  const lines = [
    `${">".repeat(1_000_000)} # quoted`,
    `${"- ".repeat(500_000)}x`,
    `${"- > ".repeat(250_000)}x`,
    `- > ${"- ".repeat(500_000)}x`,
    ...Array.from({ length: 2000 }, (_, i) => `${">".repeat(i + 1)} \`\`\``),
    "",
    ...headings("`a".repeat(600)),
    ...headings("<!--".repeat(300)),
    ...headings("<a ".repeat(400)),
    ...headings('<A b="x"'.repeat(120)),
    ...headings("\\[".repeat(600)),
    ...Array.from({ length: 1000 }, (_, i) => `[${"a".repeat(900)}${i}]: x`),
  ];
  const started = performance.now();
  const symbols = outlineMarkdown(lines.join("\n"), lines.length);
  // Quadratic scanning took minutes here; a generous bound, not a benchmark.
  assert.ok(performance.now() - started < 10_000);
  assert.equal(symbols.length, 5001);
  assert.equal(symbols[0].name, "quoted");
  assert.equal(symbols[1].name, "`a".repeat(512));
});

Deno.test("outlineMarkdown() reads a list item's setext heading, quotes in list items and lines that cannot interrupt a paragraph", () => {
  const text = [
    "- > # Quoted in an item", // 1
    "  > ```sh", // 2
    "  > # a shell comment", // 3
    "- Item heading", // 4
    "  ---", // 5
    "- Item text", // 6
    "---", // 7
    "Paragraph", // 8
    "2. continues it", // 9
    "    and so does this", // 10
    "===", // 11
  ].join("\n");
  assert.deepEqual(flat(outlineMarkdown(text, 11)), [
    "Quoted in an item 1-3",
    "Item heading 4-7",
    "Paragraph 2. continues it and so does this 8-11",
  ]);
});

Deno.test("outlineMarkdownUpTo() builds the first headings only, the rest counted and closing ranges", () => {
  const text = ["# A", "## B", "text", "## C", "# D", "## E"].join("\n");
  const whole = flat(outlineMarkdown(text, 6));
  const { symbols, omitted } = outlineMarkdownUpTo(text, 6, 2);
  // A and B as in the whole outline, though C and D are not built.
  assert.deepEqual(flat(symbols), ["A 1-4", "  B 2-3"]);
  assert.deepEqual(whole.slice(0, 1), ["A 1-4"]);
  assert.equal(omitted, 3);
  assert.deepEqual(outlineMarkdownUpTo(text, 6, 10).omitted, 0);
});
