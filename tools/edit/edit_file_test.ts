import assert from "node:assert/strict";
import { join } from "node:path";
import { applyPatch } from "diff";
import { createTools, ToolError } from "../../mod.ts";
import { withDirs, withWorkspace } from "../../tests/support/workspace.ts";
import {
  rejectsTool,
  swapThenApprove,
  toolErrorMessage,
} from "../../tests/support/tool_asserts.ts";
import { childPeak, MB, MOD } from "../../tests/support/child_peak.ts";

function tools(ws: string) {
  return createTools({ cwd: ws, permissionMode: "allow" });
}

/** Runs one EditFile call and resolves to the edited file's text after it. */
async function editThenRead(
  t: ReturnType<typeof createTools>,
  ws: string,
  input: Parameters<ReturnType<typeof createTools>["EditFile"]["execute"]>[0],
): Promise<string> {
  await t.EditFile.execute(input);
  return await Deno.readTextFile(join(ws, input.path));
}

Deno.test("editFile() replaces one match and returns a unified diff", async () => {
  await withWorkspace(async (ws) => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    await Deno.writeTextFile(join(ws, "a.txt"), lines.join("\n") + "\n");
    const t = tools(ws);
    const r = await t.EditFile.execute({
      path: "a.txt",
      oldText: "line 10\n",
      newText: "line ten\nline ten and a half\n",
    });
    assert.equal(r.path, "a.txt");
    assert.equal(r.replacements, 1);
    assert.equal(
      r.diff,
      [
        "--- a.txt",
        "+++ a.txt",
        "@@ -7,7 +7,8 @@",
        " line 7",
        " line 8",
        " line 9",
        "-line 10",
        "+line ten",
        "+line ten and a half",
        " line 11",
        " line 12",
        " line 13",
        "",
      ].join("\n"),
    );
    assert.match(t.EditFile.toModelText(r), /1 replacement \(\+2 -1 lines\)/);
    const expected = [
      ...lines.slice(0, 9),
      "line ten",
      "line ten and a half",
      ...lines.slice(10),
    ];
    assert.equal(
      await Deno.readTextFile(join(ws, "a.txt")),
      expected.join("\n") + "\n",
    );
  });
});

Deno.test("editFile() inserts $&, $1 and $$ as typed", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "price: X (X)\n");
    assert.equal(
      await editThenRead(tools(ws), ws, {
        path: "a.txt",
        oldText: "X",
        newText: "$& $1 $$ $` $'",
        replaceAll: true,
      }),
      "price: $& $1 $$ $` $' ($& $1 $$ $` $')\n",
    );
  });
});

Deno.test("editFile() lists the count and lines of several matches unless replaceAll", async () => {
  await withWorkspace(async (ws) => {
    const text = "a = 1\nb = foo\nc = 2\nfoo()\n\nfoo foo\n";
    await Deno.writeTextFile(join(ws, "a.txt"), text);
    const t = tools(ws);
    const message = await toolErrorMessage(
      t.EditFile.execute({ path: "a.txt", oldText: "foo", newText: "bar" }),
    );
    assert.match(
      message,
      /^Cannot edit "a.txt": oldText matches 4 places \(lines 2, 4, 6 \(2 times\)\)/,
    );
    assert.match(message, /replaceAll/);
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), text);
    const r = await t.EditFile.execute({
      path: "a.txt",
      oldText: "foo",
      newText: "bar",
      replaceAll: true,
    });
    assert.equal(r.replacements, 4);
    assert.equal(
      await Deno.readTextFile(join(ws, "a.txt")),
      "a = 1\nb = bar\nc = 2\nbar()\n\nbar bar\n",
    );
  });
});

