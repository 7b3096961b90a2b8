// createTools() as its documentation states it: every tool's errors are
// ToolErrors that say what to do, paths resolve against cwd, results are
// plain data, and the specification's limits hold.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools } from "./create_tools.ts";
import { fileOutline, outlineSymbols } from "../outline/outline.ts";
import { rejectsTool } from "../tests/support/tool_asserts.ts";
import { withWorkspace, writeFiles } from "../tests/support/workspace.ts";

/** The message of what `promise` rejects with, checked to be a ToolError. */
async function toolError(promise: Promise<unknown>): Promise<string> {
  return (await rejectsTool(promise)).message;
}

Deno.test("tool errors are ToolErrors naming the path or command, what went wrong and what to do", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, {
      "a.txt": "one\ntwo\nthree\n",
      "dir/b.txt": "bee\n",
    });
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const cases: [() => Promise<unknown>, RegExp][] = [
      [
        () => tools.ReadFile.execute({ path: "a.txt", line: 10 }),
        /^Cannot read "a\.txt" from line 10: the file has only 3 lines; use a line from 1 to 3$/,
      ],
      [
        () => tools.ReadFile.execute({ path: "dir" }),
        /^Cannot read "dir": it is a directory, not a file; give the path of a file inside it/,
      ],
      [
        () => tools.ReadFile.execute({ path: "a.tx" }),
        /^Cannot read "a\.tx": no such file; similar names in "\.": "a\.txt"/,
      ],
      [
        () => tools.ReadFile.execute({ path: "a.txt", line: 0 }),
        /^Invalid input for ReadFile: "line": .*fix the arguments for "a\.txt" and call again$/,
      ],
      [
        () =>
          tools.EditFile.execute({
            path: "a.txt",
            oldText: "t",
            newText: "T",
          }),
        /^Cannot edit "a\.txt": oldText matches 2 places \(lines 2, 3\); .*replaceAll: true/,
      ],
      [
        () => tools.WriteFile.execute({ path: "new/", content: "x" }),
        /^Cannot write "new\/": the path ends in "\/"/,
      ],
      [
        () => tools.Shell.execute({ command: "pwd", cwd: "nowhere" }),
        /^Cannot run "pwd": the working folder ".*nowhere" does not exist; pass an existing "cwd"$/,
      ],
      [
        () => tools.Shell.execute({ command: "no_such_command_16", args: [] }),
        /^Cannot run "no_such_command_16": no executable .* was found on PATH/,
      ],
      [
        () => tools.search.execute({ pattern: "(", regex: true }),
        /^Cannot search for "\(": .*fix the regular expression, or set "regex": false/,
      ],
      [
        () => tools.file_outline.execute({ path: "a.txt" }),
        /^Cannot outline "a\.txt": this file type is not supported; supported extensions: \.ts/,
      ],
      [
        () =>
          tools.Plan.execute({
            entries: [
              { content: "a", priority: "high", status: "in_progress" },
              { content: "b", priority: "low", status: "in_progress" },
            ],
          }),
        /^Cannot update the plan: 2 entries are "in_progress"/,
      ],
      [
        () =>
          createTools({ cwd: ws, permissionMode: "readOnly" }).WriteFile
            .execute({
              path: "a.txt",
              content: "x",
            }),
        /^Refused: Write 1 bytes to "a\.txt": permission mode "readOnly" allows no writes/,
      ],
    ];
    for (const [call, expected] of cases) {
      assert.match(await toolError(call()), expected);
    }
    assert.equal(
      await Deno.readTextFile(join(ws, "a.txt")),
      "one\ntwo\nthree\n",
    );
    assert.throws(
      () => createTools({ cwd: ws, permissionMode: "yolo" as never }),
      TypeError,
    );
  });
});

