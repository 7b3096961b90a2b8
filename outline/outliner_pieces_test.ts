// Outliner splitting a large file into pieces parsed side by side: the outline
// is exactly what a whole parse gives, whether the split holds or is given up.
import assert from "node:assert/strict";
import { Outliner } from "./outliner.ts";
import { join } from "node:path";
import { withWorkspace } from "../tests/support/workspace.ts";

const SPLIT = 16 * 1024;

// About 100 KB of TypeScript with doc comments, classes and overloads.
function typeScript(): string {
  const parts: string[] = [];
  for (let i = 0; i < 400; i++) {
    parts.push(
      `/** Adds ${i}. */\nexport function add${i}(a: string): string;\n\nexport function add${i}(a: number): number;\n\nexport function add${i}(a: unknown) {\n  return a;\n}\n\nexport class Box${i} {\n  value = ${i};\n  get(): number {\n    return this.value;\n  }\n}\n`,
    );
  }
  return parts.join("\n");
}

// C with every prototype first and every definition after it, so the pieces
// must settle prototypes between them.
function c(): string {
  const prototypes: string[] = [];
  const definitions: string[] = [];
  for (let i = 0; i < 600; i++) {
    prototypes.push(`int f${i}(int x);`);
    definitions.push(
      `/* Doubles ${i}. */\nint f${i}(int x) {\n  return 2 * x;\n}\n`,
    );
  }
  prototypes.push("int declared_only(void);");
  return `${prototypes.join("\n")}\n\n${definitions.join("\n")}`;
}

async function outlineBoth(
  path: string,
  options: { workers?: number } = {},
) {
  const split = new Outliner({ ...options, splitBytes: SPLIT });
  const whole = new Outliner({ ...options, splitBytes: Infinity });
  try {
    const pieces = await split.outline(path);
    return {
      pieces,
      whole: await whole.outline(path),
      pieceOutlines: split.pieceOutlines,
      workersStarted: split.pool.workersStarted,
    };
  } finally {
    await split.terminate();
    await whole.terminate();
  }
}

Deno.test("Outliner outlines a large file in pieces, exactly as a whole parse does", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(`${dir}/big.ts`, typeScript());
    await Deno.writeTextFile(`${dir}/big.c`, c());
    for (const file of ["big.ts", "big.c"]) {
      const result = await outlineBoth(`${dir}/${file}`, { workers: 3 });
      assert.equal(result.pieceOutlines, 1, file);
      assert.equal(result.workersStarted, 3, file);
      assert.deepEqual(result.pieces, result.whole, file);
    }
    const { pieces } = await outlineBoth(`${dir}/big.ts`, { workers: 2 });
    // Overloads merged, doc comments kept, lines counted from the top: part i
    // takes 16 lines from line 16i + 1, its function lines 2-8.
    assert.equal(pieces.symbols.length, 800);
    assert.deepEqual(pieces.symbols.at(-2), {
      kind: "function",
      name: "add399",
      startLine: 16 * 399 + 2,
      endLine: 16 * 399 + 8,
      doc: "Adds 399.",
      children: [],
    });
    const cOutline = (await outlineBoth(`${dir}/big.c`)).pieces;
    assert.equal(cOutline.symbols[0].name, "declared_only");
    assert.equal(cOutline.symbols.length, 601);
  });
});

// Code that a whole parse reads only after the language's text pass: C++
// export macros in class heads, Swift `#if` lines inside a type and `try?`
// after `let x =`, in every piece.
const PREPARED: Record<string, (i: number) => string> = {
  cpp: (i) =>
    `/// Widget ${i}.\nclass V8_EXPORT Widget${i} {\n public:\n  int size() const V8_NOEXCEPT;\n};\n`,
  swift: (i) =>
    `/// Box ${i}.\nstruct Box${i} {\n  var a = 1\n#if os(iOS)\n  var b = 2\n#endif\n  func f() {\n    if let x = try? a.b {\n      print(x)\n    }\n  }\n}\n`,
};

Deno.test("Outliner prepares each piece of a C++ or Swift file as a whole parse prepares the file", async () => {
  await withWorkspace(async (dir) => {
    for (const [extension, block] of Object.entries(PREPARED)) {
      const blocks = Array.from({ length: 300 }, (_, i) => block(i));
      await Deno.writeTextFile(`${dir}/big.${extension}`, blocks.join("\n"));
      const result = await outlineBoth(`${dir}/big.${extension}`);
      assert.equal(result.pieceOutlines, 1, extension);
      assert.deepEqual(result.pieces, result.whole, extension);
      const last = result.pieces.symbols.at(-1)!;
      assert.equal(result.pieces.symbols.length, 300, extension);
      assert.match(last.name, /^(Widget|Box)299$/);
      assert.equal(last.doc, last.name.replace(/(\d+)$/, " $1."));
      assert.equal(last.children.length, extension === "cpp" ? 1 : 3);
    }
  });
});