Deno.test("editFile() shows the closest region when oldText is not found", async () => {
  await withWorkspace(async (ws) => {
    const text = [
      "function add(a, b) {",
      "    return a + b;",
      "}",
      "",
      "function greet(name) {",
      "  console.log(`hello ${name}`);",
      "}",
      "",
    ].join("\n");
    await Deno.writeTextFile(join(ws, "a.js"), text);
    const t = tools(ws);
    const spacing = await toolErrorMessage(t.EditFile.execute({
      path: "a.js",
      oldText: "function add(a,b) {\n  return a + b;\n}",
      newText: "x",
    }));
    assert.match(
      spacing,
      /oldText was not found; lines 1-3 hold the same text/,
    );
    assert.match(spacing, /only in whitespace/);
    assert.match(
      spacing,
      /\n1\tfunction add\(a, b\) \{\n2\t {4}return a \+ b;\n3\t\}\n/,
    );
    const typo = await toolErrorMessage(t.EditFile.execute({
      path: "a.js",
      oldText: "  console.log(`helo ${nme}`);",
      newText: "x",
    }));
    assert.match(typo, /the closest text is at line 6/);
    assert.ok(typo.includes("6\t  console.log"));
    const nothing = await toolErrorMessage(t.EditFile.execute({
      path: "a.js",
      oldText: "SELECT * FROM users WHERE id = 1",
      newText: "x",
    }));
    assert.match(nothing, /nothing similar/);
    assert.equal(await Deno.readTextFile(join(ws, "a.js")), text);
  });
});

Deno.test("editFile() says when only line endings differ in a mixed file", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "one\ntwo\r\nthree\n");
    const message = await toolErrorMessage(
      tools(ws).EditFile.execute({
        path: "a.txt",
        oldText: "two\nthree",
        newText: "x",
      }),
    );
    assert.match(
      message,
      /lines 2-3 hold the same text and differ only in line endings/,
    );
  });
});

Deno.test("editFile() refuses empty oldText and oldText equal to newText", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "abc\n");
    const t = tools(ws);
    assert.match(
      await toolErrorMessage(
        t.EditFile.execute({ path: "a.txt", oldText: "", newText: "x" }),
      ),
      /oldText is empty/,
    );
    assert.match(
      await toolErrorMessage(
        t.EditFile.execute({ path: "a.txt", oldText: "abc", newText: "abc" }),
      ),
      /the same/,
    );
    assert.match(
      await toolErrorMessage(
        t.EditFile.execute({ path: "nope.txt", oldText: "a", newText: "b" }),
      ),
      /^Cannot edit "nope.txt": no such file/,
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "abc\n");
  });
});

Deno.test("editFile() keeps CRLF line endings", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "one\r\ntwo\r\nthree\r\n");
    const t = tools(ws);
    assert.equal(
      await editThenRead(t, ws, {
        path: "a.txt",
        oldText: "one\ntwo\n",
        newText: "1\n2\n2.5\n",
      }),
      "1\r\n2\r\n2.5\r\nthree\r\n",
    );
    assert.equal(
      await editThenRead(t, ws, {
        path: "a.txt",
        oldText: "three",
        newText: "3\n4",
      }),
      "1\r\n2\r\n2.5\r\n3\r\n4\r\n",
    );
  });
});

Deno.test("editFile() keeps the BOM, the final newline or its absence, and other bytes", async () => {
  await withWorkspace(async (ws) => {
    const bom = [0xef, 0xbb, 0xbf];
    const body = "héllo\tworld\nkeep  this\u00a0line\nend";
    await Deno.writeFile(
      join(ws, "a.txt"),
      new Uint8Array([...bom, ...new TextEncoder().encode(body)]),
    );
    await tools(ws).EditFile.execute({
      path: "a.txt",
      oldText: "world",
      newText: "wörld",
    });
    const bytes = await Deno.readFile(join(ws, "a.txt"));
    assert.deepEqual([...bytes.subarray(0, 3)], bom);
    assert.equal(
      new TextDecoder().decode(bytes.subarray(3)),
      "héllo\twörld\nkeep  this\u00a0line\nend",
    );
  });
});

Deno.test("editFile() edits UTF-16 files in UTF-16", async () => {
  await withWorkspace(async (ws) => {
    const encode = (text: string) => {
      const out = [0xff, 0xfe];
      for (const ch of text) {
        out.push(ch.charCodeAt(0) & 0xff, ch.charCodeAt(0) >> 8);
      }
      return new Uint8Array(out);
    };
    await Deno.writeFile(join(ws, "a.txt"), encode("alpha\r\nbeta\r\n"));
    await tools(ws).EditFile.execute({
      path: "a.txt",
      oldText: "beta\n",
      newText: "gamma\n",
    });
    assert.deepEqual(
      await Deno.readFile(join(ws, "a.txt")),
      encode("alpha\r\ngamma\r\n"),
    );
  });
});

