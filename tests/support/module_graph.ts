// Deno's module graph of a file (`deno info --json`), for tests of what a
// module reaches: local edges, a worker's modules, the npm packages it needs.
import assert from "node:assert/strict";

/** A module of the graph and what it imports. */
export interface GraphModule {
  specifier: string;
  dependencies?: {
    /** Set when the import loads code; a type-only import has only `type`. */
    code?: { specifier: string };
    type?: { specifier: string };
    isDynamic?: boolean;
  }[];
}

/** The modules of `path`'s graph: static and literal dynamic imports, types too. */
export async function moduleGraph(path: string): Promise<GraphModule[]> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", path],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(info.code, 0, new TextDecoder().decode(info.stderr));
  return JSON.parse(new TextDecoder().decode(info.stdout)).modules;
}

/**
 * The npm packages (`name@version`) that running `path` makes Deno fetch
 * before a line runs: those reached from it by imports that load code
 * (static or literal dynamic ones; a computed specifier is no edge).
 */
export async function startupPackages(path: string): Promise<string[]> {
  const modules = new Map(
    (await moduleGraph(path)).map((module) => [module.specifier, module]),
  );
  const root = new URL(path, "file:///").href;
  const seen = new Set<string>([root]);
  const queue = [root];
  const packages = new Set<string>();
  while (queue.length > 0) {
    for (const dependency of modules.get(queue.pop()!)?.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (target === undefined || seen.has(target)) continue;
      seen.add(target);
      const npm = /^npm:\/?((?:@[^/@]+\/)?[^/@]+@[^/_]+)/.exec(target);
      if (npm) packages.add(npm[1]);
      else queue.push(target);
    }
  }
  return [...packages].sort();
}
