// The local modules a worker loads, for tests that keep a worker's read
// check (the folders it asks Deno for before starting) in step with them.
import assert from "node:assert/strict";

/**
 * The local modules of `worker`'s module graph, dynamic imports included,
 * that lie in none of `folders`.
 */
export async function modulesOutside(
  worker: URL,
  folders: readonly URL[],
): Promise<string[]> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", worker.pathname],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(info.code, 0, new TextDecoder().decode(info.stderr));
  const { modules } = JSON.parse(new TextDecoder().decode(info.stdout)) as {
    modules: { specifier: string }[];
  };
  const local = modules.map((m) => m.specifier)
    .filter((specifier) => specifier.startsWith("file:"));
  assert.ok(local.length > 1, `the graph of ${worker.pathname}`);
  return local.filter((specifier) =>
    !folders.some((folder) => specifier.startsWith(folder.href))
  );
}
