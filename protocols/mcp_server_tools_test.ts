// The Search MCP server's tools as an MCP client sees them: `fello mcp` over
// stdio, driven by the official client.
import assert from "node:assert/strict";
import { join } from "node:path";
import { baseEnv } from "../tests/support/fello_cli.ts";
import { callText, connectMcp } from "../tests/support/mcp_client.ts";
import { HAS_RIPGREP } from "../tests/support/ripgrep.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("fello mcp file_outline takes a file:// URI and answers plain text; rg numbers lines without colour", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(
      join(ws, "a.ts"),
      "/** Loads. */\nexport function load() {}\n",
    );
    const client = await connectMcp({
      workspace: ws,
      name: "mcp-server-tools",
    });
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
      assert.equal(rg.isError, !HAS_RIPGREP);
      if (!rg.isError) {
        assert.equal(rg.text.trim(), "2:export function load() {}");
      }
    } finally {
      await client.close();
    }
  });
});

Deno.test("fello mcp answers 50 concurrent file_outline and search calls, each with its own file's answer", async () => {
  await withWorkspace(async (dir) => {
    for (let i = 0; i < 25; i++) {
      await Deno.writeTextFile(
        join(dir, `f${i}.ts`),
        `export function fn${i}() {}\nexport class C${i} {}\n// token${i}x\n`,
      );
    }
    const client = await connectMcp({
      workspace: dir,
      env: baseEnv(),
      name: "mcp-server-tools",
    });
    try {
      const text = (name: string, args: Record<string, unknown>) =>
        callText(client, name, args);
      const calls = Array.from({ length: 25 }, (_, i) => [
        text("file_outline", { path: `f${i}.ts` }).then((r) => ({ i, r })),
        text("search", { pattern: `token${i}x` }).then((r) => ({ i, r })),
      ]);
      const outlines = await Promise.all(calls.map(([outline]) => outline));
      const searches = await Promise.all(calls.map(([, search]) => search));
      for (const { i, r } of outlines) {
        assert.equal(r.isError, false, r.text);
        assert.match(r.text, new RegExp(`^File: f${i}\\.ts$`, "m"));
        assert.match(r.text, new RegExp(`function fn${i}\\b`));
        assert.match(r.text, new RegExp(`class C${i}\\b`));
      }
      for (const { i, r } of searches) {
        assert.equal(r.isError, false, r.text);
        assert.equal(r.text.trim(), `f${i}.ts:3: // token${i}x`);
      }
    } finally {
      await client.close();
    }
  });
});