Deno.test("editFile() refuses binary and invalid UTF-8 files, leaving them untouched", async () => {
  await withWorkspace(async (ws) => {
    const invalid = new Uint8Array([0x61, 0x62, 0xff, 0x63, 0x0a]);
    await Deno.writeFile(join(ws, "bad.txt"), invalid);
    await Deno.writeFile(join(ws, "a.bin"), new Uint8Array([0x61, 0, 0x62]));
    const t = tools(ws);
    assert.match(
      await toolErrorMessage(
        t.EditFile.execute({ path: "bad.txt", oldText: "a", newText: "b" }),
      ),
      /not valid UTF-8/,
    );
    assert.match(
      await toolErrorMessage(
        t.EditFile.execute({ path: "a.bin", oldText: "a", newText: "b" }),
      ),
      /binary/,
    );
    assert.deepEqual(await Deno.readFile(join(ws, "bad.txt")), invalid);
  });
});

Deno.test("editFile() lands 20 concurrent edits of one file", async () => {
  await withWorkspace(async (ws) => {
    const markers = Array.from({ length: 20 }, (_, i) => `<marker ${i}>`);
    await Deno.writeTextFile(
      join(ws, "a.txt"),
      markers.join("\nfiller\n") + "\n",
    );
    const t = tools(ws);
    const results = await Promise.all(
      markers.map((marker, i) =>
        t.EditFile.execute({
          path: "a.txt",
          oldText: marker,
          newText: `<done ${i}>`,
        })
      ),
    );
    assert.ok(results.every((r) => r.replacements === 1));
    const text = await Deno.readTextFile(join(ws, "a.txt"));
    for (let i = 0; i < 20; i++) {
      assert.ok(text.includes(`<done ${i}>`), `edit ${i}`);
    }
    assert.ok(!text.includes("<marker"));
  });
});

Deno.test("editFile() diffs separated replaceAll matches as separate hunks", async () => {
  await withWorkspace(async (ws) => {
    const lines = Array.from(
      { length: 40 },
      (_, i) => (i === 5 || i === 30 ? "old" : `l${i}`),
    );
    await Deno.writeTextFile(join(ws, "a.txt"), lines.join("\n"));
    const r = await tools(ws).EditFile.execute({
      path: "a.txt",
      oldText: "old",
      newText: "new\nextra",
      replaceAll: true,
    });
    const headers = r.diff.split("\n").filter((l) => l.startsWith("@@"));
    assert.deepEqual(headers, ["@@ -3,7 +3,8 @@", "@@ -28,7 +29,8 @@"]);
  });
});

Deno.test("editFile() diffs a replaceAll over thousands of lines quickly, and the diff applies", async () => {
  await withWorkspace(async (ws) => {
    // Every line changes: a search for the shortest diff costs lines ×
    // changes (minutes here), so the hunk is written from the edit instead.
    const text = "let x = 1;\n".repeat(12_000) + "x";
    await Deno.writeTextFile(join(ws, "a.ts"), text);
    const started = performance.now();
    const r = await tools(ws).EditFile.execute({
      path: "a.ts",
      oldText: "x",
      newText: "y",
      replaceAll: true,
    });
    assert.ok(performance.now() - started < 10_000); // generous: no hang
    assert.equal(r.replacements, 12_001);
    assert.equal(applyPatch(text, r.diff), text.replaceAll("x", "y"));
    assert.ok(r.diff.endsWith("+y\n\\ No newline at end of file\n"));
  });
});

Deno.test("editFile() splices ASCII files with a BOM byte for byte", async () => {
  await withWorkspace(async (ws) => {
    const bom = [0xef, 0xbb, 0xbf];
    const body = "a-long-name = 1\r\nb = a-long-name\r\nc = 3";
    await Deno.writeFile(
      join(ws, "a.txt"),
      new Uint8Array([...bom, ...new TextEncoder().encode(body)]),
    );
    const t = tools(ws);
    const r = await t.EditFile.execute({
      path: "a.txt",
      oldText: "a-long-name",
      newText: "x",
      replaceAll: true,
    });
    assert.equal(r.replacements, 2);
    const after = await Deno.readFile(join(ws, "a.txt"));
    assert.deepEqual(
      after,
      new Uint8Array([
        ...bom,
        ...new TextEncoder().encode("x = 1\r\nb = x\r\nc = 3"),
      ]),
    );
  });
});

