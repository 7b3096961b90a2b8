// The outline of each fixture, asserted exactly: names, labels, line ranges,
// nesting and doc comments, in the specification's text format.
import assert from "node:assert/strict";
import { fileOutline, outlineSymbols } from "../mod.ts";
import { withWorkspace } from "./support/workspace.ts";

const FIXTURES = new URL("./fixtures/outline/", import.meta.url).pathname;

function expected(lines: string[]): string {
  return lines.join("\n");
}

Deno.test("fileOutline() outlines sample.ts (TypeScript: exports, interface members, enum members, namespace children, JSDoc)", async () => {
  const text = await fileOutline("sample.ts", { cwd: FIXTURES });
  assert.equal(
    text,
    expected([
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
    ]),
  );
});

Deno.test("fileOutline() outlines sample.tsx (TSX: JSX components)", async () => {
  const text = await fileOutline("sample.tsx", { cwd: FIXTURES });
  assert.equal(
    text,
    expected([
      "File: sample.tsx",
      "Language: TSX",
      "Total lines: 17",
      "─── Symbols ───",
      "import react (line 1)",
      "interface ButtonProps (lines 4-6)  // Props of the button.",
      "    property label (line 5)",
      "function Button (lines 9-11)  // A button.",
      "const App (lines 13-17)",
    ]),
  );
});

Deno.test("fileOutline() outlines sample.js (JavaScript: classes, fields, var, JSX, generators)", async () => {
  const text = await fileOutline("sample.js", { cwd: FIXTURES });
  assert.equal(
    text,
    expected([
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
    ]),
  );
});

Deno.test("fileOutline() outlines sample.py (Python: decorated definitions, docstrings, methods, fields, imports)", async () => {
  const text = await fileOutline("sample.py", { cwd: FIXTURES });
  assert.equal(
    text,
    expected([
      "File: sample.py",
      "Language: Python",
      "Total lines: 49",
      "─── Symbols ───",
      "import os, sys (line 2)",
      "import typing (line 3)",
      "import . (line 4)",
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
    ]),
  );
});

Deno.test("fileOutline() outlines sample.md (Markdown: ATX and setext headings, fences and front matter ignored)", async () => {
  const text = await fileOutline("sample.md", { cwd: FIXTURES });
  assert.equal(
    text,
    expected([
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
    ]),
  );
});

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

Deno.test("outlineSymbols() counts lines as ReadFile does", async () => {
  await withWorkspace(async (dir) => {
    const cases: [string, number][] = [
      ["", 0],
      ["a = 1", 1],
      ["a = 1\n", 1],
      ["a = 1\nb = 2\n", 2],
      ["a = 1\n\n", 2],
      ["a = 1\r\nb = 2", 2],
    ];
    for (const [index, [text, lines]] of cases.entries()) {
      await Deno.writeTextFile(`${dir}/f${index}.py`, text);
      const result = await outlineSymbols(`f${index}.py`, { cwd: dir });
      assert.equal(result.totalLines, lines, JSON.stringify(text));
    }
  });
});

Deno.test("fileOutline() accepts absolute paths and file:// URIs and shows them as given", async () => {
  const absolute = `${FIXTURES}sample.py`;
  const text = await fileOutline(absolute);
  assert.ok(text.startsWith(`File: ${absolute}\nLanguage: Python\n`));
  const uri = new URL("./fixtures/outline/sample.md", import.meta.url).href;
  assert.ok(
    (await fileOutline(uri)).startsWith(`File: ${uri}\nLanguage: Markdown\n`),
  );
});

Deno.test("fileOutline() caps the listing at maxSymbols and says how many were left out", async () => {
  const text = await fileOutline("sample.py", { cwd: FIXTURES, maxSymbols: 3 });
  assert.equal(
    text,
    expected([
      "File: sample.py",
      "Language: Python",
      "Total lines: 49",
      "─── Symbols ───",
      "import os, sys (line 2)",
      "import typing (line 3)",
      "import . (line 4)",
      "... 11 more symbols left out (showing 3 of 14); read the file by line ranges for the rest",
    ]),
  );
});

Deno.test("fileOutline() rejects an unsupported extension, listing the supported ones", async () => {
  await assert.rejects(
    fileOutline("notes.txt", { cwd: FIXTURES }),
    (error: Error) => {
      assert.equal(error.name, "ToolError");
      assert.match(
        error.message,
        /^Cannot outline "notes\.txt": this file type is not supported; supported extensions: \.ts, /,
      );
      for (
        const ext of [
          ".tsx",
          ".py",
          ".go",
          ".hh",
          ".swift",
          ".kts",
          ".dart",
          ".markdown",
        ]
      ) {
        assert.ok(error.message.includes(ext), ext);
      }
      return true;
    },
  );
});

