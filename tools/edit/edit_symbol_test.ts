import assert from "node:assert/strict";
import { join } from "node:path";
import { applyPatch } from "diff";
import { createLocalFiles, createTools, type FileBackend } from "../../mod.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";
import { toolErrorMessage } from "../../tests/support/tool_asserts.ts";

function tools(ws: string, files?: FileBackend) {
  return createTools({
    cwd: ws,
    permissionMode: "allow",
    ...(files ? { backend: { files } } : {}),
  });
}

const SOURCE = [
  'import { x } from "./x.ts";',
  "",
  "/**",
  " * Adds.",
  " */",
  "export function add(a: number): number {",
  "\treturn a + 1;",
  "}",
  "",
  "export class Box {",
  "  /** Opens it. */",
  "  open(): void {}",
  "}",
  "",
].join("\n");

Deno.test("editSymbol() replaces a symbol with its doc comment and answers the new range and a diff that applies", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.ts"), SOURCE);
    const result = await tools(ws).EditSymbol.execute({
      path: "a.ts",
      symbol: "add",
      newText:
        "/** Adds two. */\nexport function add(a: number): number {\n\treturn a + 2;\n}",
    });
    const after = await Deno.readTextFile(join(ws, "a.ts"));
    assert.equal(
      after,
      SOURCE.replace(
        "/**\n * Adds.\n */\nexport function add(a: number): number {\n\treturn a + 1;\n}\n",
        "/** Adds two. */\nexport function add(a: number): number {\n\treturn a + 2;\n}\n",
      ),
    );
    assert.deepEqual(result.symbol, {
      name: "add",
      kind: "function",
      startLine: 3,
      endLine: 6,
    });
    assert.equal(result.path, "a.ts");
    assert.equal(applyPatch(SOURCE, result.diff), after);
  });
});

Deno.test("editSymbol() inserts whole lines before the doc comment and after the end", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.ts"), SOURCE);
    const t = tools(ws);
    const before = await t.EditSymbol.execute({
      path: "a.ts",
      symbol: "Box.open",
      position: "before",
      newText: "  /** Closes it. */\n  close(): void {}\n",
    });
    assert.deepEqual(before.symbol, {
      name: "Box.open",
      kind: "method",
      startLine: 11,
      endLine: 12,
    });
    const after = await t.EditSymbol.execute({
      path: "a.ts",
      symbol: "Box",
      position: "after",
      newText: "\nexport const y = 1;",
    });
    assert.deepEqual(after.symbol, {
      name: "Box",
      kind: "class",
      startLine: 16,
      endLine: 17,
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.ts")),
      SOURCE.replace(
        "  /** Opens it. */",
        "  /** Closes it. */\n  close(): void {}\n  /** Opens it. */",
      ).replace(/\}\n$/, "}\n\nexport const y = 1;\n"),
    );
  });
});

Deno.test("editSymbol() keeps CRLF, the BOM and tabs byte for byte outside the edit", async () => {
  await withWorkspace(async (ws) => {
    const crlf = "\uFEFF" + SOURCE.replaceAll("\n", "\r\n");
    await Deno.writeTextFile(join(ws, "a.ts"), crlf);
    await tools(ws).EditSymbol.execute({
      path: "a.ts",
      symbol: "Box.open",
      newText: "  /** Opens it. */\n  open(): void {\n\t\tthis.x = 1;\n  }\n",
    });
    const bytes = await Deno.readFile(join(ws, "a.ts"));
    const expected = new TextEncoder().encode(
      crlf.replace(
        "  open(): void {}\r\n",
        "  open(): void {\r\n\t\tthis.x = 1;\r\n  }\r\n",
      ),
    );
    assert.deepEqual(bytes, expected);
  });
});

Deno.test("editSymbol() edits a UTF-16 file in UTF-16, and a last line without a newline stays without one", async () => {
  await withWorkspace(async (ws) => {
    const text = "package a\n\nfunc A() {}\n\nfunc B() {}";
    const bom = new Uint8Array([0xff, 0xfe]);
    const encode = (s: string) => {
      const out = new Uint8Array(2 + s.length * 2);
      out.set(bom);
      for (let i = 0; i < s.length; i++) {
        out[2 + 2 * i] = s.charCodeAt(i);
      }
      return out;
    };
    await Deno.writeFile(join(ws, "a.go"), encode(text));
    await tools(ws).EditSymbol.execute({
      path: "a.go",
      symbol: "B",
      newText: "func B() int { return 1 }\n",
    });
    assert.deepEqual(
      await Deno.readFile(join(ws, "a.go")),
      encode("package a\n\nfunc A() {}\n\nfunc B() int { return 1 }"),
    );
  });
});

