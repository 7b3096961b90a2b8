// `deno task npm`: builds the npm package in dist/npm/ and packs it as
// dist/fello-agent-<version>.tgz, for Bun (`bun add <tarball>`). The package
// ships the TypeScript sources as they are (Bun runs them); its dependencies
// are deno.json's pinned npm imports that the shipped code uses (deno.json
// itself ships: the CLI reads its version from it).
import { dirname, join, relative } from "node:path";

const ROOT = join(import.meta.dirname!, "..");
const OUT = join(ROOT, "dist", "npm");

interface DenoJson {
  name: string;
  version: string;
  license: string;
  imports: Record<string, string>;
  publish: { exclude: string[] };
}

const config: DenoJson = JSON.parse(
  await Deno.readTextFile(join(ROOT, "deno.json")),
);

/** What JSR publishes is what npm gets: deno.json's publish exclusions. */
function isShipped(path: string): boolean {
  if (path.endsWith("_test.ts")) return false;
  if (["deno.lock", "package.json", "bun.lock"].includes(path)) {
    return false;
  }
  return !config.publish.exclude.some((pattern) =>
    pattern.endsWith("/") && path.startsWith(pattern)
  ) && !path.startsWith(".") && !path.startsWith("scripts/");
}

async function gitFiles(): Promise<string[]> {
  const out = await new Deno.Command("git", {
    args: ["ls-files", "--cached", "--others", "--exclude-standard"],
    cwd: ROOT,
    stdout: "piped",
  }).output();
  if (!out.success) throw new Error("git ls-files failed");
  return new TextDecoder().decode(out.stdout).split("\n").filter(Boolean);
}

const files = (await gitFiles()).filter(isShipped).filter((path) => {
  try {
    return Deno.statSync(join(ROOT, path)).isFile;
  } catch {
    return false; // deleted in the working tree
  }
});

await Deno.remove(join(ROOT, "dist"), { recursive: true }).catch(() => {});
const used = new Set<string>();
for (const path of files) {
  await Deno.mkdir(dirname(join(OUT, path)), { recursive: true });
  await Deno.copyFile(join(ROOT, path), join(OUT, path));
  if (!/\.(ts|js)$/.test(path)) continue;
  const text = await Deno.readTextFile(join(ROOT, path));
  for (
    const match of text.matchAll(/(?:from|import)\s*\(?\s*"([^".][^"]*)"/g)
  ) {
    const name = match[1].startsWith("@")
      ? match[1].split("/").slice(0, 2).join("/")
      : match[1].split("/")[0];
    if (name in config.imports) used.add(name);
  }
}
// The grammar packages: read at run time from GRAMMARS' table.
for (const name of Object.keys(config.imports)) {
  if (/tree-sitter/.test(name)) used.add(name);
}

const dependencies: Record<string, string> = {};
for (const name of [...used].sort()) {
  const spec = config.imports[name].replace(/^npm:/, "");
  dependencies[name] = spec.slice(spec.lastIndexOf("@") + 1);
}

await Deno.writeTextFile(
  join(OUT, "fello.ts"),
  `#!/usr/bin/env bun
// The \`fello\` command of the npm package.
import { main } from "./cli/main.ts";
import { runtime } from "./internal/runtime/runtime.ts";

runtime.exit(await main(runtime.args));
`,
  { mode: 0o755 },
);

const packageJson = {
  name: config.name,
  version: config.version,
  description:
    "A scriptable coding-agent runtime: built-in tools, outlines and an agent loop for any OpenAI-compatible endpoint",
  license: config.license,
  type: "module",
  exports: {
    ".": { types: "./mod.ts", bun: "./mod.ts", default: "./mod.ts" },
    "./package.json": "./package.json",
  },
  types: "./mod.ts",
  bin: { fello: "./fello.ts" },
  engines: { bun: ">=1.2" },
  dependencies,
  // The grammar packages' native builds are not needed: the .wasm is used.
  trustedDependencies: [],
};
await Deno.writeTextFile(
  join(OUT, "package.json"),
  JSON.stringify(packageJson, null, 2) + "\n",
);

const pack = await new Deno.Command("npm", {
  args: ["pack", "--silent", "--pack-destination", ".."],
  cwd: OUT,
  stdout: "piped",
  stderr: "inherit",
}).output();
if (!pack.success) Deno.exit(pack.code);
const tarball = new TextDecoder().decode(pack.stdout).trim().split("\n").at(
  -1,
)!;
const size = (await Deno.stat(join(OUT, "..", tarball))).size;
console.log(
  `${relative(ROOT, join(OUT, "..", tarball))} (${
    (size / 1024).toFixed(0)
  } KiB, ${files.length + 2} files, ${used.size} dependencies)`,
);
