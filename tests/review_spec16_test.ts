// Spec-conformance review (session 16): each built-in tool checked against its
// section of the specification (shared/spec/builtin-tools.md) and the issue
// that refines it, through the public API only (createTools, fileOutline, and
// the Search MCP server over stdio with the official client).
//
// A test under a `// Fixed fault:` note reproduced a fault (it failed before
// its fix). The others pin spec rules verified to hold.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, fileOutline, ToolError } from "../mod.ts";
import { callText, connectMcp } from "./support/mcp_client.ts";
import { utf16WithBom } from "./support/utf16.ts";
import { withWorkspace } from "./support/workspace.ts";

function hasRipgrep(): boolean {
  try {
    return new Deno.Command("rg", { args: ["--version"], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

// ---------------------------------------------------------------- EditFile

// Fixed fault: EditFile, spec "匹配到多个位置时，如果没设 replaceAll=true 会报错" (when
// oldText matches several places and replaceAll is not set, it is an error):
// an oldText that occurs at two overlapping places ("  }\n  }" in three "  }"
// lines, at lines 1 and 2) is counted once and the first place is replaced
// silently, although the model cannot know which closing brace it hit.
Deno.test({
  name:
    "EditFile() refuses an oldText found at two overlapping places without replaceAll",
  fn: async () => {
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
  },
});

Deno.test("EditFile() no match and two matches: errors as the spec asks, file untouched", async () => {
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

// ------------------------------------------------------------------ search

// Fixed fault: search (issue 6: it "skips ... binary files"; issue 2 defines text as
// UTF-8, or UTF-16 LE/BE with a BOM, which ReadFile decodes): a UTF-16 file with
// a BOM is skipped as binary, so its matches are missed, while ReadFile reads
// it as text and `rg` (the MCP server's other search tool) finds them.
Deno.test({
  name:
    "search() finds a match in a UTF-16 file with a BOM, as ReadFile reads it",
  fn: async () => {
    await withWorkspace(async (ws) => {
      await Deno.writeFile(
        join(ws, "notes.txt"),
        utf16WithBom("intro\nneedle\n"),
      );
      const tools = createTools({ cwd: ws, permissionMode: "allow" });
      const read = await tools.ReadFile.execute({ path: "notes.txt" });
      assert.equal(read.content, "intro\nneedle\n");
      const found = await tools.search.execute({ pattern: "needle" });
      assert.deepEqual(found.matches, [
        { path: "notes.txt", line: 2, text: "needle" },
      ]);
      assert.equal(found.binaryFiles, 0);
    });
  },
});

Deno.test("search() is literal and case-sensitive by default, answers path:line: text and notes a cut", async () => {
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "src"));
    await Deno.writeTextFile(join(ws, "src/a.ts"), "Foo\nfoo\na.b\naXb\n");
    const tools = createTools({ cwd: ws, permissionMode: "readOnly" });
    const exact = await tools.search.execute({ pattern: "Foo" });
    assert.equal(tools.search.toModelText(exact), "src/a.ts:1: Foo");
    const folded = await tools.search.execute({
      pattern: "FOO",
      caseSensitive: false,
    });
    assert.deepEqual(folded.matches.map((m) => m.line), [1, 2]);
    const literal = await tools.search.execute({ pattern: "a.b" });
    assert.deepEqual(literal.matches.map((m) => m.line), [3]);
    const regex = await tools.search.execute({ pattern: "a.b", regex: true });
    assert.deepEqual(regex.matches.map((m) => m.line), [3, 4]);
    const cut = await tools.search.execute({ pattern: "o", maxResults: 1 });
    assert.equal(cut.truncated, true);
    assert.match(
      tools.search.toModelText(cut),
      /^src\/a\.ts:1: Foo\n\(Only the first matching line is shown; more exist\./,
    );
  });
});

// ------------------------------------------------------------- file_outline

// Fixed fault: file_outline (issue 4: "a binary ... file gets [an error] that names
// the path"; issue 2 counts UTF-16 with a BOM as text): a TypeScript file saved
// as UTF-16 LE with a BOM is refused as "a binary file, not source code"
// instead of being outlined like the same text in UTF-8.
Deno.test({
  name: "fileOutline() outlines a UTF-16 source file with a BOM as text",
  fn: async () => {
    await withWorkspace(async (ws) => {
      const source = "/** Says hi. */\nexport function hi() {}\n";
      await Deno.writeFile(join(ws, "hi.ts"), utf16WithBom(source));
      const text = await fileOutline("hi.ts", { cwd: ws });
      assert.match(text, /^function hi \(line 2\) {2}\/\/ Says hi\.$/m);
    });
  },
});

// Fixed fault: file_outline, spec "注释摘录：提取每个符号前面紧邻的 JSDoc/Docstring 注释"
// (the comment excerpt is the JSDoc/docstring right before or, in Python, at
// the top of the symbol): an f-string or a bytes literal as a function's first
// statement is no docstring (Python leaves `__doc__` None for both), yet its
// text is shown as the function's doc.
Deno.test({
  name:
    "fileOutline() shows no docstring for an f-string or bytes first statement",
  fn: async () => {
    await withWorkspace(async (ws) => {
      await Deno.writeTextFile(
        join(ws, "m.py"),
        'def f():\n    f"""Hi {name}"""\n\ndef g():\n    b"""raw"""\n\ndef h():\n    """Real doc."""\n',
      );
      const text = await fileOutline("m.py", { cwd: ws });
      assert.deepEqual(text.split("\n").slice(4), [
        "def f (lines 1-2)",
        "def g (lines 4-5)",
        "def h (lines 7-8)  // Real doc.",
      ]);
    });
  },
});

Deno.test("fileOutline() follows the spec's TypeScript table: property signatures one level deep, const/let only at top level", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(
      join(ws, "t.ts"),
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
    const text = await fileOutline("t.ts", { cwd: ws });
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
});

// ------------------------------------------------------------------- Shell

Deno.test("Shell waits without timeoutSeconds; with it, reports timedOut and the output so far", async () => {
  await withWorkspace(async (ws) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const waited = await tools.Shell.execute({
      command: "sleep 1.2; echo done",
    });
    assert.equal(waited.timedOut, false);
    assert.equal(waited.output, "done\n");
    const cut = await tools.Shell.execute({
      command: "echo start; sleep 30",
      timeoutSeconds: 0.5,
    });
    assert.equal(cut.timedOut, true);
    assert.equal(cut.exitCode, null);
    assert.equal(cut.output, "start\n");
    assert.match(tools.Shell.toModelText(cut), /longer timeoutSeconds/);
    await assert.rejects(
      tools.Shell.execute({ command: "true", timeoutSeconds: 0 }),
      ToolError,
    );
  });
});

Deno.test("Shell keeps at most outputByteLimit bytes, marker included, and flags truncated", async () => {
  await withWorkspace(async (ws) => {
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const exact = await tools.Shell.execute({
      command: "printf 1234567890",
      outputByteLimit: 10,
    });
    assert.equal(exact.truncated, false);
    assert.equal(exact.output, "1234567890");
    const cut = await tools.Shell.execute({
      command: "seq 1 10000",
      outputByteLimit: 1000,
    });
    assert.equal(cut.truncated, true);
    assert.ok(new TextEncoder().encode(cut.output).length <= 1000);
    assert.ok(cut.output.startsWith("1\n2\n"));
    assert.ok(cut.output.endsWith("9999\n10000\n"));
    assert.match(
      cut.output,
      /\[\.\.\. \d+ bytes \(\d+ lines\) omitted \.\.\.\]/,
    );
    assert.ok(cut.logPath !== undefined);
    await Deno.remove(cut.logPath);
  });
});

// -------------------------------------------------------------------- Plan

Deno.test("Plan takes the spec's three priorities and statuses and renders a checklist", async () => {
  const tools = createTools({ permissionMode: "readOnly" });
  const result = await tools.Plan.execute({
    entries: [
      { content: "Read", priority: "high", status: "completed" },
      { content: "Fix", priority: "medium", status: "in_progress" },
      { content: "Ship", priority: "low", status: "pending" },
    ],
  });
  assert.deepEqual(result.counts, {
    pending: 1,
    in_progress: 1,
    completed: 1,
  });
  assert.equal(
    tools.Plan.toModelText(result),
    "Plan updated: 1/3 completed.\n- [x] Read [high]\n- [~] Fix [medium] (in progress)\n- [ ] Ship [low]",
  );
  await assert.rejects(
    tools.Plan.execute({
      entries: [{ content: "x", priority: "urgent", status: "pending" }],
    } as never),
    /"high", "medium", "low"/,
  );
});

// -------------------------------------------------------- Search MCP server

Deno.test("mcp: file_outline takes a file:// URI and answers plain text; rg numbers lines without colour", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(
      join(ws, "a.ts"),
      "/** Loads. */\nexport function load() {}\n",
    );
    const client = await connectMcp({ workspace: ws, name: "review-spec16" });
    try {
      const call = (name: string, args: Record<string, unknown>) =>
        callText(client, name, args);
      const uri = new URL(`file://${join(ws, "a.ts")}`).href;
      const outline = await call("file_outline", { path: uri });
      assert.equal(outline.isError, false);
      assert.equal(
        outline.text,
        `File: ${uri}\nLanguage: TypeScript\nTotal lines: 2\n─── Symbols ───\nfunction load (line 2)  // Loads.`,
      );
      const search = await call("search", { pattern: "load" });
      assert.equal(search.text, "a.ts:2: export function load() {}");
      const bad = await call("search", { pattern: "x", maxResults: 1001 });
      assert.equal(bad.isError, true);
      const rg = await call("rg", { args: ["load", "a.ts"] });
      assert.equal(rg.isError, !hasRipgrep());
      if (!rg.isError) {
        assert.equal(rg.text.trim(), "2:export function load() {}");
      }
    } finally {
      await client.close();
    }
  });
});
