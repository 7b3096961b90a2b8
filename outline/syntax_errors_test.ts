import assert from "node:assert/strict";
import { Outliner } from "./outliner.ts";
import { findSyntaxErrors, syntaxCheckable } from "./syntax_errors.ts";

Deno.test("findSyntaxErrors() lists ERROR and MISSING nodes with line, column and what is missing", async () => {
  const found = await findSyntaxErrors("/w/a.py", {
    newText: "def f(:\n    return 1\n\nx = = 2\n",
  });
  assert.equal(found?.language, "Python");
  assert.equal(found?.languageId, "python");
  assert.equal(found?.before, 0);
  assert.equal(found?.after, 2);
  assert.deepEqual(found?.added, [
    { line: 1, column: 7, source: "def f(:", caret: 6, missing: ")" },
    { line: 4, column: 5, source: "x = = 2", caret: 4, unexpected: "=" },
  ]);
});

Deno.test("findSyntaxErrors() lists only the errors the old text did not have, wherever they moved", async () => {
  const oldText = "const a = (1;\nconst b = 2;\n";
  const found = await findSyntaxErrors("/w/a.ts", {
    oldText,
    // Two lines above the old error, and a new one below it.
    newText: `// one\n// two\n${oldText.replace("2;", "(2;")}`,
  });
  assert.equal(found?.before, 1);
  assert.equal(found?.after, 2);
  assert.deepEqual(found?.added.map((error) => error.line), [4]);
});

Deno.test("findSyntaxErrors() counts columns after a byte order mark and lines of CRLF text", async () => {
  const found = await findSyntaxErrors("/w/a.ts", {
    newText: "\uFEFFconst a = (1;\r\nconst b = (2;\r\n",
  });
  assert.deepEqual(found?.added, [
    { line: 1, column: 13, source: "const a = (1;", caret: 12, missing: ")" },
    { line: 2, column: 13, source: "const b = (2;", caret: 12, missing: ")" },
  ]);
});

Deno.test("findSyntaxErrors() shows a long line cut around the column", async () => {
  const line = `${"a(1);".repeat(200)}b(;${"c(2);".repeat(200)}`;
  const found = await findSyntaxErrors("/w/a.js", { newText: `${line}\n` });
  const [error] = found!.added;
  assert.equal(error.column, 1003);
  assert.ok(error.source.length <= 162, error.source);
  assert.ok(error.source.startsWith("…") && error.source.endsWith("…"));
  assert.equal(error.source.slice(error.caret, error.caret + 1), ";");
});

Deno.test("findSyntaxErrors() answers undefined for text it does not parse with a grammar", async () => {
  assert.equal(
    await findSyntaxErrors("/w/a.md", { newText: "# (\n" }),
    undefined,
  );
  assert.equal(
    await findSyntaxErrors("/w/a.txt", { newText: "f(\n" }),
    undefined,
  );
  assert.equal(
    await findSyntaxErrors("/w/a.ts", { newText: "f(\0\0\0\n" }),
    undefined,
  );
  assert.equal(syntaxCheckable("/w/a.kt", 10), true);
});

Deno.test("Outliner.syntaxErrors() parses an edit from the tree of the text it replaces", async () => {
  const outliner = new Outliner({ workers: 1 });
  try {
    const lines = Array.from({ length: 2000 }, (_, i) => `const v${i} = ${i};`);
    const oldText = `${lines.join("\n")}\n`;
    const newText = oldText.replace(
      "const v1000 = 1000;",
      "const v1000 = (1000;",
    );
    const first = await outliner.syntaxErrors("/w/a.ts", { oldText, newText });
    assert.equal(first?.after, 1);
    // The first check kept the new text's tree: the next edit of the file,
    // a fix, is parsed from it.
    const before = outliner.incrementalParses;
    const fixed = await outliner.syntaxErrors("/w/a.ts", {
      oldText: newText,
      newText: oldText,
    });
    assert.deepEqual([fixed?.before, fixed?.after], [1, 0]);
    assert.equal(outliner.incrementalParses, before + 1);
    // Error recovery depends on the old tree: counts come as from scratch.
    const again = await outliner.syntaxErrors("/w/b.ts", { newText });
    assert.equal(again?.after, 1);
  } finally {
    await outliner.terminate();
  }
});

