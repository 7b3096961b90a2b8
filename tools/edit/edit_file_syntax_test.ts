import assert from "node:assert/strict";
import { join } from "node:path";
import { createLocalFiles, createTools, type FileBackend } from "../../mod.ts";
import { withWorkspace } from "../../tests/support/workspace.ts";
import { recorder, rejectsTool } from "../../tests/support/tool_asserts.ts";

function tools(ws: string, files?: FileBackend) {
  return createTools({ cwd: ws, permissionMode: "allow", backend: { files } });
}

Deno.test("editFile() refuses an edit that adds a syntax error and leaves the file byte-identical", async () => {
  await withWorkspace(async (ws) => {
    const path = join(ws, "a.ts");
    const bytes = new TextEncoder().encode(
      "\uFEFFexport function f(): number {\r\n\treturn g(1);\r\n}\r\n",
    );
    await Deno.writeFile(path, bytes);
    const error = await rejectsTool(
      tools(ws).EditFile.execute({
        path: "a.ts",
        oldText: "g(1)",
        newText: "g(1",
      }),
      'Cannot edit "a.ts": the edit would add 1 syntax error (TypeScript grammar: 0 before, 1 after), so nothing was written:',
      "allowSyntaxErrors: true",
    );
    // Line and column count from the text after the BOM; the caret line
    // keeps the source line's tab so that it stands under the column.
    assert.ok(
      error.message.includes(
        '\n2:12: missing ")"\n  \treturn g(1;\n  \t          ^\n',
      ),
      error.message,
    );
    assert.deepEqual(await Deno.readFile(path), bytes);
  });
});

Deno.test("editFile() writes an edit that adds syntax errors with allowSyntaxErrors: true, and says how many remain", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.py"), "def f():\n    return 1\n");
    const t = tools(ws);
    const result = await t.EditFile.execute({
      path: "a.py",
      oldText: "def f():",
      newText: "def f(:",
      allowSyntaxErrors: true,
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.py")),
      "def f(:\n    return 1\n",
    );
    assert.equal(result.syntaxErrors, 1);
    assert.equal(
      result.newSyntaxErrors,
      '1:7: missing ")"\n  def f(:\n        ^',
    );
    assert.match(
      t.EditFile.toModelText(result),
      /^Edited "a\.py": 1 replacement \(\+1 -1 lines\)\.\nThe file has 1 syntax error left; new ones written anyway:\n1:7: missing "\)"\n/,
    );
  });
});

Deno.test("editFile() edits a file broken before when the edit adds no error, and says how many remain", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(
      join(ws, "a.go"),
      "package a\n\nfunc F() int {\n\treturn (1\n}\n\nfunc G() int { return 2 }\n",
    );
    const t = tools(ws);
    const result = await t.EditFile.execute({
      path: "a.go",
      oldText: "return 2",
      newText: "return 3",
    });
    assert.equal(result.syntaxErrors, 1);
    assert.equal(result.newSyntaxErrors, undefined);
    assert.match(
      t.EditFile.toModelText(result),
      /\nThe file has 1 syntax error left\.\n/,
    );
    // Fixing the error leaves none to report.
    const fixed = await t.EditFile.execute({
      path: "a.go",
      oldText: "return (1\n",
      newText: "return (1)\n",
    });
    assert.equal(fixed.syntaxErrors, undefined);
    assert.doesNotMatch(t.EditFile.toModelText(fixed), /syntax/);
  });
});

Deno.test("editFile() writes and reports new errors in a language whose grammar only reports", async () => {
  await withWorkspace(async (ws) => {
    // An Objective-C header: read with the C grammar, whose errors there
    // mean little, so they are reported, not refused.
    const header =
      "@interface A : NSObject\n- (void)run;\n@end\n\nint f(void);\n";
    await Deno.writeTextFile(join(ws, "a.h"), header);
    const result = await tools(ws).EditFile.execute({
      path: "a.h",
      oldText: "int f(void);",
      newText: "int f(void;",
    });
    assert.equal(
      await Deno.readTextFile(join(ws, "a.h")),
      header.replace("f(void);", "f(void;"),
    );
    assert.ok(result.syntaxErrors !== undefined && result.syntaxErrors >= 1);
    assert.match(result.newSyntaxErrors ?? "", /^5:\d+: /);
  });
});

Deno.test("editFile() does not check files the outline cannot parse", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.txt"), "f(1)\n");
    await Deno.writeTextFile(join(ws, "a.md"), "# f(1)\n");
    for (const path of ["a.txt", "a.md"]) {
      const result = await tools(ws).EditFile.execute({
        path,
        oldText: "f(1)",
        newText: "f(1",
      });
      assert.equal(result.syntaxErrors, undefined);
    }
  });
});

Deno.test("editFile() checks the edit again on the text that changed on disk before its write", async () => {
  await withWorkspace(async (ws) => {
    const path = join(ws, "a.ts");
    await Deno.writeTextFile(path, "const a = 1;\nconst b = 2;\n");
    const local = createLocalFiles();
    let writes = 0;
    // Another writer breaks line 1 between the edit's read and its write:
    // the edit is applied again to that text and checked on it.
    const files: FileBackend = {
      stat: (file) => local.stat(file),
      open: (file) => local.open(file),
      readDir: (folder) => local.readDir(folder),
      async writeFile(file, data, options) {
        if (writes++ === 0) {
          await Deno.writeTextFile(file, "const a = (1;\nconst b = 2;\n");
        }
        return await local.writeFile(file, data, options);
      },
    };
    const result = await tools(ws, files).EditFile.execute({
      path: "a.ts",
      oldText: "b = 2",
      newText: "b = 3",
    });
    assert.equal(writes, 2);
    assert.equal(
      await Deno.readTextFile(path),
      "const a = (1;\nconst b = 3;\n",
    );
    assert.equal(result.syntaxErrors, 1);
  });
});

Deno.test("editFile() refuses an edit that adds a syntax error before anyone is asked to approve it", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.ts"), "export const a = [1];\n");
    const { calls, approve } = recorder(true);
    const t = createTools({ cwd: ws, permissionMode: "ask", approve });
    await rejectsTool(
      t.EditFile.execute({ path: "a.ts", oldText: "[1]", newText: "[1" }),
      "allowSyntaxErrors: true",
    );
    assert.equal(calls.length, 0);
  });
});
