// Issue 4's public API, called exactly as the issue writes it, against a
// fixture laid out like the specification's example (src/shared/schema.ts).
import assert from "node:assert/strict";
import { createTools, fileOutline, outlineSymbols } from "../mod.ts";

const cwd = new URL("./fixtures/outline/", import.meta.url).pathname;
const maxSymbols = 5;

Deno.test("fileOutline() prints the specification's example exactly", async () => {
  const text: string = await fileOutline("src/shared/schema.ts", {
    cwd,
    maxSymbols,
  });
  assert.equal(
    text,
    [
      "File: src/shared/schema.ts",
      "Language: TypeScript",
      "Total lines: 585",
      "─── Symbols ───",
      "interface SessionNotificationFelloExt (lines 14-26)  // 扩展 SessionNotification 结构",
      "    property update (lines 15-25)",
      "interface BaseAgentInfo (lines 32-40)  // 代理（Agent）的配置信息",
      "    property id (line 37)  // 代理的唯一标识符",
      "    property disabled (line 39)  // 是否停用代理",
      "... 2 more symbols left out (showing 5 of 7); read the file by line ranges for the rest",
    ].join("\n"),
  );
});

Deno.test("outlineSymbols() returns { language, totalLines, symbols } with nested children", async () => {
  const symbols = await outlineSymbols("src/shared/schema.ts", { cwd });
  assert.equal(symbols.language, "TypeScript");
  assert.equal(symbols.totalLines, 585);
  assert.deepEqual(
    symbols.symbols.map((
      { kind, name, startLine, endLine, doc, children },
    ) => ({
      kind,
      name,
      startLine,
      endLine,
      doc,
      children: children.length,
    })),
    [
      {
        kind: "interface",
        name: "SessionNotificationFelloExt",
        startLine: 14,
        endLine: 26,
        doc: "扩展 SessionNotification 结构",
        children: 1,
      },
      {
        kind: "interface",
        name: "BaseAgentInfo",
        startLine: 32,
        endLine: 40,
        doc: "代理（Agent）的配置信息",
        children: 2,
      },
      {
        kind: "type",
        name: "AgentLocation",
        startLine: 43,
        endLine: 43,
        doc: "Where an agent runs.",
        children: 0,
      },
      {
        kind: "function",
        name: "emptyAgent",
        startLine: 46,
        endLine: 48,
        doc: "Creates an empty agent description.",
        children: 0,
      },
    ],
  );
});

Deno.test("createTools() gains a file_outline tool taking { path }", async () => {
  const tools = createTools({ cwd, permissionMode: "readOnly" });
  const text = await tools.file_outline.execute({
    path: "src/shared/schema.ts",
  });
  assert.ok(
    text.startsWith(
      "File: src/shared/schema.ts\nLanguage: TypeScript\nTotal lines: 585\n─── Symbols ───\n",
    ),
  );
  assert.ok(
    text.endsWith(
      "function emptyAgent (lines 46-48)  // Creates an empty agent description.",
    ),
  );
});
