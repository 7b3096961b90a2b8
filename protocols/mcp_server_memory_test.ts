// `fello mcp` with huge inputs (an 11 MB pattern, a very long match line),
// driven by the official MCP client.
import assert from "node:assert/strict";
import { join } from "node:path";
import { connectMcp } from "../tests/support/mcp_client.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

function firstText(result: { content?: unknown }): string {
  return (result.content as { text: string }[])[0].text;
}
Deno.test({
  name: "fello mcp survives a search call with an 11 MB pattern",
  async fn() {
    await withWorkspace(async (dir) => {
      await Deno.writeTextFile(join(dir, "a.txt"), "needle here\n");
      const client = await connectMcp({
        workspace: dir,
        name: "mcp-server-memory",
      });
      try {
        let first: string;
        try {
          first = firstText(
            await client.callTool({
              name: "search",
              arguments: { pattern: "x".repeat(11_000_000) },
            }),
          );
        } catch (error) {
          first = `call failed: ${error}`;
        }
        assert.doesNotMatch(first, /call failed/);
        const second = await client.callTool({
          name: "search",
          arguments: { pattern: "needle" },
        });
        assert.match(firstText(second), /a\.txt:1: needle here/);
      } finally {
        await client.close();
      }
    });
  },
});

Deno.test({
  name: "fello mcp rg keeps the start of a match line longer than its limit",
  async fn() {
    await withWorkspace(async (dir) => {
      await Deno.writeTextFile(join(dir, "line.txt"), "abcd".repeat(50_000));
      const client = await connectMcp({
        workspace: dir,
        name: "mcp-server-memory",
      });
      try {
        const result = await client.callTool({
          name: "rg",
          arguments: { args: ["--max-columns=0", "abcd", "line.txt"] },
        });
        assert.match(firstText(result), /1:abcdabcd/);
      } finally {
        await client.close();
      }
    });
  },
});
