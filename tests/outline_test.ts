// Outlines asserted exactly: each fixture in fixtures/outline/ in the
// specification's text format, and small sources (bundles, overloads) as symbols.
import assert from "node:assert/strict";
import { fileOutline, outlineSymbols } from "../mod.ts";
import type { OutlineSymbol } from "../mod.ts";
import { SAMPLE_TSX_OUTLINE } from "./support/outline_samples.ts";
import { withWorkspace } from "./support/workspace.ts";

const FIXTURES = new URL("./fixtures/outline/", import.meta.url).pathname;

/** The symbols outlineSymbols() finds in `lines`, written to a file `name`. */
async function symbolsOf(
  name: string,
  lines: string[],
): Promise<OutlineSymbol[]> {
  let symbols: OutlineSymbol[] = [];
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(`${dir}/${name}`, lines.join("\n"));
    ({ symbols } = await outlineSymbols(name, { cwd: dir }));
  });
  return symbols;
}

const FIXTURE_OUTLINES: Record<string, { covers: string; lines: string[] }> = {
  "sample.ts": {
    covers:
      "TypeScript: exports, interface members, enum members, namespace children, JSDoc",
    lines: [
      "File: sample.ts",
      "Language: TypeScript",
      "Total lines: 59",
      "─── Symbols ───",
      "import node:path (line 1)",
      "import node:stream (line 2)",
      "interface SessionNotificationFelloExt (lines 8-15)  // 扩展 SessionNotification 结构",
      "    property update (lines 9-11)",
      "    property sessionId (line 13)  // The session id",
      "    method run (line 14)",
      "type Point (line 18)  // A point in 2D.",
      "    property x (line 18)",
      "    property y (line 18)",
      "enum Color (lines 21-25)",
      "    member Red (line 22)",
      "    member Green (line 24)  // The green one",
      "function greet (lines 28-30)  // Greets someone.",
      "class Shape (lines 33-43)  // A shape.",
      "    property sides (line 35)  // How many sides.",
      "    property count (line 36)",
      "    method constructor (line 37)",
      "    method area (line 39)  // The area.",
      "    method label (lines 40-42)",
      "namespace Geometry (lines 45-51)",
      "    const PI (line 47)  // Pi, roughly.",
      "    function circle (lines 48-50)",
      "const answer (line 53)",
      "const question (line 53)",
      "let counter (line 54)",
      "class default (lines 55-56)",
      'namespace "virtual" (lines 57-59)',
      "    function hidden (line 58)",
    ],
  },
  "sample.tsx": {
    covers: "TSX: JSX components",
    lines: SAMPLE_TSX_OUTLINE,
  },
  "sample.js": {
    covers: "JavaScript: classes, fields, var, JSX, generators",
    lines: [
      "File: sample.js",
      "Language: JavaScript",
      "Total lines: 27",
      "─── Symbols ───",
      "const fs (line 1)",
      "import node:path (line 2)",
      "function add (lines 7-9)  // Adds numbers.",
      "class Counter (lines 12-21)  // A counter.",
      "    property count (line 13)",
      "    method inc (lines 15-17)  // Increments.",
      "    method create (lines 18-20)",
      "var legacy (line 23)",
      "const View (line 24)",
      "function ids (lines 25-27)",
    ],
  },
  "sample.py": {
    covers:
      "Python: decorated definitions, docstrings, methods, fields, imports",
    lines: [
      "File: sample.py",
      "Language: Python",
      "Total lines: 49",
      "─── Symbols ───",
      "import os, sys (line 2)",
      "import typing (line 3)",
      "import .sibling (line 4)",
      "def plain (lines 7-12)  // Adds two numbers.",
      "def decorated (lines 15-18)",
      "class Animal (lines 21-42)  // An animal.",
      "    field legs (line 26)",
      "    field name (line 27)",
      "    method __init__ (lines 29-30)",
      "    method speak (lines 32-35)  // Says something.",
      "    method run (lines 37-39)",
      "    class Meta (lines 41-42)",
      "import collections (line 46)",
      "def fallback (lines 48-49)  // Only sometimes.",
    ],
  },
  "sample.md": {
    covers:
      "Markdown: ATX and setext headings, fences and front matter ignored",
    lines: [
      "File: sample.md",
      "Language: Markdown",
      "Total lines: 27",
      "─── Symbols ───",
      "heading Title (lines 4-21)",
      "    heading Install (lines 8-16)",
      "        heading From source (lines 15-16)",
      "    heading Setext Section (lines 17-21)",
      "heading Big Setext (lines 22-27)",
      "    heading Usage (lines 25-27)",
    ],
  },
};