Deno.test("editSymbol() failures name the file, say what to do and leave it byte-identical", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.ts"), SOURCE);
    await Deno.writeTextFile(join(ws, "a.txt"), "text\n");
    const t = tools(ws);
    assert.match(
      await toolErrorMessage(t.EditSymbol.execute({
        path: "a.ts",
        symbol: "Box.opn",
        newText: "x",
      })),
      /^Cannot edit "a\.ts": no symbol is named "Box\.opn"; the nearest names are method Box\.open \(lines 12-12\)/,
    );
    assert.match(
      await toolErrorMessage(t.EditSymbol.execute({
        path: "a.ts",
        symbol: "add",
        newText:
          "/**\n * Adds.\n */\nexport function add(a: number): number {\n\treturn a + 1;\n}\n",
      })),
      /^Cannot edit "a\.ts": newText is the text of function add as it is, so nothing would change/,
    );
    assert.match(
      await toolErrorMessage(t.EditSymbol.execute({
        path: "a.ts",
        symbol: "add",
        position: "after",
        newText: "",
      })),
      /^Cannot edit "a\.ts": newText is empty, so there is nothing to insert after add/,
    );
    assert.match(
      await toolErrorMessage(t.EditSymbol.execute({
        path: "a.txt",
        symbol: "text",
        newText: "x",
      })),
      /^Cannot edit "a\.txt" by symbol: its file type has no outline \(supported extensions: \.ts/,
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.ts")), SOURCE);
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "text\n");
  });
});

// A backend whose first write finds the file changed by someone else: the
// change `meanwhile` makes lands on disk just before that write.
function changedBeforeFirstWrite(
  meanwhile: (path: string) => Promise<void>,
): FileBackend {
  const local = createLocalFiles();
  let first = true;
  return {
    stat: (path) => local.stat(path),
    open: (path) => local.open(path),
    readDir: (path) => local.readDir(path),
    async writeFile(path, data, options) {
      if (first) {
        first = false;
        await meanwhile(path);
      }
      await local.writeFile(path, data, options);
    },
  };
}

Deno.test("editSymbol() re-applies to a file changed on disk when the symbol's text is the same, else refuses", async () => {
  await withWorkspace(async (ws) => {
    const path = join(ws, "a.ts");
    await Deno.writeTextFile(path, SOURCE);
    // Someone adds a line at the top: the symbol moves, its text stays.
    const moved = changedBeforeFirstWrite(async (file) => {
      await Deno.writeTextFile(file, "// added\n" + SOURCE);
    });
    const result = await tools(ws, moved).EditSymbol.execute({
      path: "a.ts",
      symbol: "Box.open",
      newText: "  open(): void { /* now */ }\n",
    });
    assert.equal(
      await Deno.readTextFile(path),
      "// added\n" +
        SOURCE.replace(
          "  /** Opens it. */\n  open(): void {}\n",
          "  open(): void { /* now */ }\n",
        ),
    );
    assert.deepEqual(result.symbol, {
      name: "Box.open",
      kind: "method",
      startLine: 12,
      endLine: 12,
    });

    // Someone changes the symbol itself: nothing is written over it.
    await Deno.writeTextFile(path, SOURCE);
    const rewritten = SOURCE.replace(
      "open(): void {}",
      "open(): number { return 1; }",
    );
    const changed = changedBeforeFirstWrite(async (file) => {
      await Deno.writeTextFile(file, rewritten);
    });
    assert.equal(
      await toolErrorMessage(
        tools(ws, changed).EditSymbol.execute({
          path: "a.ts",
          symbol: "Box.open",
          newText: "  open(): void { /* now */ }\n",
        }),
      ),
      'Cannot edit "a.ts": it changed on disk while the edit was prepared; read it again',
    );
    assert.equal(await Deno.readTextFile(path), rewritten);
  });
});

Deno.test("editSymbol() removes a symbol given an empty newText", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.ts"), SOURCE);
    const result = await tools(ws).EditSymbol.execute({
      path: "a.ts",
      symbol: "add",
      newText: "",
    });
    assert.deepEqual(result.symbol, {
      name: "add",
      kind: "function",
      startLine: 3,
      endLine: 2,
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.ts")),
      SOURCE.replace(/\/\*\*\n \* Adds[^]*?\n\}\n/, ""),
    );
    assert.match(
      tools(ws).EditSymbol.toModelText(result),
      /^Edited "a\.ts": function add \(removed\)\.\n--- a\.ts/,
    );
  });
});

