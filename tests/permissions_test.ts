// Deno's permissions as the second gate, and the workspace boundary as an
// attacker probes it: child processes with narrow --allow-* grants use the
// tools in permissionMode "allow", and the MCP server runs as a subprocess.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/client";
import { callText, connectMcp } from "./support/mcp_client.ts";
import { plantLink, SECRET } from "./support/planted_secret.ts";
import { runDeno } from "./support/run_deno.ts";
import { STEP_RUNNER } from "./support/step_runner.ts";
import { withDirs, withWorkspace } from "./support/workspace.ts";

const MOD_URL = new URL("../mod.ts", import.meta.url).href;
const ROOT = fileURLToPath(new URL("../", import.meta.url));
const REPO = dirname(fileURLToPath(new URL("../mod.ts", import.meta.url)));

/** Runs `script` in a child Deno with `flags`; its stdout is one JSON line. */
async function childReport<
  T = Record<string, { ok?: unknown; error?: string }>,
>(
  script: string,
  flags: string[],
  args: string[],
): Promise<T> {
  const { stdout } = await runDeno(["--no-prompt", ...flags], script, args);
  return JSON.parse(stdout);
}

const WRITE_CHILD = `
import { createTools, ToolError } from ${JSON.stringify(MOD_URL)};
const [ws] = Deno.args;
const tools = createTools({ cwd: ws, permissionMode: "allow" });
${STEP_RUNNER}
await run("write", () => tools.WriteFile.execute({ path: "a.txt", content: "new\\n" }));
await run("edit", () => tools.EditFile.execute({ path: "b.txt", oldText: "old", newText: "new" }));
console.log(JSON.stringify(out));
`;

const SYMLINK_WRITE_CHILD = `
import { createTools } from ${JSON.stringify(MOD_URL)};
const [ws] = Deno.args;
const tools = createTools({ cwd: ws, permissionMode: "allow" });
let result;
try {
  result = { ok: await tools.WriteFile.execute({ path: "link.txt", content: "new\\n" }) };
} catch (error) {
  result = { error: error.message };
}
console.log(JSON.stringify(result));
`;

/** What a child's one WriteFile call came to. */
interface WriteOutcome {
  ok?: unknown;
  error?: string;
}

/** `fello mcp` over stdio, with the given deno flags and server flags. */
function mcp(
  ws: string,
  denoFlags: string[],
  serverFlags: string[] = [],
): Promise<Client> {
  return connectMcp({
    workspace: ws,
    denoFlags,
    serverFlags,
    name: "permissions-test",
  });
}

Deno.test("writeFile() under a write grant limited to a subfolder fails outside it with a ToolError naming --allow-write", async () => {
  await withDirs(async ({ root, ws }) => {
    await Deno.mkdir(join(ws, "sub"));
    const script = join(root, "child.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools, ToolError } from ${JSON.stringify(MOD_URL)};
const ws = Deno.args[0];
const tools = createTools({ cwd: ws, permissionMode: "allow" });
const inside = await tools.WriteFile.execute({ path: "sub/ok.txt", content: "ok" });
let outcome;
try {
  await tools.WriteFile.execute({ path: "outside_sub.txt", content: "nope" });
  outcome = { wrote: true };
} catch (error) {
  outcome = { toolError: error instanceof ToolError, message: String(error?.message) };
}
console.log(JSON.stringify({ inside: inside.created, outcome }));
`,
    );
    const r = await runDeno(
      [
        `--allow-read=${ws}`,
        `--allow-write=${join(ws, "sub")}`,
      ],
      script,
      [ws],
    );
    const { inside, outcome } = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.equal(inside, true);
    assert.equal(outcome.toolError, true, JSON.stringify(outcome));
    const firstLine = outcome.message.split("\n")[0];
    assert.ok(firstLine.includes("outside_sub.txt"), firstLine);
    assert.ok(firstLine.includes("--allow-write"), firstLine);
    await assert.rejects(
      Deno.stat(join(ws, "outside_sub.txt")),
      Deno.errors.NotFound,
    );
    assert.equal(await Deno.readTextFile(join(ws, "sub/ok.txt")), "ok");
  });
});

Deno.test("createTools() under narrow Deno grants follows no symlink out of them for a write, an edit or a read", async () => {
  await withDirs(async ({ root, ws, out }) => {
    await Deno.mkdir(join(ws, "sub"));
    await Deno.writeTextFile(join(out, "target.txt"), "target\n");
    await Deno.writeTextFile(join(root, "secret.txt"), "secret\n");
    await Deno.symlink(out, join(ws, "sub/link")); // a folder link out of the write grant
    await Deno.symlink(join(root, "secret.txt"), join(ws, "peek.txt")); // a file link out of the read grant
    await Deno.writeTextFile(join(ws, "own.txt"), "own\n");
    // The grants name the workspace through a link (like macOS's /tmp): legit use still works.
    const wsLink = join(root, "ws_link");
    await Deno.symlink(ws, wsLink);
    const script = join(root, "child.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools, ToolError } from ${JSON.stringify(MOD_URL)};
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
async function attempt(call) {
  try {
    return { resolved: JSON.stringify(await call()) };
  } catch (error) {
    return { toolError: error instanceof ToolError, message: String(error?.message) };
  }
}
console.log(JSON.stringify({
  ownRead: await attempt(() => tools.ReadFile.execute({ path: "own.txt" })),
  ownWrite: await attempt(() => tools.WriteFile.execute({ path: "sub/ok.txt", content: "ok" })),
  write: await attempt(() => tools.WriteFile.execute({ path: "sub/link/new.txt", content: "escaped" })),
  edit: await attempt(() => tools.EditFile.execute({ path: "sub/link/target.txt", oldText: "target", newText: "escaped" })),
  read: await attempt(() => tools.ReadFile.execute({ path: "peek.txt" })),
}));
`,
    );
    const r = await runDeno(
      [
        `--allow-read=${wsLink},${out}`,
        `--allow-write=${join(wsLink, "sub")}`,
      ],
      script,
      [wsLink],
    );
    const report = JSON.parse(r.stdout.trim().split("\n").at(-1)!);
    assert.ok(
      report.ownRead.resolved?.includes("own"),
      JSON.stringify(report.ownRead),
    );
    assert.ok(report.ownWrite.resolved, JSON.stringify(report.ownWrite));
    assert.equal(await Deno.readTextFile(join(ws, "sub/ok.txt")), "ok");
    for (
      const [key, flag] of [["write", "--allow-write"], [
        "edit",
        "--allow-write",
      ], ["read", "--allow-read"]]
    ) {
      assert.equal(
        report[key].toolError,
        true,
        `${key}: ${JSON.stringify(report[key])}`,
      );
      assert.ok(
        report[key].message.split("\n")[0].includes(flag),
        report[key].message,
      );
    }
    assert.ok(!report.read.message.includes("secret\n"));
    assert.deepEqual([...Deno.readDirSync(out)].map((e) => e.name), [
      "target.txt",
    ], "nothing written outside");
    assert.equal(await Deno.readTextFile(join(out, "target.txt")), "target\n");
  });
});

