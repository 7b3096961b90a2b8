// The package's own source files, as the layout tests see them: every .ts and
// .js file but tests, benches, their support, dev scripts and dot folders.
import { join } from "node:path";

/** Whether `path` (relative to the root, `/`-separated) is package source. */
export function isPackageSource(path: string): boolean {
  return /\.(ts|js)$/.test(path) && !path.endsWith("_test.ts") &&
    !path.startsWith("tests/") && !path.startsWith("bench/") &&
    !path.startsWith("scripts/") && !path.startsWith(".");
}

/**
 * The package source files below `root`, as paths relative to it; dot
 * entries, node_modules and dist are skipped.
 */
export async function* packageSources(
  root: string,
  folder = "",
): AsyncGenerator<string> {
  for await (const entry of Deno.readDir(join(root, folder))) {
    const path = folder ? `${folder}/${entry.name}` : entry.name;
    if (
      entry.name.startsWith(".") || entry.name === "node_modules" ||
      entry.name === "dist"
    ) continue;
    if (entry.isDirectory) yield* packageSources(root, path);
    else if (isPackageSource(path)) yield path;
  }
}
