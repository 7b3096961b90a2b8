// `fello outline` as a subprocess: usage errors and what it says about
// folders and grammars.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fello } from "../tests/support/fello_cli.ts";
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
