// fileOutline() and outlineSymbols(), the public face of the outline engine:
// their options, paths, line counts and the errors they give.
import assert from "node:assert/strict";
import { makeFifo } from "../tests/support/fifo.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import { fileOutline, outlineSymbols } from "./outline.ts";

const FIXTURES = new URL("../tests/fixtures/outline/", import.meta.url)
  .pathname;

Deno.test("outlineSymbols() and fileOutline() refuse a negative or NaN parseBudgetMs and a negative maxSymbols", async () => {
  for (const parseBudgetMs of [-1, Number.NaN]) {
    await assert.rejects(
      outlineSymbols("sample.ts", { cwd: FIXTURES, parseBudgetMs }),
      (error: Error) => {
        assert.doesNotMatch(error.message, /took longer/);
        assert.match(error.message, /parseBudgetMs/);
        return true;
      },
      String(parseBudgetMs),
    );
  }
  await assert.rejects(
    fileOutline("sample.ts", { cwd: FIXTURES, maxSymbols: -3 }),
    /maxSymbols/,
  );
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
  const uri =
    new URL("../tests/fixtures/outline/sample.md", import.meta.url).href;
  assert.ok(
    (await fileOutline(uri)).startsWith(`File: ${uri}\nLanguage: Markdown\n`),
  );
});

Deno.test("fileOutline() caps the listing at maxSymbols and says how many were left out", async () => {
  const text = await fileOutline("sample.py", { cwd: FIXTURES, maxSymbols: 3 });
  // The header and first three symbols of the whole outline (asserted
  // exactly in tests/outline_test.ts), then the note.
  const whole = (await fileOutline("sample.py", { cwd: FIXTURES }))
    .split("\n");
  assert.equal(whole[0], "File: sample.py");
  assert.deepEqual(whole.slice(4, 7), [
    "import os, sys (line 2)",
    "import typing (line 3)",
    "import .sibling (line 4)",
  ]);
  assert.equal(
    text,
    [
      ...whole.slice(0, 7),
      "... 11 more symbols left out (showing 3 of 14); read the file by line ranges for the rest",
    ].join("\n"),
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
      await makeFifo(`${dir}/pipe.ts`);
      await assert.rejects(fileOutline("pipe.ts", { cwd: dir }), {
        name: "ToolError",
        message:
          'Cannot outline "pipe.ts": it is not a regular file (a device, socket or pipe)',
      });
    });
  },
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

Deno.test("outlineSymbols() accepts a parse budget of 2^31 ms or more", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.md`, "# Title\n");
    const { symbols } = await outlineSymbols("a.md", {
      cwd: dir,
      parseBudgetMs: 2 ** 31,
    });
    assert.equal(symbols[0]?.name, "Title");
  });
});
