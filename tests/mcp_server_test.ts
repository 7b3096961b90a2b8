// The Search MCP server driven by the official MCP client over stdio, as
// another agent runs it: `deno run -A mod.ts mcp --cwd DIR`, its tools, its
// errors, a stuck regex, and what `--workspace-only` keeps it from reading.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { baseEnv } from "./support/fello_cli.ts";
import { callParts, callText, connectMcp } from "./support/mcp_client.ts";
import { hasRipgrep } from "./support/ripgrep.ts";
import { withDirs, withWorkspace, writeFiles } from "./support/workspace.ts";

/** Starts the server for `cwd` and connects the official client to it. */
function connect(
  cwd: string,
  options: { env?: Record<string, string>; flags?: string[] } = {},
): Promise<Client> {
  return connectMcp({
    workspace: cwd,
    env: options.env,
    serverFlags: options.flags,
    name: "mcp-server-test",
  });
}

/** A call's answer, which comes as one part of text. */
async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const { parts, isError } = await callParts(client, name, args);
  assert.equal(parts[0].type, "text");
  return { text: parts[0].text ?? "", isError };
}

/** A small project: a TypeScript module, notes and an ignored build folder. */
async function writeProject(root: string): Promise<void> {
  await writeFiles(root, {
    "src/user.ts": [
      "/** Loads a user by id. */",
      "export function loadUser(id: string) {",
      "  return { id };",
      "}",
      "",
      "export class Store {",
      "  size = 0;",
      "}",
      "",
    ].join("\n"),
    "notes.md": "# Notes\n\nloadUser is used here.\n",
    ".gitignore": "build/\n",
    "build/out.js": "loadUser();\n",
  });
}

/** Runs `fn` with a client of a server for a fresh project (plus `more` files). */
function withProject(
  fn: (client: Client) => Promise<void>,
  more: Record<string, string> = {},
): Promise<void> {
  return withWorkspace(async (root) => {
    await writeProject(root);
    await writeFiles(root, more);
    const client = await connect(root);
    try {
      await fn(client);
    } finally {
      await client.close();
    }
  });
}

Deno.test("fello mcp read_symbol reads one symbol with its doc comment, as ReadFile symbol does", async () => {
  await withProject(async (client) => {
    const read = await call(client, "read_symbol", {
      path: "src/user.ts",
      symbol: "loadUser",
    });
    assert.equal(read.isError, false, read.text);
    assert.equal(
      read.text,
      [
        "1\t/** Loads a user by id. */",
        "2\texport function loadUser(id: string) {",
        "3\t  return { id };",
        "4\t}",
        "",
        '(function loadUser: lines 1-4 of 8 in "src/user.ts".)',
      ].join("\n"),
    );
    const member = await call(client, "read_symbol", {
      path: "src/user.ts",
      symbol: "Store.size",
    });
    assert.match(member.text, /^7\t {2}size = 0;$/m);
    const unknown = await call(client, "read_symbol", {
      path: "src/user.ts",
      symbol: "loadUsr",
    });
    assert.equal(unknown.isError, true);
    assert.match(
      unknown.text,
      /^Cannot read "src\/user\.ts": no symbol is named "loadUsr"; the nearest names are function loadUser \(lines 2-4\)/,
    );
  });
});

Deno.test("fello mcp lists file_outline, read_symbol, repo_map, search and rg with their input schemas", async () => {
  await withProject(async (client) => {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      "file_outline",
      "read_symbol",
      "repo_map",
      "rg",
      "search",
    ]);
    const search = tools.find((t) => t.name === "search")!;
    assert.match(search.description ?? "", /path:line: text/);
    const properties = search.inputSchema.properties as Record<string, unknown>;
    assert.deepEqual(Object.keys(properties).sort(), [
      "caseSensitive",
      "glob",
      "maxResults",
      "path",
      "pattern",
      "regex",
    ]);
    assert.deepEqual(search.inputSchema.required, ["pattern"]);
    assert.equal(search.annotations?.readOnlyHint, true);
  });
});

Deno.test("fello mcp answers search, file_outline and rg calls, and errors as isError results", async () => {
  await withProject(async (client) => {
    const found = await call(client, "search", { pattern: "loadUser" });
    assert.deepEqual(found, {
      text:
        "notes.md:3: loadUser is used here.\nsrc/user.ts:2: export function loadUser(id: string) {",
      isError: false,
    });

    const outline = await call(client, "file_outline", { path: "src/user.ts" });
    assert.equal(outline.isError, false);
    assert.match(outline.text, /^File: src\/user.ts$/m);
    assert.match(outline.text, /^Language: TypeScript$/m);
    assert.match(
      outline.text,
      /function loadUser \(lines 2-4\)\s+\/\/ Loads a user by id\./,
    );
    assert.match(outline.text, /class Store \(lines 6-8\)/);

    const badRegex = await call(client, "search", {
      pattern: "(",
      regex: true,
    });
    assert.equal(badRegex.isError, true);
    assert.match(badRegex.text, /Cannot search for "\(":/);

    const noPattern = await call(client, "search", { glob: "*.ts" });
    assert.equal(noPattern.isError, true);
    assert.match(noPattern.text, /Invalid input for search: "pattern"/);

    const missing = await call(client, "file_outline", { path: "src/nope.ts" });
    assert.equal(missing.isError, true);
    assert.match(missing.text, /nope\.ts/);

    await assert.rejects(() =>
      client.callTool({ name: "grep", arguments: {} })
    );

    if (hasRipgrep()) {
      const rg = await call(client, "rg", { args: ["-w", "loadUser", "src"] });
      assert.deepEqual(rg, {
        text: "src/user.ts:2:export function loadUser(id: string) {",
        isError: false,
      });
      const none = await call(client, "rg", { args: ["zzzz_absent"] });
      assert.deepEqual(none, { text: "No matches.", isError: false });
      const bad = await call(client, "rg", { args: ["("] });
      assert.equal(bad.isError, true);
      assert.match(bad.text, /regex parse error/);
      const pre = await call(client, "rg", { args: ["--pre=sh", "x"] });
      assert.equal(pre.isError, true);
      assert.match(pre.text, /--pre runs an arbitrary program/);
    } else {
      console.warn("rg is not installed: skipping the rg calls");
    }

    // After all those errors the server still answers.
    const again = await call(client, "search", { pattern: "Store" });
    assert.equal(again.text, "src/user.ts:6: export class Store {");
  });
});

