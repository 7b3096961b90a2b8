// `fello outline` as a subprocess: usage errors and what it says about
// folders and grammars.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fello, spawnFello } from "../tests/support/fello_cli.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("fello outline: a folder with no supported file says so", async () => {
  await withWorkspace(async (dir) => {
    await Deno.mkdir(join(dir, "docs"));
    await Deno.writeTextFile(join(dir, "docs", "notes.txt"), "hello\n");
    const out = await fello(["outline", "docs"], { cwd: dir });
    assert.match(out.stderr, /docs/);
    assert.match(out.stderr, /no\b.*\bfiles?\b/i);
  });
});

Deno.test("fello outline: no path is a usage error (exit 2, usage on stderr)", async () => {
  await withWorkspace(async (dir) => {
    const out = await fello(["outline"], { cwd: dir });
    assert.equal(out.code, 2);
    assert.equal(out.stdout, "");
    assert.match(out.stderr, /Usage: fello outline/);
  });
});

Deno.test("fello outline: --max-symbols 0 is a usage error naming the flag", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.ts"), "export const a = 1;\n");
    const out = await fello(["outline", "--max-symbols", "0", "a.ts"], {
      cwd: dir,
    });
    assert.equal(out.code, 2);
    assert.match(out.stderr, /--max-symbols/);
  });
});

Deno.test("fello outline --grammars-dir: a missing grammar's error names the flag", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.ts"), "export const a = 1;\n");
    const out = await fello(
      ["outline", "--grammars-dir", join(dir, "none"), "a.ts"],
      { cwd: dir },
    );
    assert.notEqual(out.code, 0);
    assert.match(out.stderr, /--grammars-dir/);
  });
});

Deno.test("fello outline: renamed 'using' / 'abstract' come back in names, docs and --json, with no '$' left", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "k.ts");
    await Deno.writeTextFile(
      path,
      [
        "export class Metadata {",
        "  abstract?: string;",
        "  /** Set abstract: the text. */",
        "  abstract(x: number): void {}",
        "}",
        "export function findProviders(using: any, abstract = 1) {}",
        "export interface I {",
        "  abstract: string;",
        "}",
        "",
      ].join("\n"),
    );
    const out = await fello(["outline", "--json", path], { cwd: dir });
    assert.equal(out.code, 0, out.stderr);
    assert.ok(!out.stdout.includes("$"), out.stdout);
    const { symbols } = JSON.parse(out.stdout);
    assert.deepEqual(
      symbols[0].children.map((s: { name: string }) => s.name),
      ["abstract", "abstract"],
    );
    assert.equal(symbols[0].children[1].doc, "Set abstract: the text.");
    assert.equal(symbols[1].name, "findProviders");
    assert.equal(symbols[2].children[0].name, "abstract");
  });
});

Deno.test("fello outline --json reports a path it cannot outline as JSON too", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.ts"), "export const a = 1;\n");
    const one = await fello(["outline", "--json", "missing.txt"], { cwd: dir });
    assert.equal(one.code, 1);
    const error = JSON.parse(one.stdout);
    assert.equal(error.path, "missing.txt");
    assert.match(
      error.error,
      /^Cannot outline "missing\.txt": it does not exist/,
    );
    assert.match(one.stderr, /missing\.txt/);
    const two = await fello(["outline", "--json", "a.ts", "missing.go"], {
      cwd: dir,
    });
    assert.equal(two.code, 1);
    const listed = JSON.parse(two.stdout);
    assert.deepEqual(listed.map((r: { path: string }) => r.path), [
      "a.ts",
      "missing.go",
    ]);
    assert.match(listed[1].error, /does not exist/);
  });
});

Deno.test("fello outline stops when the reader of its output goes away", async () => {
  await withWorkspace(async (dir) => {
    // Enough output to fill a pipe many times over.
    const functions = Array.from(
      { length: 60 },
      (_, i) => `export function f${i}() {}\n`,
    ).join("");
    await Deno.mkdir(join(dir, "src"));
    for (let i = 0; i < 300; i++) {
      await Deno.writeTextFile(join(dir, "src", `m${i}.ts`), functions);
    }
    const child = spawnFello(["outline", "src"], { cwd: dir, stderr: "null" });
    const reader = child.stdout.getReader();
    await reader.read();
    await reader.cancel();
    // Only proves that it ends, and why: the closed pipe.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const status = await Promise.race([
      child.status,
      new Promise<undefined>((done) => {
        timer = setTimeout(() => done(undefined), 60_000);
      }),
    ]);
    clearTimeout(timer);
    if (status === undefined) {
      child.kill("SIGKILL");
      await child.status;
    }
    assert.equal(status?.code, 141);
  });
});