for (const [name, { covers, lines }] of Object.entries(FIXTURE_OUTLINES)) {
  Deno.test(`fileOutline() outlines ${name} (${covers})`, async () => {
    const text = await fileOutline(name, { cwd: FIXTURES });
    assert.equal(text, lines.join("\n"));
  });
}

Deno.test("outlineSymbols() returns the structured symbols with docs and members", async () => {
  const result = await outlineSymbols("sample.ts", { cwd: FIXTURES });
  assert.equal(result.language, "TypeScript");
  assert.equal(result.totalLines, 59);
  assert.deepEqual(result.symbols[2], {
    kind: "interface",
    name: "SessionNotificationFelloExt",
    startLine: 8,
    endLine: 15,
    doc: "扩展 SessionNotification 结构",
    children: [
      {
        kind: "property",
        name: "update",
        startLine: 9,
        endLine: 11,
        children: [],
      },
      {
        kind: "property",
        name: "sessionId",
        startLine: 13,
        endLine: 13,
        doc: "The session id",
        children: [],
      },
      { kind: "method", name: "run", startLine: 14, endLine: 14, children: [] },
    ],
  });
});

Deno.test("outlineSymbols() outlines the body of a bundle's wrapping function in place", async () => {
  const symbols = await symbolsOf("bundle.js", [
    "var lib = {}; ((module) => {",
    "/** Adds. */",
    "function add(a, b) { return a + b; }",
    "var VERSION = 1;",
    "})(lib);",
    "!function () { class Inner { run() {} } }();",
    "(function () { const x = 1; }).call(this);",
  ]);
  assert.deepEqual(symbols, [
    { kind: "var", name: "lib", startLine: 1, endLine: 1, children: [] },
    {
      kind: "function",
      name: "add",
      startLine: 3,
      endLine: 3,
      doc: "Adds.",
      children: [],
    },
    { kind: "var", name: "VERSION", startLine: 4, endLine: 4, children: [] },
    {
      kind: "class",
      name: "Inner",
      startLine: 6,
      endLine: 6,
      children: [{
        kind: "method",
        name: "run",
        startLine: 6,
        endLine: 6,
        children: [],
      }],
    },
    { kind: "const", name: "x", startLine: 7, endLine: 7, children: [] },
  ]);
});

Deno.test("outlineSymbols() lists TypeScript overloads as one symbol spanning them", async () => {
  const symbols = await symbolsOf("overloads.ts", [
    "/** Parses. */",
    "export function parse(a: string): number;",
    "export function parse(a: number): number;",
    "export function parse(a: unknown): number {",
    "  return 0;",
    "}",
    "interface Target {",
    '  on(event: "a"): void;',
    '  on(event: "b"): void;',
    "  off(): void;",
    "}",
  ]);
  assert.deepEqual(symbols, [
    {
      kind: "function",
      name: "parse",
      startLine: 2,
      endLine: 6,
      doc: "Parses.",
      children: [],
    },
    {
      kind: "interface",
      name: "Target",
      startLine: 7,
      endLine: 11,
      children: [
        {
          kind: "method",
          name: "on",
          startLine: 8,
          endLine: 9,
          children: [],
        },
        {
          kind: "method",
          name: "off",
          startLine: 10,
          endLine: 10,
          children: [],
        },
      ],
    },
  ]);
});

Deno.test("outlineSymbols() leaves out a symbol the grammar could not name", async () => {
  // C++ in a .c file: the C grammar recovers a function with no name.
  const symbols = await symbolsOf("mixed.c", [
    "int ok(void) { return 0; }",
    "",
    "std::vector<std::pair<int, bool>> entries() const override {",
    '  return {{"a", true}};',
    "}",
  ]);
  assert.deepEqual(symbols.map((s) => [s.kind, s.name]), [
    ["function", "ok"],
  ]);
});