Deno.test("findSyntaxErrors() reads a Flow-typed script with the grammar its outline uses", async () => {
  const newText =
    "// @flow\nfunction f(x: number): string {\n  return String(x);\n}\n";
  const flow = await findSyntaxErrors("/w/a.js", { newText });
  assert.deepEqual([flow?.languageId, flow?.after], ["flow", 0]);
  // Without the pragma the JavaScript grammar reads the types as errors.
  const plain = await findSyntaxErrors("/w/b.js", {
    newText: newText.replace("// @flow\n", ""),
  });
  assert.equal(plain?.languageId, "javascript");
  assert.ok(plain!.after > 0);
});

Deno.test("Outliner.syntaxErrors() answers a clean edit of a clean file from the part it touches, and keeps the whole tree", async () => {
  const outliner = new Outliner({ workers: 1 });
  try {
    const blocks = Array.from(
      { length: 300 },
      (_, i) => `def f${i}(x):\n    return x + ${i}\n`,
    );
    const first = blocks.join("\n");
    await outliner.syntaxErrors("/w/a.py", { newText: first });
    const second = first.replace("return x + 150\n", "return (x + 150) * 2\n");
    const clean = await outliner.syntaxErrors("/w/a.py", {
      oldText: first,
      newText: second,
    });
    assert.deepEqual([clean?.before, clean?.after], [0, 0]);
    // The tree kept after that answer is the whole second text's: the next
    // edit, far from the last one, is answered from the kept tree too.
    const before = outliner.incrementalParses;
    const third = await outliner.syntaxErrors("/w/a.py", {
      oldText: second,
      newText: second.replace("return x + 10\n", "return x - 10\n"),
    });
    assert.deepEqual([third?.before, third?.after], [0, 0]);
    assert.equal(outliner.incrementalParses, before + 1);
    // An edit that breaks the part it touches is parsed whole and refused.
    const cut = await outliner.syntaxErrors("/w/b.py", { newText: first });
    assert.equal(cut?.after, 0);
    const unclosed = await outliner.syntaxErrors("/w/b.py", {
      oldText: first,
      newText: first.replace("return x + 150\n", "return (x + 150\n"),
    });
    assert.equal(unclosed?.after, 1);
  } finally {
    await outliner.terminate();
  }
});

Deno.test("Outliner.syntaxErrors() sends an edit of the text it checked last as the change alone, with the same answer", async () => {
  const outliner = new Outliner({ workers: 1 });
  const fresh = new Outliner({ workers: 1 });
  try {
    const lines = Array.from({ length: 500 }, (_, i) => `const v${i} = ${i};`);
    const first = `${lines.join("\n")}\n`;
    const second = first.replace("const v100 = 100;", "const v100 = 101;");
    const broken = second.replace("const v400 = 400;", "const v400 = (400;");
    await outliner.syntaxErrors("/w/a.ts", { newText: first });
    await outliner.syntaxErrors("/w/a.ts", { oldText: first, newText: second });
    const found = await outliner.syntaxErrors("/w/a.ts", {
      oldText: second,
      newText: broken,
    });
    assert.equal(outliner.checksByChange, 2);
    // As a check of both texts whole answers.
    assert.deepEqual(
      found,
      await fresh.syntaxErrors("/w/a.ts", { oldText: second, newText: broken }),
    );
    assert.deepEqual(found?.added.map((error) => error.line), [401]);
    // A text other than the last one checked is sent whole.
    await outliner.syntaxErrors("/w/a.ts", { oldText: first, newText: second });
    assert.equal(outliner.checksByChange, 2);
  } finally {
    await outliner.terminate();
    await fresh.terminate();
  }
});

Deno.test("Outliner.syntaxErrors() sends the texts whole when the worker no longer keeps the one the change is of", async () => {
  const dir = await Deno.makeTempDir();
  const outliner = new Outliner({ workers: 1 });
  try {
    const path = `${dir}/a.ts`;
    const first = "const a = 1;\nconst b = 2;\n";
    const second = first.replace("= 2", "= 3");
    await outliner.syntaxErrors(path, { newText: first });
    // An outline of the file in between replaces the worker's kept tree.
    await Deno.writeTextFile(path, "const other = 0;\n");
    await outliner.outline(path);
    const found = await outliner.syntaxErrors(path, {
      oldText: first,
      newText: second.replace("= 3", "= (3"),
    });
    assert.equal(outliner.checksByChange, 0);
    assert.deepEqual([found?.before, found?.after], [0, 1]);
  } finally {
    await outliner.terminate();
    await Deno.remove(dir, { recursive: true });
  }
});
