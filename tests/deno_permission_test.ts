// The second gate: a child Deno process with narrow --allow-read/--allow-write
// flags uses the tools in permissionMode "allow"; Deno's own permissions must
// still stop it with a clear ToolError, nothing written and nothing hanging.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const CHILD = `
import { createTools, ToolError } from ${JSON.stringify(join(ROOT, "mod.ts"))};
const [ws] = Deno.args;
const tools = createTools({ cwd: ws, permissionMode: "allow" });
const results = {};
async function run(name, fn) {
  try {
    results[name] = { ok: await fn() };
  } catch (error) {
    results[name] = { error: error.message, toolError: error instanceof ToolError };
  }
}
await run("writeInside", () => tools.WriteFile.execute({ path: "sub/ok.txt", content: "fine" }));
await run("writeOutside", () => tools.WriteFile.execute({ path: "outside.txt", content: "nope" }));
await run("editOutside", () => tools.EditFile.execute({ path: "existing.txt", oldText: "old", newText: "new" }));
await run("readOutside", () => tools.ReadFile.execute({ path: ${
  JSON.stringify(ROOT + "deno.json")
} }));
await run("readInside", () => tools.ReadFile.execute({ path: "existing.txt" }));
// The regex worker's own module is not readable here: it scans in-process.
await run("regexSearch", async () => (await tools.search.execute({ pattern: "^o+ld$", regex: true })).matches);
await run("writeExactFile", () => tools.WriteFile.execute({ path: "exact.txt", content: "x" }));
console.log(JSON.stringify(results));
`;

Deno.test("createTools() turns a Deno permission denial into a clear ToolError", async () => {
  const ws = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "fello-deno-perm-" }),
  );
  try {
    await Deno.mkdir(join(ws, "sub"));
    await Deno.writeTextFile(join(ws, "existing.txt"), "old\n");
    const script = join(ws, "child.js");
    await Deno.writeTextFile(script, CHILD);
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        `--config=${join(ROOT, "deno.json")}`,
        `--allow-read=${ws}`,
        `--allow-write=${join(ws, "sub")},${join(ws, "exact.txt")}`,
        script,
        ws,
      ],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    const results = JSON.parse(new TextDecoder().decode(output.stdout));
    assert.deepEqual(results.writeInside, {
      ok: { path: join("sub", "ok.txt"), created: true, bytes: 4 },
    });
    const outside = join(ws, "outside.txt");
    assert.equal(results.writeOutside.toolError, true);
    const firstLine = results.writeOutside.error.split("\n")[0];
    assert.ok(firstLine.includes(outside), firstLine);
    // The folder: the atomic write's temp file needs it, not the file alone.
    assert.ok(firstLine.includes(`--allow-write=${ws} `), firstLine);
    await assert.rejects(Deno.stat(outside), Deno.errors.NotFound);
    assert.equal(results.editOutside.toolError, true);
    assert.match(results.editOutside.error, /--allow-write=/);
    assert.equal(await Deno.readTextFile(join(ws, "existing.txt")), "old\n");
    assert.equal(results.readOutside.toolError, true);
    assert.match(results.readOutside.error, /--allow-read=/);
    assert.equal(results.readInside.ok.content, "old\n");
    assert.deepEqual(results.regexSearch, {
      ok: [{ path: "existing.txt", line: 1, text: "old" }],
    });
    // A grant for the file alone cannot hold the atomic write's temp file.
    assert.equal(results.writeExactFile.toolError, true);
    assert.ok(
      results.writeExactFile.error.includes(`--allow-write=${ws} `),
      results.writeExactFile.error,
    );
    const left = [];
    for await (const entry of Deno.readDir(ws)) left.push(entry.name);
    assert.deepEqual(left.sort(), ["child.js", "existing.txt", "sub"]);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
