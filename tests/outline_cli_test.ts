// `fello outline` end to end, as a subprocess: folders and what it skips,
// --json, failures, permissions and the grammar folder.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import {
  baseEnv,
  type CliOutput,
  decoded,
  fello,
  MOD,
} from "./support/fello_cli.ts";
import { npmCacheFile } from "./support/npm_cache.ts";
import { withWorkspace, writeFiles } from "./support/workspace.ts";

const PACKAGE = dirname(MOD);

/** Runs `fello outline <args>` in `cwd`. */
function outline(
  args: string[],
  cwd: string,
  options: { env?: Record<string, string>; flags?: string[] } = {},
): Promise<CliOutput> {
  return fello(["outline", ...args], { cwd, ...options });
}

Deno.test("fello outline <folder> outlines each file in order, skipping .git, node_modules and .gitignore'd files", async () => {
  await withWorkspace(async (dir) => {
    await writeFiles(dir, {
      ".gitignore": "build/\n*.gen.ts\n",
      "src/b.py": "def b():\n    pass\n",
      "src/a.ts": "export function a() {}\n",
      "src/x.gen.ts": "export function gen() {}\n",
      "src/notes.txt": "not code\n",
      "README.md": "# Read me\n",
      ".git/hook.js": "function hook() {}\n",
      "node_modules/pkg/index.js": "function dep() {}\n",
      "build/out.js": "function out() {}\n",
    });
    const { code, stdout, stderr } = await outline(["."], dir);
    assert.equal(code, 0, stderr);
    assert.equal(stderr, "");
    assert.equal(
      stdout,
      [
        "File: README.md",
        "Language: Markdown",
        "Total lines: 1",
        "─── Symbols ───",
        "heading Read me (line 1)",
        "",
        "File: src/a.ts",
        "Language: TypeScript",
        "Total lines: 1",
        "─── Symbols ───",
        "function a (line 1)",
        "",
        "File: src/b.py",
        "Language: Python",
        "Total lines: 2",
        "─── Symbols ───",
        "def b (lines 1-2)",
        "",
      ].join("\n"),
    );
  });
});

Deno.test("fello outline prints outlineSymbols() results with --json and fails on a bad file", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(
      `${dir}/a.ts`,
      "/** Doc. */\nexport class A {\n  m() {}\n}\n",
    );
    const single = await outline(["--json", "a.ts"], dir);
    assert.equal(single.code, 0, single.stderr);
    assert.deepEqual(JSON.parse(single.stdout), {
      path: "a.ts",
      language: "TypeScript",
      totalLines: 4,
      symbols: [{
        kind: "class",
        name: "A",
        startLine: 2,
        endLine: 4,
        doc: "Doc.",
        children: [{
          kind: "method",
          name: "m",
          startLine: 3,
          endLine: 3,
          children: [],
        }],
      }],
    });
    // A folder is always an array, even when it holds one file.
    const folder = await outline(["--json", "."], dir);
    assert.equal(folder.code, 0, folder.stderr);
    const listed = JSON.parse(folder.stdout);
    assert.ok(Array.isArray(listed));
    assert.deepEqual(listed.map((r: { path: string }) => r.path), ["a.ts"]);
    const bad = await outline(["a.ts", "missing.go"], dir);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /^File: a\.ts\n/);
    assert.equal(
      bad.stderr,
      'fello outline: Cannot outline "missing.go": the file does not exist; check the path\n',
    );
  });
});

Deno.test("fello outline explains that workers need read access to the package", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ts`, "export function a() {}\n");
    const output = await outline(["a.ts"], dir, {
      flags: [`--allow-read=${dir}`],
    });
    assert.equal(output.code, 1);
    const folder = new URL("../outline/", import.meta.url).pathname;
    assert.equal(
      output.stderr,
      `fello outline: Deno denies reading "${folder}": run deno again with --allow-read=${folder} (or a parent folder)\n`,
    );
  });
});

Deno.test("fello outline loads grammars from FELLO_GRAMMARS_DIR when set", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.go`, "package main\n");
    const output = await outline(["a.go"], dir, {
      env: { FELLO_GRAMMARS_DIR: dir },
    });
    assert.equal(output.code, 1);
    assert.match(
      output.stderr,
      new RegExp(
        `^fello outline: Cannot outline "a\\.go": Cannot load the go grammar from "${dir}/tree-sitter-go\\.wasm": .*; put tree-sitter-go\\.wasm there or unset FELLO_GRAMMARS_DIR\\n$`,
      ),
    );
  });
});

Deno.test("fello outline <folder> that is missing or not readable says so, not that its file type is unsupported", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, { "src/a.ts": "export function a() {}\n" });
    const missing = await outline([join(ws, "no-such-dir")], ws);
    assert.equal(missing.code, 1);
    assert.doesNotMatch(missing.stderr, /file type is not supported/);
    assert.match(missing.stderr, /no-such-dir.*does not exist/);

    const denied = await outline([ws], ws, {
      flags: [`--allow-read=${PACKAGE},${join(ws, "src")}`, "--allow-env"],
    });
    assert.equal(denied.code, 1);
    assert.doesNotMatch(denied.stderr, /file type is not supported/);
    assert.match(denied.stderr, /--allow-read/);
  });
});

