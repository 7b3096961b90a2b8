// Markdown headings through outlineSymbols(): names as a reader sees them
// (code spans, comments, images, reference links) and sections nested
// around fences, HTML blocks, block quotes and list items.
import assert from "node:assert/strict";
import {
  lines,
  outlineFile,
  outlineLines,
  testOutlineFiles,
} from "../tests/support/outline_languages.ts";

Deno.test("outlineSymbols() keeps a Markdown section whole around a > ## Note callout", async () => {
  const { symbols } = await outlineFile(
    "guide.md",
    lines(
      "## Getting Started",
      "",
      "### Your first server",
      "",
      "Text.",
      "",
      "> ## Note",
      "> The examples listen on localhost only.",
      "",
      "### Your first plugin",
      "",
      "More text.",
    ),
    { parseBudgetMs: 2_000 },
  );
  const [section] = symbols;
  assert.equal(
    symbols.length,
    1,
    outlineLines(symbols).join("\n"),
  );
  assert.equal(section.name, "Getting Started");
  assert.equal(section.endLine, 12);
  assert.ok(
    section.children.some((child) => child.name === "Your first plugin"),
    outlineLines(symbols).join("\n"),
  );
});

testOutlineFiles([
  {
    name: "outlineSymbols() keeps HTML tags and brackets inside a code span",
    file: "alt-text.md",
    text: lines(
      "# Rules",
      "",
      "## `<img>`",
      "",
      "## Case: I am using an `<a>` tag",
      "",
      "### chalk.`<style>[.<style>...](string, [string...])`",
      "",
      "### `micromark(value[, encoding][, options])`",
    ),
    outline: [
      "heading Rules 1-9",
      "    heading `<img>` 3-4",
      "    heading Case: I am using an `<a>` tag 5-9",
      "        heading chalk.`<style>[.<style>...](string, [string...])` 7-8",
      "        heading `micromark(value[, encoding][, options])` 9-9",
    ],
  },
  {
    name: "outlineSymbols() leaves an HTML comment out of a heading's name",
    file: "README.md",
    text: lines(
      "# markdown-it <!-- omit in toc -->",
      "",
      "## Install <!-- omit in toc -->",
    ),
    outline: [
      "heading markdown-it 1-3",
      "    heading Install 3-3",
    ],
  },
  {
    name: "outlineSymbols() names a heading of one HTML <img> by its alt text",
    file: "readme.md",
    text: lines(
      '# <img src="media/header.png" title="AVA" alt="AVA logo" width="530">',
      "",
      "AVA is a test runner.",
    ),
    outline: [
      "heading AVA logo 1-3",
    ],
  },
  {
    name: "outlineSymbols() shows a shortcut reference link by its text",
    file: "CHANGELOG.md",
    text: lines(
      "# Changelog",
      "",
      "## [2.31.0] - 2024-10-03",
      "",
      "## [2.4.0] - 2017-06-02 [YANKED]",
      "",
      "[2.31.0]: https://github.com/x/y/compare/v2.30.0...v2.31.0",
      "[2.4.0]: https://github.com/x/y/compare/v2.3.0...v2.4.0",
    ),
    outline: [
      "heading Changelog 1-8",
      "    heading 2.31.0 - 2024-10-03 3-4",
      "    heading 2.4.0 - 2017-06-02 [YANKED] 5-8",
    ],
  },
  {
    name: "outlineSymbols() lists headings in block quotes and list items",
    file: "README.md",
    text: lines(
      "# Fastify",
      "",
      "> ## Note",
      "> `.listen` binds to the local host.",
      "",
      "## Reply",
      "",
      "- ### set-cookie",
      "  text",
    ),
    outline: [
      "heading Fastify 1-9",
      "    heading Note 3-5",
      "    heading Reply 6-9",
      "        heading set-cookie 8-9",
    ],
  },
  {
    name: "outlineSymbols() reads no heading inside an HTML <pre> block",
    file: "README.md",
    text: lines(
      "# A",
      "",
      "<pre>",
      "# install it",
      "npm i a",
      "</pre>",
      "",
      "## B",
    ),
    outline: [
      "heading A 1-8",
      "    heading B 8-8",
    ],
  },
  {
    name: "outlineSymbols() reads no code fence in a line of ```inline code```",
    file: "README.md",
    text: lines(
      "## API",
      "",
      "```InflatedDataHandler``` ",
      "",
      "## Types",
      "",
      "### `InflateFileFilter`",
      "```ts",
      "# not a heading",
      "```",
    ),
    outline: [
      "heading API 1-4",
      "heading Types 5-10",
      "    heading `InflateFileFilter` 7-10",
    ],
  },
]);