Deno.test("Outliner does not split a C header inside its include guard", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/big.h`,
      `#ifndef BIG_H\n#define BIG_H\n\n${c()}\n#endif\n`,
    );
    const result = await outlineBoth(`${dir}/big.h`);
    assert.equal(result.pieceOutlines, 0);
    assert.deepEqual(result.pieces, result.whole);
    assert.equal(result.whole.symbols.length, 601);
  });
});

Deno.test("Outliner never splits a Kotlin file", async () => {
  await withWorkspace(async (dir) => {
    const functions: string[] = [];
    for (let i = 0; i < 2000; i++) functions.push(`fun f${i}() = ${i}\n`);
    await Deno.writeTextFile(`${dir}/big.kt`, functions.join("\n"));
    const result = await outlineBoth(`${dir}/big.kt`);
    assert.equal(result.pieceOutlines, 0);
    assert.equal(result.pieces.symbols.length, 2000);
  });
});

Deno.test("Outliner parses the whole file when the split cuts through a construct", async () => {
  await withWorkspace(async (dir) => {
    // A bundle: the whole module inside one function, its body at column 0.
    const body = typeScript().replaceAll("export ", "");
    await Deno.writeTextFile(
      `${dir}/bundle.js`,
      `(function () {\n${body}\n})();\n`,
    );
    const result = await outlineBoth(`${dir}/bundle.js`);
    assert.equal(result.pieceOutlines, 0);
    assert.deepEqual(result.pieces, result.whole);
    assert.ok(result.whole.symbols.length > 100);
  });
});

Deno.test("Outliner parses the whole file when a later piece starts inside a Python block", async () => {
  await withWorkspace(async (dir) => {
    // A comment at column 0 does not end a block: the methods after it stay
    // in the class, and a piece starting at the comment would lose them.
    const methods: string[] = [];
    for (let i = 0; i < 1500; i++) {
      methods.push(`    def m${i}(self):\n        return ${i}\n`);
    }
    const text = `class Big:\n${methods.join("\n# more\n")}`;
    await Deno.writeTextFile(`${dir}/big.py`, text);
    const result = await outlineBoth(`${dir}/big.py`);
    assert.equal(result.pieceOutlines, 0);
    assert.deepEqual(result.pieces, result.whole);
    assert.equal(result.whole.symbols.length, 1);
    assert.equal(result.whole.symbols[0].children.length, 1500);
  });
});

const BROKEN_PIECES: Record<string, string> = {
  "the first piece": `function broken( {\n\n${typeScript()}`,
  "a later piece": `${typeScript()}\nfunction broken( {\n`,
};

for (const [which, text] of Object.entries(BROKEN_PIECES)) {
  Deno.test(
    `Outliner parses the whole file when ${which} has a syntax error`,
    async () => {
      await withWorkspace(async (dir) => {
        await Deno.writeTextFile(`${dir}/broken.ts`, text);
        const result = await outlineBoth(`${dir}/broken.ts`);
        assert.equal(result.pieceOutlines, 0);
        assert.deepEqual(result.pieces, result.whole);
      });
    },
  );
}

Deno.test("Outliner keeps the parse budget and the same-tick change check for pieces", async () => {
  await withWorkspace(async (dir) => {
    const outliner = new Outliner({ splitBytes: SPLIT });
    try {
      const path = `${dir}/big.ts`;
      await Deno.writeTextFile(path, typeScript());
      await assert.rejects(outliner.outline(path, { parseBudgetMs: 1 }), {
        name: "ToolError",
        message: new RegExp(
          `^Cannot outline "${path}": parsing took longer than the 1 ms budget`,
        ),
      });
      // Written just now: the cache must check the content, not only mtime.
      const { mtime } = await Deno.stat(path);
      const first = await outliner.outline(path);
      assert.equal(outliner.pieceOutlines, 1);
      await Deno.writeTextFile(path, typeScript().replace("add0", "sub0"));
      await Deno.utime(path, mtime!, mtime!);
      const second = await outliner.outline(path);
      assert.equal(outliner.pieceOutlines, 2);
      assert.equal(first.symbols[0].name, "add0");
      assert.equal(second.symbols[0].name, "sub0");
    } finally {
      await outliner.terminate();
    }
  });
});

