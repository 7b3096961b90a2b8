// The repo map end to end: on real published code in several languages, as
// `fello map`, and as the Search MCP server's `repo_map`.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { repoMap } from "../mod.ts";
import { estimateTokens } from "../internal/tokens.ts";
import { fello } from "./support/fello_cli.ts";
import { callText, connectMcp } from "./support/mcp_client.ts";
import { npmCacheFile } from "./support/npm_cache.ts";
import { withWorkspace, writeFiles } from "./support/workspace.ts";

/** Published packages in Deno's cache: TypeScript, JavaScript, C, Python, Go, Go. */
const PACKAGES: [string, string][] = [
  ["zod", "4.6.7"],
  ["diff", "9.0.0"],
  ["tree-sitter-python", "0.25.0"],
  ["tree-sitter-go", "0.25.0"],
];

async function packageFolder(name: string, version: string): Promise<string> {
  return dirname(await npmCacheFile(name, version, "package.json"));
}

Deno.test("repoMap() maps published packages within the budget, ignored folders left out", async () => {
  await withWorkspace(async (root) => {
    for (const [name, version] of PACKAGES) {
      const from = await packageFolder(name, version);
      await copyTree(from, join(root, name));
    }
    // The same code again where a map must not look.
    await copyTree(
      await packageFolder("diff", "9.0.0"),
      join(root, "node_modules", "diff"),
    );
    await copyTree(await packageFolder("diff", "9.0.0"), join(root, "dist"));
    await writeFiles(root, { ".gitignore": "zod/v3/\n" });
    for (const tokens of [256, 1024, 8192]) {
      const map = await repoMap(root, {
        tokens,
        cacheDir: join(root, ".map-cache"),
      });
      assert.ok(
        estimateTokens(map) <= tokens,
        `${estimateTokens(map)} > ${tokens}`,
      );
      assert.ok(
        estimateTokens(map) >= tokens * 0.9,
        `${estimateTokens(map)} < 90% of ${tokens}`,
      );
      const files = map.split("\n").filter((line) =>
        /^\S/.test(line) && !line.startsWith("(")
      );
      assert.ok(files.length > 0);
      for (const file of files) {
        assert.doesNotMatch(file, /^(node_modules|dist)\/|^zod\/v3\//, file);
      }
    }
    // Python's own standard library, as Debian ships it, where present.
    const python = [...Deno.readDirSync("/usr/lib")].find((entry) =>
      /^python3\.\d+$/.test(entry.name)
    );
    if (python) {
      await copyTree(`/usr/lib/${python.name}/json`, join(root, "json"));
    }
    const big = await repoMap(root, {
      tokens: 16_384,
      cacheDir: join(root, ".map-cache"),
      focus: [
        "tree-sitter-python/src/scanner.c",
        "diff/libesm/diff/base.js",
        ...python ? ["json/decoder.py"] : [],
      ],
    });
    assert.ok(estimateTokens(big) <= 16_384);
    for (const language of [/\.ts$/m, /\.js$/m, /\.c$/m]) {
      assert.match(big, language);
    }
    if (python) assert.match(big, /^json\/\w+\.py$/m);
  });
});

Deno.test("fello map prints the map, with --focus and --json, and refuses a bad budget", async () => {
  await withWorkspace(async (root) => {
    await writeFiles(root, {
      "a.go": "package a\n\nfunc Run() {\n\tParse()\n}\n",
      "b.go": "package a\n\nfunc Parse() {}\n\nfunc Unused() {}\n",
    });
    const env = { FELLO_STATE_DIR: join(root, ".state") };
    const plain = await fello(["map", "--focus", "a.go", "."], {
      cwd: root,
      env,
    });
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /^b\.go\n {4}func Parse \(line 3\)\n/);
    const json = await fello(["map", "--json", "--tokens", "300"], {
      cwd: root,
      env,
    });
    assert.equal(json.code, 0, json.stderr);
    const parsed = JSON.parse(json.stdout);
    assert.equal(parsed.tokens, 300);
    assert.match(parsed.map, /func Parse/);
    const bad = await fello(["map", "--tokens", "10"], { cwd: root, env });
    assert.equal(bad.code, 2);
    assert.match(
      bad.stderr,
      /--tokens needs a whole number of at least 256, got "10"/,
    );
    const missing = await fello(["map", "nowhere"], { cwd: root, env });
    assert.equal(missing.code, 1);
    assert.match(
      missing.stderr,
      /^fello map: Cannot map ".*nowhere": no such folder/,
    );
  });
});

Deno.test("the Search MCP server's repo_map answers with the map", async () => {
  await withWorkspace(async (root) => {
    await writeFiles(root, {
      "a.py": "from b import parse\n\nparse('x')\n",
      "b.py": "def parse(text):\n    return text\n",
    });
    const client = await connectMcp({
      workspace: root,
      env: { ...Deno.env.toObject(), FELLO_STATE_DIR: join(root, ".state") },
    });
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === "repo_map"));
      const { text, isError } = await callText(client, "repo_map", {
        focus: ["a.py"],
        tokens: 256,
      });
      assert.equal(isError, false, text);
      assert.match(text, /^b\.py\n {4}def parse \(lines 1-2\)$/m);
    } finally {
      await client.close();
    }
  });
});

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.name.startsWith(".")) continue;
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory) await copyTree(source, target);
    else if (entry.isFile) await Deno.copyFile(source, target);
  }
}
