// The npm packages a command makes Deno fetch before it runs: only the tools'
// and the outline's (the AI SDK, jimp, the MCP and ACP SDKs and the grammars
// load lazily), and the deno.json settings that keep Deno from fetching the
// rest of the lock or warning about build scripts. The downloads themselves
// are measured by `deno task test:first-run`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { startupPackages } from "../tests/support/module_graph.ts";

const ROOT = join(import.meta.dirname!, "..");

/** The package names (no versions) `path`'s start-up graph reaches. */
async function startupNames(path: string): Promise<string[]> {
  return (await startupPackages(join(ROOT, path))).map((nv) =>
    nv.slice(0, nv.lastIndexOf("@"))
  );
}

Deno.test("mod.ts starts with the tools' and the outline's npm packages only", async () => {
  assert.deepEqual(await startupNames("mod.ts"), [
    "diff",
    "ignore",
    "web-tree-sitter",
    "zod",
  ]);
});

Deno.test("fello outline starts with no npm package beyond mod.ts's", async () => {
  const start = new Set(await startupNames("mod.ts"));
  const extra = (await startupNames("cli/outline.ts"))
    .filter((name) => !start.has(name));
  assert.deepEqual(extra, []);
});

Deno.test("fello run starts without the AI SDK and jimp", async () => {
  const names = await startupNames("cli/run.ts");
  assert.ok(names.includes("zod"), names.join(" "));
  assert.deepEqual(
    names.filter((name) => /^(ai|@ai-sdk\/|@jimp\/)/.test(name)),
    [],
  );
});

Deno.test("deno.json caches npm packages lazily and denies every locked build script", async () => {
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const lock = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.lock")));
  // With a lock and eager caching Deno installs every locked package as soon
  // as one npm package is needed.
  assert.ok(config.unstable.includes("npm-lazy-caching"));
  const denied = new Set<string>(config.allowScripts.deny);
  const withScripts = Object.entries(lock.npm)
    .filter(([, entry]) => (entry as { scripts?: boolean }).scripts)
    .map(([id]) => `npm:${id.slice(0, id.indexOf("@", 1))}`);
  assert.ok(withScripts.includes("npm:tree-sitter-go"), withScripts.join(" "));
  assert.deepEqual(withScripts.filter((name) => !denied.has(name)), []);
});

Deno.test("fello mcp and fello acp start without the MCP and ACP SDKs", async () => {
  for (const command of ["cli/mcp.ts", "cli/acp.ts"]) {
    const names = await startupNames(command);
    assert.deepEqual(
      names.filter((name) =>
        /^(@modelcontextprotocol|@agentclientprotocol)\//.test(name)
      ),
      [],
      command,
    );
  }
});