Deno.test("Shell under --allow-run=printf refuses sh before spawning, and runs printf", async () => {
  await withDirs(async ({ root, ws }) => {
    const script = join(root, "child.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools, ToolError } from ${JSON.stringify(MOD_URL)};
const tools = createTools({ cwd: Deno.args[0], permissionMode: "allow" });
const report = {};
try {
  await tools.Shell.execute({ command: "echo via-sh > made.txt" });
  report.sh = "ran";
} catch (error) {
  report.sh = { toolError: error instanceof ToolError, message: String(error?.message) };
}
report.printf = (await tools.Shell.execute({ command: "printf", args: ["%s", "direct"] })).output;
console.log(JSON.stringify(report));
`,
    );
    const { stdout } = await runDeno(
      ["--allow-read", "--allow-write", "--allow-env", "--allow-run=printf"],
      script,
      [ws],
    );
    const report = JSON.parse(stdout.trim().split("\n").at(-1)!);
    assert.equal(report.sh.toolError, true, JSON.stringify(report));
    assert.match(report.sh.message, /--allow-run/);
    assert.match(report.sh.message, /\bsh\b/);
    assert.equal(report.printf, "direct");
    await assert.rejects(Deno.stat(join(ws, "made.txt")), Deno.errors.NotFound);
  });
});

const DENIALS_CHILD = `
import { createTools, ToolError } from ${JSON.stringify(MOD_URL)};
const [ws] = Deno.args;
const tools = createTools({ cwd: ws, permissionMode: "allow" });
${STEP_RUNNER}
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
console.log(JSON.stringify(out));
`;

Deno.test("createTools() under narrow --allow-read/--allow-write turns each denial into a ToolError naming the flag, writing nothing", async () => {
  await withWorkspace(async (ws) => {
    await Deno.mkdir(join(ws, "sub"));
    await Deno.writeTextFile(join(ws, "existing.txt"), "old\n");
    const script = join(ws, "child.js");
    await Deno.writeTextFile(script, DENIALS_CHILD);
    const { stdout } = await runDeno(
      [
        "--no-prompt",
        `--allow-read=${ws}`,
        `--allow-write=${join(ws, "sub")},${join(ws, "exact.txt")}`,
      ],
      script,
      [ws],
    );
    const results = JSON.parse(stdout);
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
  });
});

// rg checks the path it will really open: `..` after a symlink is outside.
Deno.test("fello mcp --workspace-only: rg 'link/..' through a symlink out of the workspace reads nothing outside", async () => {
  await withDirs(async ({ ws, out }) => {
    await plantLink(ws, out);
    const client = await mcp(ws, ["-A"], ["--workspace-only"]);
    try {
      const r = await callText(client, "rg", { args: [SECRET, "link/.."] });
      assert.ok(!r.text.includes(SECRET), `rg read outside: ${r.text}`);
    } finally {
      await client.close();
    }
  });
});

Deno.test("fello mcp under --allow-read=<ws>: rg on a symlink to an ungranted folder is refused, not run", async () => {
  await withDirs(async ({ ws, out }) => {
    await plantLink(ws, out);
    const client = await mcp(ws, [
      `--allow-read=${ws},${REPO}`,
      "--allow-env",
      "--allow-run=rg",
    ]);
    try {
      const r = await callText(client, "rg", { args: [SECRET, "link"] });
      assert.ok(!r.text.includes(SECRET), `rg crossed the grant: ${r.text}`);
      assert.ok(r.isError && r.text.includes("--allow-read"), r.text);
    } finally {
      await client.close();
    }
  });
});

Deno.test("fello mcp under --allow-read=<ws>: search on a symlink out of the grant is a clear Deno denial, not 'No matches'", async () => {
  await withDirs(async ({ ws, out }) => {
    await plantLink(ws, out);
    await Deno.symlink(join(out, "secret.txt"), join(ws, "peek.txt"));
    const client = await mcp(ws, [
      `--allow-read=${ws},${REPO}`,
      "--allow-env",
      "--allow-run=rg",
    ]);
    try {
      const r = await callText(client, "search", {
        pattern: SECRET,
        path: "peek.txt",
      });
      assert.ok(r.isError, `not an error: ${r.text}`);
      assert.match(r.text, /--allow-read/);
    } finally {
      await client.close();
    }
  });
});

Deno.test("fello mcp --workspace-only: search, file_outline and rg refuse a symlinked folder, an absolute path and a -f file outside", async () => {
  await withDirs(async ({ ws, out }) => {
    await plantLink(ws, out);
    await Deno.writeTextFile(join(out, "dir/x.ts"), "export function f() {}\n");
    const client = await mcp(ws, ["-A"], ["--workspace-only"]);
    try {
      const calls: [string, Record<string, unknown>][] = [
        ["search", { pattern: "TOPSECRET", path: "link" }],
        ["search", { pattern: "TOPSECRET", path: join(out, "secret.txt") }],
        ["file_outline", { path: "link/x.ts" }],
        ["rg", { args: ["TOPSECRET", "link"] }],
        ["rg", { args: ["TOPSECRET", join(out, "secret.txt")] }],
        ["rg", { args: ["-f", join(out, "secret.txt"), "a.txt"] }],
        ["rg", { args: ["--pre", "cat", "TOPSECRET"] }],
      ];
      for (const [name, args] of calls) {
        const r = await callText(client, name, args);
        const label = `${name} ${JSON.stringify(args)}: ${r.text}`;
        assert.ok(r.isError, label);
        assert.ok(!r.text.includes("outside-42"), label);
      }
    } finally {
      await client.close();
    }
  });
});

Deno.test("writeFile() and editFile(): the --allow-write flag a Deno denial names makes the retried call succeed", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "b.txt"), "old\n");
    const script = join(ws, "child.js");
    await Deno.writeTextFile(script, WRITE_CHILD);
    const read = `--allow-read=${ws},${ROOT}`;
    const denied = await childReport(script, [read], [ws]);
    const flags = ["write", "edit"].map((name) => {
      const message = denied[name].error ?? "";
      const flag = /--allow-write=\S+/.exec(message)?.[0];
      assert.ok(flag, message);
      return flag;
    });
    const retried = await childReport(script, [read, ...flags], [ws]);
    assert.deepEqual(retried.write.error, undefined, "write after the grant");
    assert.deepEqual(retried.edit.error, undefined, "edit after the grant");
    assert.equal(await Deno.readTextFile(join(ws, "a.txt")), "new\n");
    assert.equal(await Deno.readTextFile(join(ws, "b.txt")), "new\n");
  });
});

Deno.test("writeFile() through a symlink to an ungranted folder: the flag its denial names makes the retry succeed", async () => {
  await withDirs(async ({ ws, out }) => {
    const real = join(out, "real.txt");
    await Deno.writeTextFile(real, "old\n");
    await Deno.symlink(real, join(ws, "link.txt"));
    const script = join(ws, "child.js");
    await Deno.writeTextFile(script, SYMLINK_WRITE_CHILD);
    const flags = [
      `--allow-read=${ws},${out},${ROOT}`,
      `--allow-write=${ws}`,
    ];
    const denied = await childReport<WriteOutcome>(script, flags, [ws]);
    const flag = /--allow-write=\S+/.exec(denied.error ?? "")?.[0];
    assert.ok(flag, JSON.stringify(denied));
    const retried = await childReport<WriteOutcome>(
      script,
      [...flags, flag],
      [ws],
    );
    assert.equal(retried.error, undefined, `after ${flag}`);
    assert.equal(await Deno.readTextFile(real), "new\n");
  });
});
