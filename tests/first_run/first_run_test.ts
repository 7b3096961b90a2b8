// What a first run downloads: each case runs the CLI from this checkout with
// an empty DENO_DIR (so Deno fetches from the npm registry, as on a new
// machine) and measures what the folder then holds. Needs the network; run by
// `deno task test:first-run`, apart from `deno task test`.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fello } from "../support/fello_cli.ts";

const ROOT = join(import.meta.dirname!, "..", "..");
const GO_FILE = join(ROOT, "tests/fixtures/outline/sample.go");
const MB = 1_000_000;

/** The bytes of every file under `dir`. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) total += await folderBytes(path);
    else if (entry.isFile) total += (await Deno.lstat(path)).size;
  }
  return total;
}

/** The npm packages (`name` or `@scope/name`) Deno fetched into `denoDir`. */
async function fetchedPackages(denoDir: string): Promise<string[]> {
  const registry = join(denoDir, "npm", "registry.npmjs.org");
  const names: string[] = [];
  for await (const entry of Deno.readDir(registry)) {
    if (!entry.name.startsWith("@")) names.push(entry.name);
    else {
      for await (const inner of Deno.readDir(join(registry, entry.name))) {
        names.push(`${entry.name}/${inner.name}`);
      }
    }
  }
  return names.sort();
}

/**
 * The variables by which Deno reaches the npm registry here: a proxy, a
 * certificate authority, another registry.
 */
function networkEnv(): Record<string, string> {
  const names =
    /^(https?_proxy|no_proxy|ssl_cert_(file|dir)|node_extra_ca_certs|deno_cert|deno_tls_ca_store|npm_config_registry|deno_auth_tokens)$/i;
  return Object.fromEntries(
    Object.entries(Deno.env.toObject()).filter(([name]) => names.test(name)),
  );
}

/** Runs the CLI with `args` and an empty DENO_DIR; what it printed and left. */
async function firstRun(args: string[]) {
  const denoDir = await Deno.makeTempDir({ prefix: "fello_deno_dir_" });
  try {
    const env = { ...networkEnv(), DENO_DIR: denoDir };
    const out = await fello(args, { cwd: ROOT, env });
    assert.equal(out.code, 0, out.stderr);
    return {
      ...out,
      bytes: await folderBytes(denoDir),
      packages: await fetchedPackages(denoDir),
    };
  } finally {
    await Deno.remove(denoDir, { recursive: true });
  }
}

/** What only the agent, the protocols and the grammars need. */
const LAZY =
  /^(ai|@ai-sdk\/.*|@jimp\/.*|@modelcontextprotocol\/.*|@agentclientprotocol\/.*|.*tree-sitter-(?!wasm).*|@repomix\/.*)$/;

Deno.test("fello --help on an empty DENO_DIR fetches under 30 MB and warns of no build script", async () => {
  const run = await firstRun(["--help"]);
  assert.match(run.stdout, /^fello \d+\.\d+\.\d+: /);
  assert.deepEqual(run.packages.filter((name) => LAZY.test(name)), []);
  assert.doesNotMatch(run.stderr, /build scripts/i);
  assert.ok(run.bytes < 30 * MB, `${(run.bytes / MB).toFixed(1)} MB`);
});

Deno.test("fello outline of a .go file on an empty DENO_DIR fetches under 40 MB, one grammar, no build-script warning", async () => {
  const run = await firstRun(["outline", GO_FILE]);
  assert.match(run.stdout, /^Language: Go$/m);
  assert.deepEqual(run.packages.filter((name) => LAZY.test(name)), [
    "tree-sitter-go",
  ]);
  assert.doesNotMatch(run.stderr, /build scripts/i);
  assert.ok(run.bytes < 40 * MB, `${(run.bytes / MB).toFixed(1)} MB`);
});