Deno.test("editFile() edits a valid file that contains U+FFFD itself", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "keep \uFFFD here\nold\n");
    assert.equal(
      await editThenRead(tools(ws), ws, {
        path: "a.txt",
        oldText: "old",
        newText: "new",
      }),
      "keep \uFFFD here\nnew\n",
    );
  });
});

Deno.test("editFile() refuses a huge match count without replaceAll after counting a bounded number", async () => {
  await withWorkspace(async (ws) => {
    const text = "x\n".repeat(30_000);
    await Deno.writeTextFile(join(ws, "a.txt"), text);
    await assert.rejects(
      tools(ws).EditFile.execute({ path: "a.txt", oldText: "x", newText: "y" }),
      /^ToolError: Cannot edit "a.txt": oldText matches at least 10000 places \(lines 1, 2, .* and more\); .* replace every one$/,
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), text);
  });
});

Deno.test("editFile() neither reads nor writes a file swapped for a symlink while its approval was pending", async () => {
  await withDirs(async ({ ws, out }) => {
    const outside = join(out, "o.txt");
    await Deno.writeTextFile(outside, "ORIGINAL\n");
    const file = join(ws, "a.txt");
    await Deno.writeTextFile(file, "ORIGINAL\n");
    const t = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: swapThenApprove(file, outside),
    });
    const message = await toolErrorMessage(
      t.EditFile.execute({ path: "a.txt", oldText: "ORIG", newText: "X" }),
    );
    assert.match(
      message,
      /^Did not edit "a\.txt": it changed while the call waited and now leads to ".*o\.txt" \(outside the workspace\)/,
    );
    assert.equal(await Deno.readTextFile(outside), "ORIGINAL\n");
  });
});

Deno.test("editFile() matches literally: $&, $1, $$, $' and $` inserted as typed, a.c no regex", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(join(ws, "p.txt"), "price: X\npattern a.c abc\n");
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const r = await tools.EditFile.execute({
      path: "p.txt",
      oldText: "X",
      newText: "$& $1 $$ $' $`",
    });
    assert.equal(r.replacements, 1);
    assert.equal(typeof r.path, "string");
    const dot = await tools.EditFile.execute({
      path: "p.txt",
      oldText: "a.c",
      newText: "A.C",
      replaceAll: true,
    });
    assert.equal(dot.replacements, 1, "a.c is not a regex");
    assert.equal(
      await Deno.readTextFile(join(ws, "p.txt")),
      "price: $& $1 $$ $' $`\npattern A.C abc\n",
    );
  });
});

Deno.test("editFile() without replaceAll names every matching line and leaves the file; with it replaces all three", async () => {
  await withDirs(async ({ ws }) => {
    const lines = Array.from({ length: 12 }, (_, i) => `row ${i + 1}`);
    lines[1] = lines[6] = lines[10] = "TODO fix";
    const text = lines.join("\n") + "\n";
    await Deno.writeTextFile(join(ws, "t.txt"), text);
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const error = await rejectsTool(
      tools.EditFile.execute({
        path: "t.txt",
        oldText: "TODO fix",
        newText: "done",
      }),
      "t.txt",
      /\b3\b/,
      /\b2\b/,
      /\b7\b/,
      /\b11\b/,
    );
    assert.ok(error.message.includes("replaceAll"), error.message);
    assert.equal(
      await Deno.readTextFile(join(ws, "t.txt")),
      text,
      "untouched after the error",
    );
    const r = await tools.EditFile.execute({
      path: "t.txt",
      oldText: "TODO fix",
      newText: "done",
      replaceAll: true,
    });
    assert.equal(r.replacements, 3);
    assert.equal(
      await Deno.readTextFile(join(ws, "t.txt")),
      text.replaceAll("TODO fix", "done"),
    );
  });
});