Deno.test("fello mcp answers other calls while a regex is stuck backtracking, and cancels it", async () => {
  await withProject(async (client) => {
    const cancel = new AbortController();
    const stuck = client.callTool(
      { name: "search", arguments: { pattern: "(?=a)(a|a)*b", regex: true } },
      { signal: cancel.signal },
    );
    stuck.catch(() => {}); // awaited below
    // On the event loop, that regex would hold the server for hours.
    const started = performance.now();
    const outline = await call(client, "file_outline", { path: "src/user.ts" });
    assert.match(outline.text, /function loadUser/);
    const found = await call(client, "search", { pattern: "Store" });
    assert.equal(found.text, "src/user.ts:6: export class Store {");
    // A bound far over a quiet run, far under the stuck scan: it proves the
    // calls did not wait for it.
    assert.ok(performance.now() - started < 20_000);
    cancel.abort();
    await assert.rejects(stuck);
    const after = await call(client, "search", {
      pattern: "^a+$",
      regex: true,
    });
    assert.equal(after.text, `stuck.txt:1: ${"a".repeat(40)}`);
  }, { "stuck.txt": `${"a".repeat(40)}\n` });
});

Deno.test("fello mcp's rg says clearly when ripgrep is not on PATH, and the server goes on", async () => {
  await withDirs(async ({ ws, out: emptyBin }) => {
    await writeProject(ws);
    const client = await connect(ws, {
      env: { ...baseEnv(), PATH: emptyBin },
    });
    try {
      const result = await call(client, "rg", { args: ["loadUser"] });
      assert.equal(result.isError, true);
      assert.match(result.text, /ripgrep is not installed or not on PATH/);
      const { tools } = await client.listTools();
      assert.ok(tools.length >= 3, "still serving");
    } finally {
      await client.close();
    }
  });
});

Deno.test("fello mcp reads outside its folder unless started with --workspace-only", async () => {
  await withDirs(async ({ ws: root, out: other }) => {
    await writeProject(root);
    await writeProject(other);
    const open = await connect(root);
    const closed = await connect(root, { flags: ["--workspace-only"] });
    try {
      const absolute = join(other, "src/user.ts");
      const outline = await call(open, "file_outline", { path: absolute });
      assert.equal(outline.isError, false);
      assert.ok(outline.text.startsWith(`File: ${absolute}\n`));
      const found = await call(open, "search", {
        pattern: "Store",
        path: other,
      });
      assert.equal(found.text, `${absolute}:6: export class Store {`);

      const refused = await call(closed, "search", {
        pattern: "Store",
        path: other,
      });
      assert.equal(refused.isError, true);
      assert.match(refused.text, /Refused/);
      const refusedOutline = await call(closed, "file_outline", {
        path: absolute,
      });
      assert.equal(refusedOutline.isError, true);
      // Inside the workspace it still answers.
      const inside = await call(closed, "search", { pattern: "Store" });
      assert.equal(inside.text, "src/user.ts:6: export class Store {");
    } finally {
      await open.close();
      await closed.close();
    }
  });
});

Deno.test("fello mcp --workspace-only: rg follows no symlink out and reads no -fPATH outside", async () => {
  await withDirs(async ({ ws, out }) => {
    await Deno.writeTextFile(
      join(out, "secret.txt"),
      "SECRET_TOKEN=hunter2-outside(\n",
    );
    await Deno.symlink(out, join(ws, "outlink"));
    await Deno.writeTextFile(join(ws, "a.txt"), "nothing here\n");
    const client = await connect(ws, { flags: ["--workspace-only"] });
    try {
      const followed = await callText(client, "rg", {
        args: ["-L", "SECRET_TOKEN"],
      });
      const patterns = await callText(client, "rg", {
        args: [`-f${join(out, "secret.txt")}`],
      });
      assert.ok(
        !followed.text.includes("hunter2-outside"),
        `rg -L read through the symlink: ${followed.text}`,
      );
      assert.ok(
        !patterns.text.includes("hunter2-outside"),
        `rg -fPATH read the file outside: ${patterns.text}`,
      );
    } finally {
      await client.close();
    }
  });
});

Deno.test("fello mcp --workspace-only: rg searches for a pattern that names a path outside", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(
      join(ws, "run.sh"),
      "#!/usr/bin/env sh\necho hi\n",
    );
    const client = await connect(ws, { flags: ["--workspace-only"] });
    try {
      const result = await callText(client, "rg", {
        args: ["-F", "-e", "/usr/bin/env"],
      });
      assert.equal(result.isError, false, result.text);
      assert.equal(result.text, "run.sh:1:#!/usr/bin/env sh");
    } finally {
      await client.close();
    }
  });
});
