import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "../../mod.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";
import { recorder, rejectsTool } from "../../tests/support/tool_asserts.ts";
import { exists } from "../../internal/exists.ts";

function tools(ws: string) {
  return createTools({ cwd: ws, permissionMode: "allow" });
}

Deno.test("writeFile() refuses a new file with a syntax error and creates nothing, not even its folder", async () => {
  await withWorkspace(async (ws) => {
    const error = await rejectsTool(
      tools(ws).WriteFile.execute({
        path: "src/a.py",
        content: "def f():\r\n    return [1, 2\r\n",
      }),
      'Cannot write "src/a.py": the new file would have 1 syntax error (Python grammar), so nothing was written:\n',
      "pass allowSyntaxErrors: true",
    );
    // CRLF: the line shown without its CR, the column as an editor counts it.
    assert.match(
      error.message,
      /\n2:\d+: [^\n]+\n {6}return \[1, 2\n {3,}\^\n/,
    );
    assert.equal(await exists(join(ws, "src")), false);
  });
});

Deno.test("writeFile() writes a new file with a syntax error when allowSyntaxErrors is true", async () => {
  await withWorkspace(async (ws) => {
    const t = tools(ws);
    const result = await t.WriteFile.execute({
      path: "a.go",
      content: "package a\n\nfunc F( {}\n",
      allowSyntaxErrors: true,
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.go")),
      "package a\n\nfunc F( {}\n",
    );
    assert.ok(result.syntaxErrors !== undefined && result.syntaxErrors >= 1);
    assert.match(result.newSyntaxErrors ?? "", /^3:\d+: /);
    assert.match(
      t.WriteFile.toModelText(result),
      /^Created "a\.go" \(\d+ bytes\)\.\nThe file has \d+ syntax errors? left; new ones written anyway:\n3:/,
    );
  });
});

Deno.test("writeFile() replaces a file that has errors with content that adds none", async () => {
  await withWorkspace(async (ws) => {
    const path = join(ws, "a.ts");
    await Deno.writeTextFile(path, "\uFEFFconst a = (1;\nconst b = 2;\n");
    const t = tools(ws);
    const same = await t.WriteFile.execute({
      path: "a.ts",
      content: "\uFEFFconst a = (1;\nconst b = 3;\n",
    });
    assert.equal(same.syntaxErrors, 1);
    assert.match(
      t.WriteFile.toModelText(same),
      /\nThe file has 1 syntax error left\.$/,
    );
    // One more error than the file has is refused.
    await rejectsTool(
      t.WriteFile.execute({
        path: "a.ts",
        content: "const a = (1;\nconst b = (3;\n",
      }),
      'Cannot write "a.ts": the new content would add 1 syntax error (TypeScript grammar: 1 before, 2 after)',
      '\n2:13: missing ")"\n  const b = (3;\n              ^\n',
    );
    assert.equal(
      await Deno.readTextFile(path),
      "\uFEFFconst a = (1;\nconst b = 3;\n",
    );
  });
});

Deno.test("writeFile() writes valid code and text of other kinds unchecked", async () => {
  await withWorkspace(async (ws) => {
    const t = tools(ws);
    const valid = await t.WriteFile.execute({
      path: "a.tsx",
      content: 'export const A = () => <div className="a">{1}</div>;\n',
    });
    assert.equal(valid.syntaxErrors, undefined);
    for (const path of ["notes.txt", "README.md", "data.json"]) {
      const result = await t.WriteFile.execute({ path, content: "f(1\n" });
      assert.equal(result.syntaxErrors, undefined);
      assert.equal(await Deno.readTextFile(join(ws, path)), "f(1\n");
    }
  });
});

Deno.test("writeFile() refuses content with a new syntax error before anyone is asked to approve it", async () => {
  await withWorkspace(async (ws) => {
    const { calls, approve } = recorder(true);
    const t = createTools({ cwd: ws, permissionMode: "ask", approve });
    await rejectsTool(
      t.WriteFile.execute({ path: "a.ts", content: "export const a = [1;\n" }),
      "allowSyntaxErrors: true",
    );
    assert.equal(calls.length, 0);
    await t.WriteFile.execute({
      path: "a.ts",
      content: "export const a = [1];\n",
    });
    assert.equal(calls.length, 1);
  });
});

Deno.test("writeFile() writes unchecked a file with a line too long for the outline to parse", async () => {
  await withWorkspace(async (ws) => {
    // One 5 MB line of generated data, broken at its end.
    const content = `export const data = [${"1,".repeat(2_500_000)}\n`;
    const result = await tools(ws).WriteFile.execute({
      path: "data.ts",
      content,
    });
    assert.equal(result.syntaxErrors, undefined);
    assert.equal((await Deno.stat(join(ws, "data.ts"))).size, content.length);
  });
});

Deno.test("writeFile() refuses a Dart file with a syntax error and writes Dart 3 code with an unnamed library", async () => {
  await withWorkspace(async (ws) => {
    const t = tools(ws);
    await rejectsTool(
      t.WriteFile.execute({
        path: "lib/a.dart",
        content: "class A {\n  void f( {}\n}\n",
      }),
      'Cannot write "lib/a.dart": the new file would have',
      "pass allowSyntaxErrors: true",
    );
    assert.equal(await exists(join(ws, "lib/a.dart")), false);
    const content = [
      "library;",
      "",
      "abstract class Platform {",
      "  abstract final bool isAndroid;",
      "}",
      "",
      "String describe(Object o) => switch (o) { int n => '$n', _ => '' };",
      "",
    ].join("\n");
    await t.WriteFile.execute({ path: "lib/b.dart", content });
    assert.equal(await Deno.readTextFile(join(ws, "lib/b.dart")), content);
  });
});
