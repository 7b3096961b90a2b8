// The layout holds: every module of the package imports only its own layer or
// the layers below it, a `_` file is private to its folder, and no modules
// import each other in a circle.
import assert from "node:assert/strict";
import { dirname, join, normalize, relative } from "node:path";
import { moduleGraph } from "./support/module_graph.ts";
import { isPackageSource, packageSources } from "./support/package_sources.ts";

const ROOT = normalize(join(import.meta.dirname!, ".."));

/** Bottom to top; a module may import its own layer and the ones below. */
const LAYERS = [
  "internal",
  "grammars",
  "outline",
  "tools",
  "agent",
  "protocols",
  "cli",
  "mod.ts",
];

interface Edges {
  /** Modules it imports, statically or with a literal `import()`. */
  imports: string[];
  /**
   * Modules it names by `new URL("...", import.meta.url)`: worker scripts it
   * starts, and modules it imports lazily (internal/lazy_import.ts).
   */
  workers: string[];
}

/** A module's local imports and worker scripts, as paths from the root. */
function localEdges(path: string, text: string): Edges {
  const code = text.replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const scan = (patterns: RegExp[]) => {
    const found = new Set<string>();
    for (const pattern of patterns) {
      for (const match of code.matchAll(pattern)) {
        const target = normalize(join(dirname(path), match[1]));
        if (/\.(ts|js)$/.test(target)) found.add(target);
      }
    }
    return [...found];
  };
  return {
    imports: scan([
      /\b(?:import|export)\b[^"'`;]*?\bfrom\s*["'](\.{1,2}\/[^"']+)["']/g,
      /\bimport\s*["'](\.{1,2}\/[^"']+)["']/g,
      /\bimport\s*\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g,
    ]),
    workers: scan([
      /\bnew URL\(\s*["'](\.{1,2}\/[^"']+)["']\s*,\s*import\.meta\.url/g,
    ]),
  };
}

function layerOf(path: string): number {
  const top = path.includes("/") ? path.slice(0, path.indexOf("/")) : path;
  return LAYERS.indexOf(top);
}

async function graph(): Promise<Map<string, Edges>> {
  const edges = new Map<string, Edges>();
  for await (const path of packageSources(ROOT)) {
    edges.set(
      path,
      localEdges(path, await Deno.readTextFile(join(ROOT, path))),
    );
  }
  return edges;
}

Deno.test("every package module lives in a known layer", async () => {
  const stray = [...(await graph()).keys()].filter((path) => layerOf(path) < 0);
  assert.deepEqual(stray, []);
});

Deno.test("no package module imports a layer above its own", async () => {
  const upward: string[] = [];
  for (const [from, { imports, workers }] of await graph()) {
    for (const to of [...imports, ...workers]) {
      if (layerOf(to) > layerOf(from)) upward.push(`${from} -> ${to}`);
    }
  }
  assert.deepEqual(upward, []);
});

/**
 * A `_` module is private to its folder: used there, in the folder's own
 * subfolders, and by the folder's parent, whose face it serves; never from a
 * sibling folder or another layer.
 */
function mayUsePrivate(from: string, to: string): boolean {
  const home = dirname(to);
  const user = dirname(from);
  return user === home || user.startsWith(`${home}/`) ||
    user === dirname(home);
}

Deno.test("a _ module is imported only from its own folder", async () => {
  const reached: string[] = [];
  for (const [from, { imports, workers }] of await graph()) {
    for (const to of [...imports, ...workers]) {
      const name = to.slice(to.lastIndexOf("/") + 1);
      if (name.startsWith("_") && !mayUsePrivate(from, to)) {
        reached.push(`${from} -> ${to}`);
      }
    }
  }
  assert.deepEqual(reached, []);
});

Deno.test("no modules import each other in a circle", async () => {
  // A worker's script is started, not imported, and a lazy import runs after
  // the importing module has loaded: neither is an edge of a circle.
  const edges = await graph();
  const circles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of edges.get(node)?.imports ?? []) {
      if (state.get(next) === "open") {
        circles.push([...stack.slice(stack.indexOf(next)), next].join(" -> "));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of edges.keys()) if (!state.has(node)) visit(node);
  assert.deepEqual(circles, []);
});

Deno.test("the import scan finds every local edge Deno's own graph has", async () => {
  const modules = await moduleGraph(join(ROOT, "mod.ts"));
  const edges = await graph();
  const missed: string[] = [];
  for (const module of modules) {
    if (!module.specifier.startsWith(`file://${ROOT}/`)) continue;
    const from = relative(ROOT, new URL(module.specifier).pathname);
    if (!edges.has(from)) continue;
    for (const dependency of module.dependencies ?? []) {
      const target = dependency.code?.specifier;
      if (!target?.startsWith(`file://${ROOT}/`)) continue;
      const to = relative(ROOT, new URL(target).pathname);
      if (isPackageSource(to) && !edges.get(from)!.imports.includes(to)) {
        missed.push(`${from} -> ${to}`);
      }
    }
  }
  assert.ok(edges.size > 100, `only ${edges.size} modules found`);
  assert.deepEqual(missed, []);
});
