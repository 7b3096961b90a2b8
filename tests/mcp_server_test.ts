// The Search MCP server driven by the official MCP client over stdio, exactly
// as another agent would run it: `deno run -A mod.ts mcp --cwd DIR`.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/client";
import { connectMcp } from "./support/mcp_client.ts";

interface TextResult {
  text: string;
  isError: boolean;
}

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

async function call(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<TextResult> {
  const result = await client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text: string }[];
  assert.equal(content[0].type, "text");
  return { text: content[0].text, isError: result.isError === true };
}

async function fixture(): Promise<string> {
  const root = await Deno.makeTempDir({ prefix: "mcp_server_test_" });
  await Deno.mkdir(join(root, "src"));
  await Deno.writeTextFile(
    join(root, "src/user.ts"),
    [
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
  );
  await Deno.writeTextFile(
    join(root, "notes.md"),
    "# Notes\n\nloadUser is used here.\n",
  );
  await Deno.writeTextFile(join(root, ".gitignore"), "build/\n");
  await Deno.mkdir(join(root, "build"));
  await Deno.writeTextFile(join(root, "build/out.js"), "loadUser();\n");
  return root;
}

function hasRipgrep(): boolean {
  try {
    return new Deno.Command("rg", { args: ["--version"], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

Deno.test("mcp server lists file_outline, search and rg with their input schemas", async () => {
  const root = await fixture();
  const client = await connect(root);
  try {
    const { tools } = await client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), [
      "file_outline",
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
  } finally {
    await client.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp server answers search, file_outline and rg calls, and errors as isError results", async () => {
  const root = await fixture();
  const client = await connect(root);
  try {
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
  } finally {
    await client.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp server answers other calls while a regex is stuck backtracking, and cancels it", async () => {
  const root = await fixture();
  await Deno.writeTextFile(join(root, "stuck.txt"), `${"a".repeat(40)}\n`);
  const client = await connect(root);
  try {
    const cancel = new AbortController();
    const stuck = client.callTool(
      { name: "search", arguments: { pattern: "(a|a)*b", regex: true } },
      { signal: cancel.signal },
    );
    stuck.catch(() => {}); // awaited below
    // On the event loop, that regex would hold the server for hours.
    const started = performance.now();
    const outline = await call(client, "file_outline", { path: "src/user.ts" });
    assert.match(outline.text, /function loadUser/);
    const found = await call(client, "search", { pattern: "Store" });
    assert.equal(found.text, "src/user.ts:6: export class Store {");
    // Generous bounds: they prove nothing waited for the stuck scan.
    assert.ok(performance.now() - started < 8_000);
    cancel.abort();
    await assert.rejects(stuck);
    const after = await call(client, "search", {
      pattern: "^a+$",
      regex: true,
    });
    assert.equal(after.text, `stuck.txt:1: ${"a".repeat(40)}`);
  } finally {
    await client.close();
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("mcp server's rg says clearly when ripgrep is not installed", async () => {
  const root = await fixture();
  const emptyBin = await Deno.makeTempDir({ prefix: "mcp_no_rg_" });
  const client = await connect(root, {
    env: { HOME: Deno.env.get("HOME") ?? "/root", PATH: emptyBin },
  });
  try {
    const result = await call(client, "rg", { args: ["loadUser"] });
    assert.equal(result.isError, true);
    assert.match(result.text, /ripgrep is not installed or not on PATH/);
  } finally {
    await client.close();
    await Deno.remove(root, { recursive: true });
    await Deno.remove(emptyBin, { recursive: true });
  }
});

Deno.test("mcp server reads outside its folder unless started with --workspace-only", async () => {
  const root = await fixture();
  const other = await fixture();
  const open = await connect(root);
  const closed = await connect(root, { flags: ["--workspace-only"] });
  try {
    const absolute = join(other, "src/user.ts");
    const outline = await call(open, "file_outline", { path: absolute });
    assert.equal(outline.isError, false);
    assert.ok(outline.text.startsWith(`File: ${absolute}\n`));
    const found = await call(open, "search", { pattern: "Store", path: other });
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
    await Deno.remove(root, { recursive: true });
    await Deno.remove(other, { recursive: true });
  }
});