Deno.test("editFile() no match shows the closest region's line and names a whitespace difference", async () => {
  await withDirs(async ({ ws }) => {
    const text =
      "function a() {\n  return 1;\n}\n\nfunction b() {\n    const total = 2;\n  return total;\n}\n";
    await Deno.writeTextFile(join(ws, "c.ts"), text);
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const ws1 = await rejectsTool(
      tools.EditFile.execute({
        path: "c.ts",
        oldText: "const total = 2;\n    return total;",
        newText: "x",
      }),
      "c.ts",
      /\b6\b/,
      "const total",
    );
    assert.match(ws1.message, /whitespace|indent/i);
    const near = await rejectsTool(
      tools.EditFile.execute({
        path: "c.ts",
        oldText: "const totl = 2;",
        newText: "x",
      }),
      "c.ts",
      /\b6\b/,
    );
    assert.ok(near.message.includes("const total = 2;"), near.message);
    assert.equal(await Deno.readTextFile(join(ws, "c.ts")), text);
  });
});

Deno.test("editFile() names the file for oldText equal to newText, empty oldText and a missing file", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(join(ws, "s.txt"), "same\n");
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    await rejectsTool(
      tools.EditFile.execute({
        path: "s.txt",
        oldText: "same",
        newText: "same",
      }),
      "s.txt",
    );
    await rejectsTool(
      tools.EditFile.execute({ path: "s.txt", oldText: "", newText: "x" }),
      "s.txt",
    );
    await rejectsTool(
      tools.EditFile.execute({ path: "nope.txt", oldText: "a", newText: "b" }),
      "nope.txt",
    );
    assert.equal(await Deno.readTextFile(join(ws, "s.txt")), "same\n");
  });
});

Deno.test("editFile() writes CRLF into a CRLF file from LF text, and keeps a BOM and the final newline or its absence", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    await Deno.writeTextFile(join(ws, "crlf.txt"), "one\r\ntwo\r\nthree\r\n");
    assert.equal(
      await editThenRead(tools, ws, {
        path: "crlf.txt",
        oldText: "one\ntwo",
        newText: "uno\ndos\nplus",
      }),
      "uno\r\ndos\r\nplus\r\nthree\r\n",
    );

    const bom = [0xef, 0xbb, 0xbf];
    await Deno.writeFile(
      join(ws, "bom.txt"),
      new Uint8Array([...bom, ...new TextEncoder().encode("hello world\n")]),
    );
    await tools.EditFile.execute({
      path: "bom.txt",
      oldText: "world",
      newText: "there",
    });
    assert.deepEqual(
      await Deno.readFile(join(ws, "bom.txt")),
      new Uint8Array([...bom, ...new TextEncoder().encode("hello there\n")]),
    );

    await Deno.writeTextFile(join(ws, "nofinal.txt"), "a\nb");
    await tools.EditFile.execute({
      path: "nofinal.txt",
      oldText: "b",
      newText: "c",
    });
    assert.equal(await Deno.readTextFile(join(ws, "nofinal.txt")), "a\nc");
    await Deno.writeTextFile(join(ws, "final.txt"), "a\nb\n");
    await tools.EditFile.execute({
      path: "final.txt",
      oldText: "b",
      newText: "c",
    });
    assert.equal(await Deno.readTextFile(join(ws, "final.txt")), "a\nc\n");
  });
});

Deno.test("editFile() leaves mixed line endings and whitespace outside the edit unchanged", async () => {
  await withDirs(async ({ ws }) => {
    const before = "head\t  \nmixed\r\nlf only\nTARGET here\n\ttail  \r\n\n";
    await Deno.writeTextFile(join(ws, "b.txt"), before);
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    assert.equal(
      await editThenRead(tools, ws, {
        path: "b.txt",
        oldText: "TARGET",
        newText: "goal",
      }),
      before.replace("TARGET", "goal"),
    );
  });
});

