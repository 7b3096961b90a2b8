// The `outline` command end to end, as a subprocess.
import assert from "node:assert/strict";

const MOD = new URL("../mod.ts", import.meta.url).pathname;

async function run(args: string[], cwd: string) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD, "outline", ...args],
    cwd,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

Deno.test("outline command outlines a folder, skipping .git, node_modules and .gitignore'd files", async () => {
  const dir = await Deno.makeTempDir();
  try {
    for (const folder of ["src", ".git", "node_modules/pkg", "build"]) {
      await Deno.mkdir(`${dir}/${folder}`, { recursive: true });
    }
    await Deno.writeTextFile(`${dir}/.gitignore`, "build/\n*.gen.ts\n");
    await Deno.writeTextFile(`${dir}/src/b.py`, "def b():\n    pass\n");
    await Deno.writeTextFile(`${dir}/src/a.ts`, "export function a() {}\n");
    await Deno.writeTextFile(
      `${dir}/src/x.gen.ts`,
      "export function gen() {}\n",
    );
    await Deno.writeTextFile(`${dir}/src/notes.txt`, "not code\n");
    await Deno.writeTextFile(`${dir}/README.md`, "# Read me\n");
    await Deno.writeTextFile(`${dir}/.git/hook.js`, "function hook() {}\n");
    await Deno.writeTextFile(
      `${dir}/node_modules/pkg/index.js`,
      "function dep() {}\n",
    );
    await Deno.writeTextFile(`${dir}/build/out.js`, "function out() {}\n");
    const { code, stdout, stderr } = await run(["."], dir);
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
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("outline command prints outlineSymbols results with --json and fails on a bad file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(
      `${dir}/a.ts`,
      "/** Doc. */\nexport class A {\n  m() {}\n}\n",
    );
    const single = await run(["--json", "a.ts"], dir);
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
    const folder = await run(["--json", "."], dir);
    assert.equal(folder.code, 0, folder.stderr);
    const listed = JSON.parse(folder.stdout);
    assert.ok(Array.isArray(listed));
    assert.deepEqual(listed.map((r: { path: string }) => r.path), ["a.ts"]);
    const bad = await run(["a.ts", "missing.go"], dir);
    assert.equal(bad.code, 1);
    assert.match(bad.stdout, /^File: a\.ts\n/);
    assert.equal(
      bad.stderr,
      'fello outline: Cannot outline "missing.go": the file does not exist; check the path\n',
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("outline command explains that workers need read access to the package", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.ts`, "export function a() {}\n");
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", `--allow-read=${dir}`, MOD, "outline", "a.ts"],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    assert.equal(output.code, 1);
    const folder = new URL("../outline/", import.meta.url).pathname;
    assert.equal(
      new TextDecoder().decode(output.stderr),
      `fello outline: Deno denies reading "${folder}": run deno again with --allow-read=${folder} (or a parent folder)\n`,
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("outline command loads grammars from FELLO_GRAMMARS_DIR when set", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.go`, "package main\n");
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", MOD, "outline", "a.go"],
      cwd: dir,
      env: { FELLO_GRAMMARS_DIR: dir },
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output();
    assert.equal(output.code, 1);
    assert.match(
      new TextDecoder().decode(output.stderr),
      new RegExp(
        `^fello outline: Cannot outline "a\\.go": Cannot load the go grammar from "${dir}/tree-sitter-go\\.wasm": .*; put tree-sitter-go\\.wasm there or unset FELLO_GRAMMARS_DIR\\n$`,
      ),
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