// Multi-byte text before the split (CJK comments and strings, emoji that
// take two UTF-16 units), a BOM, CRLF and no final newline, through the real
// engine: the byte offsets of the pieces and their line offsets must agree.
const MULTIBYTE: Record<string, (i: number) => string> = {
  ts: (i) =>
    `/** 说明 ${i} 😀 */\nexport function f${i}(a: string): string {\n  return "日本語 🎉";\n}\n`,
  py: (i) => `def f${i}():\n    """文档 ${i} 😀."""\n    return "日本 🎉"\n`,
  go: (i) => `// F${i} 说明 😀\nfunc F${i}() string {\n\treturn "日本 🎉"\n}\n`,
  c: (i) => `/* 说明 ${i} 😀 */\nint f${i}(void) { return 0; /* 🎉 */ }\n`,
  swift: (i) => `/// 说明 ${i} 😀\nfunc f${i}() -> String { "日本 🎉" }\n`,
  dart: (i) => `/// 说明 ${i} 😀\nString f${i}() => '日本 🎉';\n`,
};

Deno.test("Outliner splits text with multi-byte characters as a whole parse reads it", async () => {
  await withWorkspace(async (dir) => {
    const split = new Outliner({ workers: 2, splitBytes: 64 });
    const whole = new Outliner({ workers: 1, splitBytes: Infinity });
    try {
      let joined = 0;
      for (const [extension, block] of Object.entries(MULTIBYTE)) {
        const body = Array.from({ length: 5 }, (_, i) => block(i)).join("\n");
        const text = extension === "go" ? `package p\n\n${body}` : body;
        const variants = [
          `// ${"字".repeat(30)}\n\n${text}`,
          `\uFEFF${text}`,
          text.replaceAll("\n", "\r\n").replace(/\r\n$/, ""),
        ];
        for (const [i, variant] of variants.entries()) {
          const path = `${dir}/f${i}.${extension}`;
          await Deno.writeTextFile(path, variant);
          const before = split.pieceOutlines;
          const pieces = await split.outline(path);
          joined += split.pieceOutlines - before;
          assert.deepEqual(pieces, await whole.outline(path), path);
        }
      }
      assert.ok(
        joined >= 12,
        `only ${joined} of 18 files were joined from pieces`,
      );
    } finally {
      await split.terminate();
      await whole.terminate();
    }
  });
});

// A file of `count` declarations separated by blank lines, some on one very
// long line, with `eol` line ends.
function declarations(ext: string, count: number, eol: string): string {
  const parts: string[] = [];
  for (let i = 0; i < count; i++) {
    const long = i % 5 === 3 ? "y".repeat(3000) : "y";
    parts.push(
      ext === ".py"
        ? `# F${i}.\ndef f${i}(a):\n    """Doc ${i}."""\n    return "${long}"`
        : ext === ".c"
        ? `/** Doc ${i}. */\nint f${i}(int a) {\n  return a; /* ${long} */\n}`
        : `/** Doc ${i}. */\nexport function f${i}(a: number): string {\n  return "${long}";\n}\nclass C${i} {\n  m() {}\n}`,
    );
  }
  return parts.join("\n\n").replaceAll("\n", eol) + eol;
}

Deno.test("Outliner splits a file on a fresh pool, with its head start, exactly as one whole parse outlines it", async () => {
  await withWorkspace(async (dir) => {
    const whole = new Outliner({ workers: 1, splitBytes: Infinity });
    let split = 0;
    try {
      for (const ext of [".ts", ".py", ".c"]) {
        for (
          const [eol, count] of [["\n", 30], ["\r\n", 7], ["\n", 3]] as const
        ) {
          const path = join(dir, `f${count}${ext}`);
          const text = declarations(ext, count, eol);
          await Deno.writeTextFile(path, text);
          const expected = await whole.outline(path);
          for (const workers of [2, 4]) {
            // Just over the split size for `workers` pieces: a fresh pool
            // (one worker booting) each time, so the head start applies.
            const pool = new Outliner({
              workers,
              splitBytes: Math.floor(2 * text.length / workers) - 1,
            });
            try {
              assert.deepEqual(await pool.outline(path), expected, path);
              split += pool.pieceOutlines;
            } finally {
              await pool.terminate();
            }
          }
        }
      }
      assert.ok(split >= 8, `only ${split} outlines were joined from pieces`);
    } finally {
      await whole.terminate();
    }
  });
});
