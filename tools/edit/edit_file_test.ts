import assert from "node:assert/strict";
import { join } from "node:path";
import { applyPatch } from "diff";
import { createTools, ToolError } from "../../mod.ts";
import { withDirs, withWorkspace } from "../../tests/support/workspace.ts";

function tools(ws: string) {
  return createTools({ cwd: ws, permissionMode: "allow" });
}

async function editError(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail("expected a ToolError"),
    (e) => e,
  );
  assert.ok(error instanceof ToolError, `not a ToolError: ${error}`);
  return error.message;
}

Deno.test("editFile() replaces one match and returns a unified diff", async () => {
  await withWorkspace(async (ws) => {
    const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
    await Deno.writeTextFile(join(ws, "a.ts"), lines.join("\n") + "\n");
    const t = tools(ws);
    const r = await t.EditFile.execute({
      path: "a.ts",
      oldText: "line 10\n",
      newText: "line ten\nline ten and a half\n",
    });
    assert.equal(r.path, "a.ts");
    assert.equal(r.replacements, 1);
    assert.equal(
      r.diff,
      [
        "--- a.ts",
        "+++ a.ts",
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
      await Deno.readTextFile(join(ws, "a.ts")),
      expected.join("\n") + "\n",
    );
  });
});

Deno.test("editFile() inserts $&, $1 and $$ as typed", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "price: X (X)\n");
    await tools(ws).EditFile.execute({
      path: "a.txt",
      oldText: "X",
      newText: "$& $1 $$ $` $'",
      replaceAll: true,
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.txt")),
      "price: $& $1 $$ $` $' ($& $1 $$ $` $')\n",
    );
  });
});

Deno.test("editFile() lists the count and lines of several matches unless replaceAll", async () => {
  await withWorkspace(async (ws) => {
    const text = "a = 1\nb = foo\nc = 2\nfoo()\n\nfoo foo\n";
    await Deno.writeTextFile(join(ws, "a.txt"), text);
    const t = tools(ws);
    const message = await editError(
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
    const spacing = await editError(t.EditFile.execute({
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
    const typo = await editError(t.EditFile.execute({
      path: "a.js",
      oldText: "  console.log(`helo ${nme}`);",
      newText: "x",
    }));
    assert.match(typo, /the closest text is at line 6/);
    assert.ok(typo.includes("6\t  console.log"));
    const nothing = await editError(t.EditFile.execute({
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
    const message = await editError(
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
      await editError(
        t.EditFile.execute({ path: "a.txt", oldText: "", newText: "x" }),
      ),
      /oldText is empty/,
    );
    assert.match(
      await editError(
        t.EditFile.execute({ path: "a.txt", oldText: "abc", newText: "abc" }),
      ),
      /the same/,
    );
    assert.match(
      await editError(
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
    await t.EditFile.execute({
      path: "a.txt",
      oldText: "one\ntwo\n",
      newText: "1\n2\n2.5\n",
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.txt")),
      "1\r\n2\r\n2.5\r\nthree\r\n",
    );
    await t.EditFile.execute({
      path: "a.txt",
      oldText: "three",
      newText: "3\n4",
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.txt")),
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
      await editError(
        t.EditFile.execute({ path: "bad.txt", oldText: "a", newText: "b" }),
      ),
      /not valid UTF-8/,
    );
    assert.match(
      await editError(
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
    await tools(ws).EditFile.execute({
      path: "a.txt",
      oldText: "old",
      newText: "new",
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.txt")),
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
      approve: async () => {
        await Deno.remove(file);
        await Deno.symlink(outside, file);
        return true;
      },
    });
    const message = await editError(
      t.EditFile.execute({ path: "a.txt", oldText: "ORIG", newText: "X" }),
    );
    assert.match(
      message,
      /^Did not edit "a\.txt": it changed while the call waited and now leads to ".*o\.txt" \(outside the workspace\)/,
    );
    assert.equal(await Deno.readTextFile(outside), "ORIGINAL\n");
  });
});