Deno.test("editFile() returns a unified diff with context lines", async () => {
  await withDirs(async ({ ws }) => {
    await Deno.writeTextFile(
      join(ws, "d.ts"),
      "const a = 0;\nconst x = 1;\nconst b = 2;\n",
    );
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const r = await tools.EditFile.execute({
      path: "d.ts",
      oldText: "x = 1",
      newText: "x = 42",
    });
    assert.match(r.diff, /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m);
    assert.match(r.diff, /^-const x = 1;$/m);
    assert.match(r.diff, /^\+const x = 42;$/m);
    assert.match(r.diff, /^ const a = 0;$/m);
    assert.match(r.diff, /^ const b = 2;$/m);
    assert.equal(typeof tools.EditFile.toModelText(r), "string");
  });
});

Deno.test("editFile() lands 20 concurrent edits on distinct markers of one file", async () => {
  await withDirs(async ({ ws }) => {
    const text = Array.from({ length: 20 }, (_, i) =>
      `marker-${i}-end`).join("\n") + "\n";
    await Deno.writeTextFile(join(ws, "many.txt"), text);
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const results = await Promise.all(
      Array.from(
        { length: 20 },
        (_, i) =>
          tools.EditFile.execute({
            path: "many.txt",
            oldText: `marker-${i}-end`,
            newText: `done-${i}`,
          }),
      ),
    );
    assert.ok(results.every((r) => r.replacements === 1));
    assert.equal(
      await Deno.readTextFile(join(ws, "many.txt")),
      Array.from({ length: 20 }, (_, i) => `done-${i}`).join("\n") + "\n",
    );
  });
});

Deno.test("editFile() refuses an oldText found at two overlapping places without replaceAll", async () => {
  await withWorkspace(async (ws) => {
    const before = "  }\n  }\n  }\n";
    await Deno.writeTextFile(join(ws, "a.ts"), before);
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    await assert.rejects(
      tools.EditFile.execute({
        path: "a.ts",
        oldText: "  }\n  }",
        newText: "  }\n  };",
      }),
      // Refused as several matches, pointing at replaceAll or more context.
      (error: unknown) =>
        error instanceof ToolError &&
        /oldText matches 2 overlapping places \(lines 1, 2\).*replaceAll/
          .test(error.message),
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.ts")), before);
  });
});

Deno.test("editFile() errors for no match and for two matches say what to do, file untouched", async () => {
  await withWorkspace(async (ws) => {
    const before = "const a = 1;\nconst b = 1;\n";
    await Deno.writeTextFile(join(ws, "e.ts"), before);
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    await assert.rejects(
      tools.EditFile.execute({ path: "e.ts", oldText: "= 1", newText: "= 2" }),
      /oldText matches 2 places \(lines 1, 2\).*replaceAll: true/,
    );
    // Exact, not a regex: "a = ." does not match "a = 1".
    await assert.rejects(
      tools.EditFile.execute({ path: "e.ts", oldText: "a = .", newText: "x" }),
      /oldText was not found/,
    );
    assert.equal(await Deno.readTextFile(join(ws, "e.ts")), before);
    const all = await tools.EditFile.execute({
      path: "e.ts",
      oldText: "= 1",
      newText: "= 2",
      replaceAll: true,
    });
    assert.equal(all.replacements, 2);
    assert.equal(
      await Deno.readTextFile(join(ws, "e.ts")),
      "const a = 2;\nconst b = 2;\n",
    );
  });
});

Deno.test("editFile() keeps LF in a literally matched region of a file whose first line is CRLF", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "mixed.txt"), "a\r\nb\nc\nd\n");
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    assert.equal(
      await editThenRead(tools, ws, {
        path: "mixed.txt",
        oldText: "c\nd",
        newText: "C\nD",
      }),
      "a\r\nb\nC\nD\n",
    );
  });
});

Deno.test("editFile() lands 20 concurrent edits of one file through a symlinked folder and its real folder", async () => {
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "pkg"));
    await Deno.symlink(join(ws, "pkg"), join(ws, "link"));
    const n = 20;
    const markers = Array.from(
      { length: n },
      (_, i) => `m${String(i).padStart(2, "0")}`,
    );
    await Deno.writeTextFile(join(ws, "pkg", "a.txt"), markers.join("\n"));
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const results = await Promise.all(
      markers.map((marker, i) =>
        tools.EditFile.execute({
          path: `${i % 2 === 0 ? "pkg" : "link"}/a.txt`,
          oldText: marker,
          newText: marker.toUpperCase(),
        })
      ),
    );
    assert.equal(results.length, n); // every call reported success
    assert.equal(
      await Deno.readTextFile(join(ws, "pkg", "a.txt")),
      markers.map((marker) => marker.toUpperCase()).join("\n"),
    );
  });
});

