// outlineSymbols() and fileOutline() on names and texts that need care: $ in
// names, re-exports, empty or odd encodings, a grammarsDir without the grammar.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileOutline, outlineSymbols } from "./outline.ts";
import { utf16WithBom } from "../tests/support/utf16.ts";
import { rejectsTool } from "../tests/support/tool_asserts.ts";
import { withWorkspace, writeFiles } from "../tests/support/workspace.ts";

Deno.test("outlineSymbols() keeps a TypeScript name written with a $ as it is written", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "dollar.ts");
    await Deno.writeTextFile(
      path,
      "/** Reads ab$tract. */\nexport const ab$tract = 1;\n" +
        "export function u$ing() {}\n",
    );
    const { symbols } = await outlineSymbols(path);
    assert.deepEqual(symbols.map((s) => s.name), ["ab$tract", "u$ing"]);
    assert.equal(symbols[0].doc, "Reads ab$tract.");
  });
});

Deno.test("outlineSymbols() lists the re-exports of a barrel module", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      join(dir, "index.ts"),
      'export { createTools } from "./tools.ts";\nexport * from "./more.ts";\n',
    );
    const { symbols } = await outlineSymbols("index.ts", { cwd: dir });
    const names = symbols.map((s) => `${s.kind} ${s.name}`).join("\n");
    assert.match(names, /createTools|tools\.ts/);
    assert.match(names, /more\.ts/);
  });
});

Deno.test("fileOutline() outlines empty, BOM-only, UTF-16 odd-length and lone-surrogate files without a crash; outlineSymbols() reads CJK UTF-16 names and docs", async () => {
  await withWorkspace(async (dir) => {
    const files: [string, Uint8Array][] = [
      ["empty.ts", new Uint8Array()],
      ["bom.py", new Uint8Array([0xef, 0xbb, 0xbf])],
      ["u16bom.ts", new Uint8Array([0xff, 0xfe])],
      ["odd.py", new Uint8Array([...utf16WithBom("def f():\n  pass\n"), 0x41])],
      ["lone.go", new Uint8Array([0xff, 0xfe, 0x00, 0xd8, 0x66, 0x00])],
    ];
    for (const [name, bytes] of files) {
      await Deno.writeFile(join(dir, name), bytes);
      const text = await fileOutline(join(dir, name));
      assert.match(text, /Symbols/, name);
    }
    assert.match(await fileOutline(join(dir, "odd.py")), /def f \(lines 1-2\)/);
    await Deno.writeFile(
      join(dir, "cjk.ts"),
      utf16WithBom("/** 日本語 😀 doc */\nexport function 名前() {}\n"),
    );
    const { symbols } = await outlineSymbols(join(dir, "cjk.ts"));
    assert.equal(symbols[0].name, "名前");
    assert.equal(symbols[0].doc, "日本語 😀 doc");
  });
});

Deno.test("outlineSymbols() with a grammarsDir lacking the grammar names grammarsDir, not FELLO_GRAMMARS_DIR", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, {
      "a.py": "def f():\n    pass\n",
      "grammars/README": "none\n",
    });
    const { message } = await rejectsTool(
      outlineSymbols("a.py", { cwd: ws, grammarsDir: join(ws, "grammars") }),
    );
    assert.match(message, /tree-sitter-python\.wasm/);
    assert.match(message, /grammarsDir/);
    assert.doesNotMatch(message, /FELLO_GRAMMARS_DIR/);
  });
});