Deno.test("relative paths resolve against createTools' cwd, not Deno.cwd(), and results are plain JSON data", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, {
      "sub/a.txt": "alpha\n",
      "sub/m.ts": "export const answer = 42;\n",
    });
    assert.notEqual(Deno.cwd(), ws);
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    const read = await tools.ReadFile.execute({ path: "a.txt", cwd: "sub" });
    const written = await tools.WriteFile.execute({
      path: "sub/b.txt",
      content: "beta\n",
    });
    const edited = await tools.EditFile.execute({
      path: "b.txt",
      cwd: "sub",
      oldText: "beta",
      newText: "BETA",
    });
    const found = await tools.search.execute({
      pattern: "BETA",
      path: "sub",
    });
    const shell = await tools.Shell.execute({ command: "pwd", cwd: "sub" });
    const plan = await tools.Plan.execute({ entries: [] });
    assert.equal(read.path, join("sub", "a.txt"));
    assert.equal(written.path, join("sub", "b.txt"));
    assert.equal(edited.path, join("sub", "b.txt"));
    assert.equal(await Deno.readTextFile(join(ws, "sub", "b.txt")), "BETA\n");
    assert.deepEqual(found.matches, [{
      path: "sub/b.txt",
      line: 1,
      text: "BETA",
    }]);
    assert.equal(shell.output, `${join(ws, "sub")}\n`);
    const results = [read, written, edited, found, shell, plan];
    for (const result of results) {
      assert.equal(Object.getPrototypeOf(result), Object.prototype);
      assert.deepEqual(JSON.parse(JSON.stringify(result)), result);
    }
    assert.match(
      await tools.file_outline.execute({ path: "sub/m.ts" }),
      /^File: sub\/m\.ts\n/,
    );
    assert.match(
      await fileOutline("m.ts", { cwd: join(ws, "sub") }),
      /^File: m\.ts\n[^]*const answer \(line 1\)/,
    );
    const symbols = await outlineSymbols("sub/m.ts", { cwd: ws });
    assert.deepEqual(JSON.parse(JSON.stringify(symbols)), symbols);
  });
});

Deno.test("the spec's limits: 100 KB full reads, 2,000 lines by default, search 1-1000 results, Shell 32 KiB default and one-day timeout, file_outline 400 symbols", async () => {
  await withWorkspace(async (ws) => {
    const lines = Array.from({ length: 2_500 }, (_, i) => `line ${i + 1}`);
    await writeFiles(ws, {
      "exact.txt": "a".repeat(102_399) + "\n",
      "over.txt": "a".repeat(102_400) + "\n",
      "many.txt": lines.join("\n") + "\n",
      "big.ts": Array.from({ length: 450 }, (_, i) =>
        `export function f${i}() {}`)
        .join("\n") + "\n",
    });
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    assert.equal(
      (await tools.ReadFile.execute({ path: "exact.txt" })).endLine,
      1,
    );
    assert.match(
      await toolError(tools.ReadFile.execute({ path: "over.txt" })),
      /^Cannot read "over\.txt" whole: .*102401 bytes.*file_outline.*line and limit.*force: true/,
    );
    const forced = await tools.ReadFile.execute({
      path: "over.txt",
      force: true,
    });
    assert.equal(forced.content.length, 102_401);
    const partial = await tools.ReadFile.execute({
      path: "over.txt",
      limit: 1,
    });
    assert.equal(partial.endLine, 1);
    const byLine = await tools.ReadFile.execute({
      path: "many.txt",
      line: 1,
    });
    assert.deepEqual([byLine.startLine, byLine.endLine, byLine.totalLines], [
      1,
      2_000,
      2_500,
    ]);
    const found = await tools.search.execute({ pattern: "line" });
    assert.deepEqual([found.matches.length, found.truncated], [100, true]);
    for (const maxResults of [0, 1_001]) {
      assert.match(
        await toolError(
          tools.search.execute({ pattern: "line", maxResults }),
        ),
        /^Invalid input for search: "maxResults"/,
      );
    }
    const shell = await tools.Shell.execute({ command: "seq 1 20000" });
    assert.equal(shell.truncated, true);
    assert.ok(new TextEncoder().encode(shell.output).length <= 32_768);
    assert.match(
      shell.output,
      /\n\[\.\.\. \d+ bytes \(\d+ lines\) omitted \.\.\.\]\n/,
    );
    if (shell.logPath) await Deno.remove(shell.logPath);
    assert.match(
      await toolError(
        tools.Shell.execute({ command: "true", timeoutSeconds: 86_401 }),
      ),
      /"timeoutSeconds": must be at most 86400 \(one day\)/,
    );
    assert.match(
      await toolError(
        tools.Shell.execute({
          command: "true",
          outputByteLimit: 64 * 1024 * 1024 + 1,
        }),
      ),
      /"outputByteLimit"/,
    );
    const outline = await tools.file_outline.execute({ path: "big.ts" });
    assert.match(
      outline,
      /function f399 \(line 400\)\n\.\.\. 50 more symbols left out \(showing 400 of 450\)/,
    );
    assert.doesNotMatch(outline, /function f400 /);
  });
});
