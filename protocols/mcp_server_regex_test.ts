// The MCP server's search tool with regex patterns: a cancelled stuck match
// does not hold up the next search, nor the server's exit.
import assert from "node:assert/strict";
import { join } from "node:path";
import { connectMcp } from "../tests/support/mcp_client.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("the MCP server answers regex searches around a cancelled stuck one, then exits on its own", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "needle 1\nfoo\nneedle 2\n");
    await Deno.writeTextFile(join(dir, "stuck.txt"), `${"a".repeat(40)}\n`);
    const client = await connectMcp({ workspace: dir });
    // Its child process, to see whether it ended by itself or was killed.
    const child = (client.transport as unknown as {
      _process: {
        once(
          event: "exit",
          listener: (code: number | null, signal: string | null) => void,
        ): void;
      };
    })._process;
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      child.once("exit", (code, signal) => resolve([code, signal]))
    );
    const search = (pattern: string, path: string, signal?: AbortSignal) =>
      client.callTool(
        { name: "search", arguments: { pattern, regex: true, path } },
        { signal },
      );
    const text = async (pattern: string, path: string) => {
      const result = await search(pattern, path);
      return (result.content as { text: string }[])[0].text;
    };
    try {
      assert.equal(
        await text("ne+dle \\d", "a.txt"),
        "a.txt:1: needle 1\na.txt:3: needle 2",
      );
      const cancel = new AbortController();
      const stuck = search("(?=a)(a|a)*b", "stuck.txt", cancel.signal);
      setTimeout(() => cancel.abort(), 300);
      await assert.rejects(stuck);
      // The cancelled match still spins in its worker (stopped at the
      // budget); the next search gets a worker of its own.
      assert.equal(await text("^foo$", "a.txt"), "a.txt:2: foo");
    } finally {
      // Ends the server's stdin; it is killed only if still alive 2 s later.
      await client.close();
    }
    assert.deepEqual(await exited, [0, null]);
  });
});