Deno.test("fello outline <folder> names a subfolder it cannot list and fails, instead of skipping it silently", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, {
      "b.ts": "export function b() {}\n",
      "src/a.ts": "export function a() {}\n",
    });
    const result = await outline([ws], ws, {
      flags: ["-A", `--deny-read=${join(ws, "src")}`],
    });
    assert.match(result.stdout, /^File: .*b\.ts$/m);
    assert.match(result.stderr, /src/);
    assert.equal(result.code, 1);
  });
});

Deno.test("fello outline <folder> of 2,000 files works under a low open-file limit (ulimit -n 128)", async () => {
  await withWorkspace(async (ws) => {
    const count = 2000;
    const names = Array.from({ length: count }, (_, i) => `f${i}.js`);
    await Promise.all(
      names.map((name, i) =>
        Deno.writeTextFile(
          join(ws, name),
          `export function f${i}(a) { return a; }\n`,
        )
      ),
    );
    // fello() cannot set the limit: the shell sets it, then runs the CLI.
    const output = await new Deno.Command("sh", {
      args: [
        "-c",
        `ulimit -n 128 && exec "$0" run -A "$1" outline "$2"`,
        Deno.execPath(),
        MOD,
        ws,
      ],
      env: baseEnv(),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).output();
    const { code, stdout, stderr } = decoded(output);
    assert.equal(stderr.slice(0, 2000), "");
    assert.equal(stdout.match(/^File: /gm)?.length ?? 0, count);
    assert.equal(code, 0);
  });
});

Deno.test("fello outline <folder> reads .gitignore case-sensitively, as git does", async () => {
  await withWorkspace(async (ws) => {
    await writeFiles(ws, {
      ".git/HEAD": "ref: refs/heads/main\n",
      ".gitignore": "core\n*.LOG\n",
      "Core/a.c": "int needle(void) { return 0; }\n",
    });
    const result = await outline([ws], ws);
    assert.match(result.stdout, /^File: .*Core\/a\.c$/m);
  });
});

Deno.test("fello outline runs its web workers with read access to the package and the workspace only, and from FELLO_GRAMMARS_DIR", async () => {
  await withWorkspace(async (ws) => {
    const src = join(ws, "src");
    const grammars = join(ws, "grammars");
    await writeFiles(src, {
      "m.go": "package main\n\nfunc F() {}\n",
      "i.ts": "export interface I {}\n",
    });
    await Deno.mkdir(grammars);
    await Deno.copyFile(
      await npmCacheFile("tree-sitter-go", "0.25.0", "tree-sitter-go.wasm"),
      join(grammars, "tree-sitter-go.wasm"),
    );
    const [plain, fromDir] = await Promise.all([
      // No --allow-env: the npm grammars, posted to the workers.
      outline(["."], src, {
        flags: [`--allow-read=${PACKAGE},${src}`],
      }),
      // The worker loads Go from the folder (node:path imported lazily there).
      outline(["m.go"], src, {
        env: { FELLO_GRAMMARS_DIR: grammars },
        flags: [`--allow-read=${PACKAGE},${ws}`, "--allow-env"],
      }),
    ]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /^File: i\.ts\n[^]*\nFile: m\.go\n[^]*func F/);
    assert.equal(fromDir.code, 0, fromDir.stderr);
    assert.match(fromDir.stdout, /^File: m\.go\nLanguage: Go\n[^]*func F/);
    assert.equal(fromDir.stderr, "");
  });
});

// Read access to exactly the folders its errors name: it outlines, or asks
// for the next folder up front; no worker crashes while loading its modules.
Deno.test("fello outline under read access to the folders it asks for asks for the rest up front instead of crashing workers", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "a.ts"), "export function a() {}\n");
    const folder = (name: string) => `${join(PACKAGE, name)}/`;
    const result = await outline(["a.ts"], ws, {
      flags: [
        `--allow-read=${ws},${folder("outline")},${folder("grammars")}`,
      ],
    });
    if (result.code === 0) {
      assert.match(result.stdout, /^File: a\.ts\n/);
    } else {
      const tools = folder("internal");
      assert.equal(
        result.stderr,
        `fello outline: Deno denies reading "${tools}": run deno again with --allow-read=${tools} (or a parent folder)\n`,
      );
    }
  });
});

Deno.test("fello outline of a 50 MB one-line .ts file fails fast, printing only its error", async () => {
  await withWorkspace(async (dir) => {
    const line = `const x = [${"1,".repeat(25 * 1024 * 1024 - 7)}1];`;
    await Deno.writeTextFile(join(dir, "x.ts"), `${line}\n`);
    const started = performance.now();
    const { code, stdout, stderr } = await outline(["x.ts"], dir);
    const ms = performance.now() - started;
    assert.equal(code, 1);
    assert.equal(stdout, "");
    assert.equal(
      stderr,
      `fello outline: Cannot outline "x.ts": line 1 is 52,428,800 bytes long, and an outline parses lines of up to 4 MiB (a longer one is generated code or data, which runs the parser out of memory); search it instead\n`,
    );
    // Only proves it ends: 10x the 3 s it may take on a quiet machine.
    assert.ok(ms < 30_000, `${Math.round(ms)} ms`);
  });
});
