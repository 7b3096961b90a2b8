// fileOutline() against the outline rules of the built-in tools spec: what
// counts as text, which docstrings count, how deep each TypeScript kind goes.
import assert from "node:assert/strict";
import { fileOutline, outlineSymbols } from "./outline.ts";
import { utf16WithBom } from "../tests/support/utf16.ts";
import { withWorkspace, writeFiles } from "../tests/support/workspace.ts";

/** fileOutline()'s text for `content` saved as `name` in a fresh workspace. */
async function outlineOf(
  name: string,
  content: string | Uint8Array,
): Promise<string> {
  let text = "";
  await withWorkspace(async (ws) => {
    await writeFiles(ws, { [name]: content });
    text = await fileOutline(name, { cwd: ws });
  });
  return text;
}

Deno.test("fileOutline() outlines a UTF-16 source file with a BOM as text", async () => {
  const source = "/** Says hi. */\nexport function hi() {}\n";
  const text = await outlineOf("hi.ts", utf16WithBom(source));
  assert.match(text, /^function hi \(line 2\) {2}\/\/ Says hi\.$/m);
});

Deno.test("fileOutline() shows no docstring for an f-string or bytes first statement", async () => {
  const text = await outlineOf(
    "m.py",
    'def f():\n    f"""Hi {name}"""\n\ndef g():\n    b"""raw"""\n\ndef h():\n    """Real doc."""\n',
  );
  assert.deepEqual(text.split("\n").slice(4), [
    "def f (lines 1-2)",
    "def g (lines 4-5)",
    "def h (lines 7-8)  // Real doc.",
  ]);
});

Deno.test("fileOutline() lists TypeScript property signatures one level deep and const/let only at top level", async () => {
  const text = await outlineOf(
    "t.ts",
    [
      'import { x } from "./x";',
      "interface I {",
      "  /** The id. */",
      "  id: string;",
      "  nested: { inner: number };",
      "}",
      "type T = { a: number };",
      "enum E { A }",
      "namespace N {",
      "  export function f() {}",
      "}",
      "const c = 1;",
      "let l = 2;",
      "function outer() {",
      "  const local = 1;",
      "}",
      "class K {",
      "  m() {}",
      "}",
      "",
    ].join("\n"),
  );
  assert.equal(
    text,
    [
      "File: t.ts",
      "Language: TypeScript",
      "Total lines: 19",
      "─── Symbols ───",
      "import ./x (line 1)",
      "interface I (lines 2-6)",
      "    property id (line 4)  // The id.",
      "    property nested (line 5)",
      "type T (line 7)",
      "    property a (line 7)",
      "enum E (line 8)",
      "    member A (line 8)",
      "namespace N (lines 9-11)",
      "    function f (line 10)",
      "const c (line 12)",
      "let l (line 13)",
      "function outer (lines 14-16)",
      "class K (lines 17-19)",
      "    method m (line 18)",
    ].join("\n"),
  );
});

Deno.test("fileOutline() takes a Doxygen @brief that follows @fn as the function's comment", async () => {
  const text = await outlineOf(
    "add.c",
    "/**\n * @fn int add(int a, int b)\n * @brief Adds two numbers.\n */\n" +
      "int add(int a, int b) { return a + b; }\n",
  );
  assert.match(text, /function add \(line 5\) {2}\/\/ Adds two numbers\./);
});

Deno.test("outlineSymbols() lists no namespace for a bare top-level block", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, {
      "script.js": "{\n  const local = 1;\n}\nfunction g() {}\n",
    });
    const { symbols } = await outlineSymbols("script.js", { cwd: ws });
    assert.deepEqual(symbols.map((s) => `${s.kind} ${s.name}`), ["function g"]);
  });
});