Deno.test("editFile() model text stays bounded for a replaceAll on every line", async () => {
  await withWorkspace(async (ws) => {
    const lines = Array.from({ length: 20_000 }, (_, i) => `row ${i} foo`);
    await Deno.writeTextFile(join(ws, "data.txt"), `${lines.join("\n")}\n`);
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const result = await tools.EditFile.execute({
      path: "data.txt",
      oldText: "foo",
      newText: "bar",
      replaceAll: true,
    });
    assert.equal(result.replacements, 20_000);
    const text = tools.EditFile.toModelText(result);
    assert.ok(text.length <= 102_400, `model text: ${text.length} chars`);
  });
});

Deno.test("editFile() whose oldText is not in the file fails without asking approve", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "hello\n");
    const asked: string[] = [];
    const tools = createTools({
      cwd: ws,
      permissionMode: "ask",
      approve: (request) => {
        asked.push(request.description);
        return true;
      },
    });
    await assert.rejects(
      tools.EditFile.execute({
        path: "a.txt",
        oldText: "helo",
        newText: "bye",
      }),
      (error: unknown) =>
        error instanceof ToolError && /not found/.test(error.message),
    );
    assert.deepEqual(asked, []);
  });
});

Deno.test("editFile() of two createTools instances on one workspace lands every concurrent edit of one file reported as done", async () => {
  await withWorkspace(async (dir) => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i} mark${i}`);
    await Deno.writeTextFile(join(dir, "a.txt"), `${lines.join("\n")}\n`);
    const one = createTools({ cwd: dir, permissionMode: "allow" });
    const two = createTools({ cwd: dir, permissionMode: "allow" });
    const results = await Promise.allSettled(
      lines.map((_, i) =>
        (i % 2 === 0 ? one : two).EditFile.execute({
          path: "a.txt",
          oldText: `mark${i}\n`,
          newText: `EDITED${i}\n`,
        })
      ),
    );
    const reported = results.filter((r) => r.status === "fulfilled").length;
    const text = await Deno.readTextFile(join(dir, "a.txt"));
    const landed = lines.filter((_, i) => text.includes(`EDITED${i}\n`));
    assert.equal(reported, 40, "every edit can apply");
    assert.equal(
      landed.length,
      reported,
      `${reported} edits reported done, ${landed.length} in the file`,
    );
  });
});

Deno.test("editFile() replaceAll on a 5 MB file keeps memory near the file's size", async () => {
  await withWorkspace(async (dir) => {
    let text = "";
    for (let i = 0; i < 250_000; i++) text += `line ${i} foo here\n`;
    await Deno.writeTextFile(join(dir, "many.txt"), text);
    const { result, peak } = await childPeak(
      `import { createTools } from "${MOD}";
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const r = await tools.EditFile.execute({ path: "many.txt", oldText: "foo", newText: "bar", replaceAll: true });
(globalThis as Record<string, unknown>).result = { replacements: r.replacements, diff: r.diff.length };`,
      [dir],
    );
    const { replacements } = result as { replacements: number };
    assert.equal(replacements, 250_000);
    const edited = await Deno.readTextFile(join(dir, "many.txt"));
    assert.equal(edited, text.replaceAll("foo", "bar"));
    assert.ok(
      peak < 200 * MB,
      `peak RSS ${Math.round(peak / MB)} MB to edit a 5 MB file`,
    );
  });
});

Deno.test("editFile() refuses an edit whose result passes its 256 MB limit", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "big.txt");
    const text = "a e b e c e\n".repeat(200_000); // 600 000 "e"
    await Deno.writeTextFile(path, text);
    const tools = createTools({ cwd: dir, permissionMode: "allow" });
    await assert.rejects(
      tools.EditFile.execute({
        path: "big.txt",
        oldText: "e",
        newText: "E".repeat(500),
        replaceAll: true,
      }),
      /Cannot edit "big\.txt".*(MB|bytes)/,
    );
    assert.equal((await Deno.stat(path)).size, text.length);
  });
});
