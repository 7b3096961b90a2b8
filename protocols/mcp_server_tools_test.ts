// The Search MCP server's tools as an MCP client sees them: `fello mcp` over
// stdio, driven by the official client.
import assert from "node:assert/strict";
import { join } from "node:path";
import { callText, connectMcp } from "../tests/support/mcp_client.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

function hasRipgrep(): boolean {
  try {
    return new Deno.Command("rg", { args: ["--version"], stdout: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

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
      assert.equal(rg.isError, !hasRipgrep());
      if (!rg.isError) {
        assert.equal(rg.text.trim(), "2:export function load() {}");
      }
    } finally {
      await client.close();
    }
  });
});