Deno.test("editSymbol() is allowed by an EditSymbol(src/**) rule and asks elsewhere", async () => {
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "src"));
    await Deno.writeTextFile(join(ws, "src/a.ts"), SOURCE);
    await Deno.writeTextFile(join(ws, "b.ts"), SOURCE);
    const asked: string[] = [];
    const t = createTools({
      cwd: ws,
      permissionMode: "ask",
      permissions: { allow: ["EditSymbol(src/**)"] },
      approve: (request) => {
        asked.push(request.description);
        return Promise.resolve(false);
      },
    });
    const input = { symbol: "Box.open", newText: "  open(): void { }\n" };
    await t.EditSymbol.execute({ path: "src/a.ts", ...input });
    assert.deepEqual(asked, []);
    assert.match(
      await toolErrorMessage(t.EditSymbol.execute({ path: "b.ts", ...input })),
      /b\.ts/,
    );
    assert.deepEqual(asked, ['Edit Box.open in "b.ts"']);
    assert.equal(await Deno.readTextFile(join(ws, "b.ts")), SOURCE);
  });
});

Deno.test("editSymbol() refuses a symbol that shares its lines with another, and edits a Python class's last method", async () => {
  await withWorkspace(async (ws) => {
    const go = "package a\n\ntype Server struct{ port int }\n";
    await Deno.writeTextFile(join(ws, "a.go"), go);
    const py = "class A:\n    def f(self):\n        pass\n";
    await Deno.writeTextFile(join(ws, "a.py"), py);
    const t = tools(ws);
    assert.equal(
      await toolErrorMessage(t.EditSymbol.execute({
        path: "a.go",
        symbol: "Server.port",
        newText: "\tport string\n",
      })),
      'Cannot edit "a.go": field Server.port shares its lines (3-3) with type Server (lines 3-3), and EditSymbol replaces whole lines; use EditFile for this change',
    );
    assert.equal(await Deno.readTextFile(join(ws, "a.go")), go);
    await t.EditSymbol.execute({
      path: "a.py",
      symbol: "A.f",
      newText: "    def f(self):\n        return 1\n",
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.py")),
      "class A:\n    def f(self):\n        return 1\n",
    );
  });
});

Deno.test("editSymbol() lands 10 concurrent edits of one file in the order they started", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.go"), "package a\n\nfunc F0() {}\n");
    const t = tools(ws);
    // Each inserts after the one before it, found by name in what the
    // earlier calls wrote.
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        t.EditSymbol.execute({
          path: "a.go",
          symbol: `F${i}`,
          position: "after",
          newText: `func F${i + 1}() {}\n`,
        })),
    );
    const names = Array.from({ length: 11 }, (_, i) => `func F${i}() {}\n`);
    assert.equal(
      await Deno.readTextFile(join(ws, "a.go")),
      `package a\n\n${names.join("")}`,
    );
  });
});

Deno.test("editSymbol() refuses a replacement that adds a syntax error, leaving the file byte-identical, and writes it with allowSyntaxErrors", async () => {
  await withWorkspace(async (ws) => {
    const path = join(ws, "a.ts");
    await Deno.writeTextFile(path, SOURCE);
    const t = tools(ws);
    const broken = {
      path: "a.ts",
      symbol: "add",
      newText:
        "export function add(a: number): number {\n\treturn (a + 1;\n}\n",
    };
    const message = await toolErrorMessage(t.EditSymbol.execute(broken));
    assert.match(
      message,
      /^Cannot edit "a\.ts": the edit would add 1 syntax error \(TypeScript grammar: 0 before, 1 after\), so nothing was written:\n/,
    );
    assert.match(message, /pass allowSyntaxErrors: true$/);
    assert.equal(await Deno.readTextFile(path), SOURCE);
    const result = await t.EditSymbol.execute({
      ...broken,
      allowSyntaxErrors: true,
    });
    assert.equal(result.syntaxErrors, 1);
    assert.match(
      t.EditSymbol.toModelText(result),
      /^Edited "a\.ts": function add \(now lines 3-5\)\.\nThe file has 1 syntax error left; new ones written anyway:\n/,
    );
    // A file broken before stays editable: this edit adds no error.
    const fixedBox = await t.EditSymbol.execute({
      path: "a.ts",
      symbol: "Box.open",
      newText: "  open(): void { return; }\n",
    });
    assert.equal(fixedBox.syntaxErrors, 1);
  });
});