Deno.test("fileOutline() names the path of a missing, binary or folder path", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeFile(
      `${dir}/blob.c`,
      new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2]),
    );
    await Deno.mkdir(`${dir}/folder.ts`);
    await assert.rejects(fileOutline("missing.ts", { cwd: dir }), {
      name: "ToolError",
      message:
        'Cannot outline "missing.ts": the file does not exist; check the path',
    });
    await assert.rejects(fileOutline("blob.c", { cwd: dir }), {
      name: "ToolError",
      message: 'Cannot outline "blob.c": it is a binary file, not source code',
    });
    await assert.rejects(fileOutline("folder.ts", { cwd: dir }), {
      name: "ToolError",
      message:
        'Cannot outline "folder.ts": it is a folder; outline the files inside it one by one',
    });
  });
});

Deno.test({
  name: "fileOutline() refuses a pipe rather than wait for a writer",
  ignore: Deno.build.os === "windows",
  async fn() {
    await withWorkspace(async (dir) => {
      const made = await new Deno.Command("mkfifo", {
        args: [`${dir}/pipe.ts`],
      })
        .output();
      assert.ok(made.success, new TextDecoder().decode(made.stderr));
      await assert.rejects(fileOutline("pipe.ts", { cwd: dir }), {
        name: "ToolError",
        message:
          'Cannot outline "pipe.ts": it is not a regular file (a device, socket or pipe)',
      });
    });
  },
});

Deno.test("outlineSymbols() outlines the body of a bundle's wrapping function in place", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/bundle.js`,
      [
        "var lib = {}; ((module) => {",
        "/** Adds. */",
        "function add(a, b) { return a + b; }",
        "var VERSION = 1;",
        "})(lib);",
        "!function () { class Inner { run() {} } }();",
        "(function () { const x = 1; }).call(this);",
      ].join("\n"),
    );
    const { symbols } = await outlineSymbols("bundle.js", { cwd: dir });
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
});

Deno.test("outlineSymbols() lists TypeScript overloads as one symbol spanning them", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/overloads.ts`,
      [
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
      ].join("\n"),
    );
    const { symbols } = await outlineSymbols("overloads.ts", { cwd: dir });
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
});

Deno.test("outlineSymbols() leaves out a symbol the grammar could not name", async () => {
  await withWorkspace(async (dir) => {
    // C++ in a .c file: the C grammar recovers a function with no name.
    await Deno.writeTextFile(
      `${dir}/mixed.c`,
      [
        "int ok(void) { return 0; }",
        "",
        "std::vector<std::pair<int, bool>> entries() const override {",
        '  return {{"a", true}};',
        "}",
      ].join("\n"),
    );
    const { symbols } = await outlineSymbols("mixed.c", { cwd: dir });
    assert.deepEqual(symbols.map((s) => [s.kind, s.name]), [
      ["function", "ok"],
    ]);
  });
});

Deno.test("outlineSymbols() lists a container of 130,000 members without overflowing the stack", async () => {
  await withWorkspace(async (dir) => {
    const count = 130_000;
    await Deno.writeTextFile(
      `${dir}/consts.go`,
      `package p\n\nconst (\n${"\tc = 1\n".repeat(count)})\n`,
    );
    const { symbols } = await outlineSymbols("consts.go", { cwd: dir });
    assert.equal(symbols.filter((s) => s.kind === "const").length, count);
  });
});

Deno.test("outlineSymbols() lists types nested 3,000 deep to 40 levels of members, without overflowing the stack", async () => {
  const depth = 3_000;
  const files: Record<string, string> = {
    "deep.cpp": `${
      Array.from({ length: depth }, (_, i) => `struct S${i} {\n`).join("")
    }int x;\n${"};\n".repeat(depth)}`,
    "deep_ns.cpp": `${
      Array.from({ length: depth }, (_, i) => `namespace N${i} {\nint a;\n`)
        .join("")
    }${"}\n".repeat(depth)}`,
    "deep.kt": `${
      Array.from({ length: depth }, (_, i) => `class C${i} {\n`).join("")
    }val x = 1\n${"}\n".repeat(depth)}`,
    "deep.swift": `${
      Array.from({ length: depth }, (_, i) => `class C${i} {\n`).join("")
    }var x = 1\n${"}\n".repeat(depth)}`,
  };
  await withWorkspace(async (dir) => {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
      const { symbols } = await outlineSymbols(name, { cwd: dir });
      // The first symbol's chain of first children, as deep as it goes.
      const chain: string[] = [];
      for (let level = symbols; level.length > 0; level = level[0].children) {
        chain.push(level[0].name);
      }
      assert.equal(chain.length, 41, name);
      assert.equal(chain[0].slice(1), "0", name);
      assert.equal(chain[40].slice(1), "40", name);
    }
  });
});
