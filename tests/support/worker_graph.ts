// The local modules a worker loads, for tests that keep a worker's read
// check (the folders it asks Deno for before starting) in step with them.
import assert from "node:assert/strict";
import { moduleGraph } from "./module_graph.ts";

/**
 * The local modules of `worker`'s module graph, dynamic imports included,
 * that lie in none of `folders`.
 */
export async function modulesOutside(
  worker: URL,
  folders: readonly URL[],
): Promise<string[]> {
  const modules = await moduleGraph(worker.pathname);
  const local = modules.map((m) => m.specifier)
    .filter((specifier) => specifier.startsWith("file:"));
  assert.ok(local.length > 1, `the graph of ${worker.pathname}`);
  return local.filter((specifier) =>
    !folders.some((folder) => specifier.startsWith(folder.href))
  );
}
