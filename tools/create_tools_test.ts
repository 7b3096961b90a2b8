import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "./create_tools.ts";
import { ToolError } from "../internal/tool_error.ts";
import { rejectsTool } from "../tests/support/tool_asserts.ts";
import { withDirs } from "../tests/support/workspace.ts";

Deno.test("createTools() rejects an unknown permission mode, naming the valid ones", () => {
  assert.throws(
    // deno-lint-ignore no-explicit-any
    () => createTools({ permissionMode: "yolo" as any }),
    (error: Error) =>
      error instanceof TypeError && /"yolo"/.test(error.message) &&
      /"acceptEdits"/.test(error.message),
  );
});

Deno.test("createTools() permissionMode can be switched for later calls", async () => {
  const workspace = await Deno.makeTempDir();
  try {
    const tools = createTools({ cwd: workspace, permissionMode: "allow" });
    await tools.WriteFile.execute({ path: "a.txt", content: "1" });
    tools.permissionMode = "readOnly";
    assert.equal(tools.permissionMode, "readOnly");
    await assert.rejects(
      tools.WriteFile.execute({ path: "a.txt", content: "2" }),
      ToolError,
    );
    assert.equal(await Deno.readTextFile(join(workspace, "a.txt")), "1");
    // deno-lint-ignore no-explicit-any
    assert.throws(() => tools.permissionMode = "nope" as any, TypeError);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("createTools() an 'always' write approval never beats a switch to readOnly", async () => {
  const workspace = await Deno.makeTempDir();
  try {
    const tools = createTools({
      cwd: workspace,
      permissionMode: "ask",
      approve: () => "always",
    });
    await tools.WriteFile.execute({ path: "a.txt", content: "1" });
    tools.permissionMode = "readOnly";
    await assert.rejects(
      tools.EditFile.execute({ path: "a.txt", oldText: "1", newText: "2" }),
      /readOnly/,
    );
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("createTools() lets ReadFile open a truncated Shell log without asking", async () => {
  const workspace = await Deno.makeTempDir();
  let asked = 0;
  try {
    const tools = createTools({
      cwd: workspace,
      permissionMode: "ask",
      approve: (request) => {
        asked++;
        return request.action === "execute";
      },
    });
    const result = await tools.Shell.execute({
      command: "seq 1 5000",
      outputByteLimit: 200,
    });
    assert.equal(result.truncated, true);
    assert.ok(result.logPath);
    const log = await tools.ReadFile.execute({
      path: result.logPath,
      line: 4999,
      limit: 2,
    });
    assert.equal(log.content, "4999\n5000\n");
    assert.equal(asked, 1, "only the command itself was asked about");
    await Deno.remove(result.logPath);
  } finally {
    await Deno.remove(workspace, { recursive: true });
  }
});

Deno.test("createTools() refuses a workspace that is missing or a file, creating nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const file = `${dir}/notes.txt`;
    await Deno.writeTextFile(file, "x");
    const missing = createTools({
      cwd: `${dir}/typo`,
      permissionMode: "allow",
    });
    await assert.rejects(
      missing.WriteFile.execute({ path: "a/b.md", content: "x" }),
      /WriteFile cannot work in ".*typo": the workspace does not exist; pass an existing folder as cwd/,
    );
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [
      "notes.txt",
    ]);
    const onFile = createTools({ cwd: file, permissionMode: "allow" });
    await assert.rejects(
      onFile.ReadFile.execute({ path: "x.ts" }),
      /ReadFile cannot work in ".*notes\.txt": the workspace is a file, not a folder/,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("createTools() takes the exported local disk backend wrapped, for WriteFile and EditFile alike", async () => {
  const { createLocalFiles } = await import("../mod.ts");
  const cwd = await Deno.makeTempDir({ prefix: "create_tools_test_" });
  try {
    const disk = createLocalFiles();
    const writes: string[] = [];
    const tools = createTools({
      cwd,
      permissionMode: "allow",
      backend: {
        files: {
          ...disk,
          writeFile(path, data) {
            writes.push(`${path}:${data.length}`);
            return disk.writeFile(path, data);
          },
        },
      },
    });
    await tools.WriteFile.execute({ path: "a.txt", content: "one\n" });
    await tools.EditFile.execute({
      path: "a.txt",
      oldText: "one",
      newText: "three",
    });
    assert.equal(await Deno.readTextFile(join(cwd, "a.txt")), "three\n");
    const real = await Deno.realPath(cwd);
    assert.deepEqual(writes, [`${real}/a.txt:4`, `${real}/a.txt:6`]);
  } finally {
    await Deno.remove(cwd, { recursive: true });
  }
});

Deno.test("createTools() tools have a name, description, schema and execute, and reject bad input with a ToolError", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws });
    for (
      const name of [
        "ReadFile",
        "WriteFile",
        "EditFile",
        "EditSymbol",
        "Shell",
        "Plan",
      ] as const
    ) {
      const tool = tools[name];
      assert.equal(tool.name, name);
      assert.equal(typeof tool.description, "string");
      assert.ok(tool.description.length > 0);
      assert.equal(typeof tool.inputSchema, "object");
      assert.equal(typeof tool.execute, "function");
      assert.equal(typeof tool.toModelText, "function");
    }
    const props = (tool: { inputSchema: unknown }): string[] =>
      Object.keys(
        (tool.inputSchema as { properties: Record<string, unknown> })
          .properties,
      );
    assert.deepEqual(props(tools.ReadFile).sort(), [
      "cwd",
      "force",
      "limit",
      "line",
      "path",
      "symbol",
    ]);
    for (const key of ["path", "content", "cwd"]) {
      assert.ok(props(tools.WriteFile).includes(key), key);
    }
    for (const key of ["path", "oldText", "newText", "replaceAll", "cwd"]) {
      assert.ok(props(tools.EditFile).includes(key), key);
    }
    assert.deepEqual(props(tools.EditSymbol).sort(), [
      "allowSyntaxErrors",
      "cwd",
      "newText",
      "path",
      "position",
      "symbol",
    ]);
    await rejectsTool(tools.ReadFile.execute({ path: 5 } as never));
    await rejectsTool(tools.WriteFile.execute({ path: "a.txt" } as never));
    await rejectsTool(
      tools.EditFile.execute(
        { path: "a.txt", oldText: 1, newText: "x" } as never,
      ),
    );
  });
});
