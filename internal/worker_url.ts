// Where a worker thread (_thread.ts) starts from, for this package loaded
// from disk or from a registry.
import { fileURLToPath } from "node:url";
import { requireDenoPermission } from "./deno_permission.ts";

/**
 * The URL to start a worker module from: node:worker_threads (the threads'
 * fallback) takes only file: and data: URLs, so a remote module (the package
 * loaded from JSR over https:) is wrapped in a data: module that imports it.
 */
export function workerUrl(url: URL): URL {
  if (url.protocol === "file:") return url;
  const source = `import ${JSON.stringify(url.href)};`;
  return new URL(`data:text/javascript,${encodeURIComponent(source)}`);
}

/**
 * Requires Deno's read grant on each local folder a worker loads its modules
 * from (asking on a terminal): without it the worker would fail as it starts.
 * A remote folder needs none.
 */
export async function requireWorkerFolders(
  folders: readonly URL[],
): Promise<void> {
  for (const folder of folders) {
    if (folder.protocol !== "file:") continue;
    await requireDenoPermission({ name: "read", path: fileURLToPath(folder) });
  }
}
