// The outline engine under stress: worker crashes, cancelled parses, the
// result cache, the grammar folder option, and a script that must exit on its
// own with idle workers.
import assert from "node:assert/strict";
import { Outliner } from "../outline/outliner.ts";
import { OutlinePool } from "../outline/_pool.ts";
import { MOD } from "./support/fello_cli.ts";
import { runDeno } from "./support/run_deno.ts";
import { withWorkspace } from "./support/workspace.ts";

const FIXTURES = new URL("./fixtures/outline/", import.meta.url).pathname;

// About 400 KB of TypeScript: enough to overrun a 1 ms parse budget.
function bigTypeScript(): string {
  const parts: string[] = [];
  for (let i = 0; i < 4000; i++) {
    parts.push(
      `/** Doc ${i}. */\nexport function f${i}(a: number, b: string): number {\n  return a + b.length * ${i};\n}\n`,
    );
  }
  return parts.join("\n");
}

Deno.test("OutlinePool replaces a crashed worker and serves the next job", async () => {
  const pool = new OutlinePool({ size: 1 });
  try {
    // Markdown needs no grammar modules: the pool alone is under test.
    const job = {
      path: `${FIXTURES}sample.md`,
      extension: ".md",
      budgetMs: 30_000,
      recycleBytes: 1 << 30,
    };
    await assert.rejects(
      pool.run({ ...job, crash: true }),
      /the parser worker crashed/,
    );
    const reply = await pool.run(job);
    assert.equal(reply.type, "result");
    assert.equal(
      reply.type === "result" && reply.outline.language,
      "Markdown",
    );
    assert.equal(pool.workersStarted, 2);
  } finally {
    await pool.terminate();
  }
});

Deno.test("Outliner cancels a parse over its budget with a clear error and keeps serving", async () => {
  const dir = await Deno.makeTempDir();
  const outliner = new Outliner({ workers: 1 });
  try {
    await Deno.writeTextFile(`${dir}/big.ts`, bigTypeScript());
    await assert.rejects(
      outliner.outline("big.ts", { cwd: dir, parseBudgetMs: 1 }),
      {
        name: "ToolError",
        message:
          'Cannot outline "big.ts": parsing took longer than the 1 ms budget; read it by line ranges instead, or raise parseBudgetMs',
      },
    );
    const small = await outliner.outline("sample.ts", { cwd: FIXTURES });
    assert.equal(small.symbols.length, 13);
    const big = await outliner.outline("big.ts", { cwd: dir });
    assert.equal(big.symbols.length, 4000);
    assert.deepEqual(big.symbols[3999], {
      kind: "function",
      name: "f3999",
      startLine: 19997,
      endLine: 19999,
      doc: "Doc 3999.",
      children: [],
    });
  } finally {
    await outliner.terminate();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Outliner answers an unchanged file from its cache and re-parses a changed one", async () => {
  const dir = await Deno.makeTempDir();
  const outliner = new Outliner({ workers: 1 });
  try {
    const path = `${dir}/m.py`;
    await Deno.writeTextFile(path, "def a():\n    pass\n");
    const [first, twin] = await Promise.all([
      outliner.outline(path),
      outliner.outline("m.py", { cwd: dir }),
    ]);
    assert.equal(outliner.parses, 1);
    assert.equal(twin, first);
    assert.equal(await outliner.outline("m.py", { cwd: dir }), first);
    assert.equal(outliner.parses, 1);
    await Deno.writeTextFile(
      path,
      "def a():\n    pass\n\ndef b():\n    pass\n",
    );
    const second = await outliner.outline(path);
    assert.equal(outliner.parses, 2);
    assert.deepEqual(second.symbols.map((s) => s.name), ["a", "b"]);
    // Same size, new modification time: parsed again.
    await Deno.writeTextFile(
      path,
      "def a():\n    pass\n\ndef c():\n    pass\n",
    );
    await Deno.utime(path, new Date(), new Date(Date.now() + 5000));
    const third = await outliner.outline(path);
    assert.equal(outliner.parses, 3);
    assert.deepEqual(third.symbols.map((s) => s.name), ["a", "c"]);
  } finally {
    await outliner.terminate();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Outliner loads grammars from grammarsDir when given", async () => {
  const dir = await Deno.makeTempDir();
  const outliner = new Outliner({ workers: 1 });
  try {
    await assert.rejects(
      outliner.outline("sample.py", { cwd: FIXTURES, grammarsDir: dir }),
      (error: Error) => {
        assert.match(
          error.message,
          /^Cannot outline "sample\.py": Cannot load the python grammar from ".*tree-sitter-python\.wasm"/,
        );
        return true;
      },
    );
    const wasm = await npmCacheFile(
      "tree-sitter-python",
      "0.25.0",
      "tree-sitter-python.wasm",
    );
    await Deno.copyFile(wasm, `${dir}/tree-sitter-python.wasm`);
    const result = await outliner.outline("sample.py", {
      cwd: FIXTURES,
      grammarsDir: dir,
    });
    assert.equal(result.symbols.length, 8);
  } finally {
    await outliner.terminate();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("fileOutline() lets a script exit on its own, its workers idle", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(`${dir}/a.ts`, "export function a() {}\n");
    const script = `${dir}/script.ts`;
    await Deno.writeTextFile(
      script,
      `import { fileOutline } from ${
        JSON.stringify(new URL(MOD, "file://").href)
      };
console.log(await fileOutline("a.ts", { cwd: ${JSON.stringify(dir)} }));
console.log(await fileOutline(${JSON.stringify(`${FIXTURES}sample.tsx`)}));`,
    );
    // runDeno fails the test unless the script exits 0 within its time limit.
    const { stdout } = await runDeno(["-A"], script);
    assert.match(stdout, /^function a \(line 1\)$/m);
    assert.match(stdout, /^File: .*sample\.tsx\nLanguage: TSX\n/m);
  });
});

// Where Deno's npm cache holds a package file (the grammar folder test needs a real .wasm).
async function npmCacheFile(
  name: string,
  version: string,
  file: string,
): Promise<string> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
  }).output();
  const { npmCache } = JSON.parse(new TextDecoder().decode(info.stdout));
  return `${npmCache}/registry.npmjs.org/${name}/${version}/${file}`;
}

Deno.test("Outliner replaces a worker after a file over recycleBytes", async () => {
  const outliner = new Outliner({ workers: 1, recycleBytes: 100 });
  try {
    await outliner.outline("sample.md", { cwd: FIXTURES }); // 300+ bytes
    await outliner.outline("sample.py", { cwd: FIXTURES });
    assert.equal(outliner.pool.workersStarted, 2);
    const small = new Outliner({ workers: 1 });
    try {
      await small.outline("sample.md", { cwd: FIXTURES });
      await small.outline("sample.py", { cwd: FIXTURES });
      assert.equal(small.pool.workersStarted, 1);
    } finally {
      await small.terminate();
    }
  } finally {
    await outliner.terminate();
  }
});

Deno.test("Outliner re-parses an edited file from its previous tree, matching a fresh parse", async () => {
  const dir = await Deno.makeTempDir();
  const outliner = new Outliner({ workers: 1 });
  const fresh = new Outliner({ workers: 1 });
  try {
    const path = `${dir}/edit.ts`;
    const original = await Deno.readTextFile(`${FIXTURES}sample.ts`);
    await Deno.writeTextFile(path, original);
    await outliner.outline(path);
    assert.equal(outliner.incrementalParses, 0);
    // An EditFile-like change: a new documented function in the middle
    // (with non-ASCII text before it) and a renamed interface.
    const edited = original
      .replace(
        "/** Greets someone. */",
        "/** Adds é. */\nexport function added(): void {}\n\n/** Greets someone. */",
      )
      .replace("SessionNotificationFelloExt", "Renamed");
    await Deno.writeTextFile(path, edited);
    const incremental = await outliner.outline(path);
    assert.equal(outliner.incrementalParses, 1);
    assert.deepEqual(incremental, await fresh.outline(path));
    assert.equal(incremental.symbols[2].name, "Renamed");
    assert.deepEqual(incremental.symbols[5], {
      kind: "function",
      name: "added",
      startLine: 28,
      endLine: 28,
      doc: "Adds é.",
      children: [],
    });
  } finally {
    await outliner.terminate();
    await fresh.terminate();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Outliner notices a same-size change within one file system clock tick", async () => {
  const dir = await Deno.makeTempDir();
  const outliner = new Outliner({ workers: 1 });
  try {
    const path = `${dir}/tick.ts`;
    await Deno.writeTextFile(path, "export function a() {}\n");
    // A modification time a minute ahead stays "racy" however long the
    // outlines below take: a cold worker on a loaded machine can take
    // longer than the 2 s after which an entry counts as settled.
    const mtime = new Date(Date.now() + 60_000);
    await Deno.utime(path, mtime, mtime);
    const first = await outliner.outline(path);
    assert.equal(await outliner.outline(path), first);
    assert.equal(outliner.parses, 1);
    // Same size, and the clock did not tick: only the content tells.
    await Deno.writeTextFile(path, "export function b() {}\n");
    await Deno.utime(path, mtime, mtime);
    const second = await outliner.outline(path);
    assert.equal(outliner.parses, 2);
    assert.equal(second.symbols[0].name, "b");
  } finally {
    await outliner.terminate();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Outliner keeps its cache within cacheBytes, dropping the least recently used", async () => {
  await withWorkspace(async (dir) => {
    const body = Array.from({ length: 10 }, (_, i) => `function f${i}() {}\n`);
    await Deno.writeTextFile(`${dir}/a.ts`, body.join(""));
    await Deno.writeTextFile(`${dir}/b.ts`, body.join(""));
    // Ten symbols weigh about 2.2 KB (see _weight): room for one file.
    const outliner = new Outliner({ workers: 1, cacheBytes: 3_000 });
    try {
      await outliner.outline(`${dir}/a.ts`);
      await outliner.outline(`${dir}/b.ts`);
      assert.equal(outliner.parses, 2);
      await outliner.outline(`${dir}/b.ts`);
      assert.equal(outliner.parses, 2, "b.ts is cached");
      await outliner.outline(`${dir}/a.ts`);
      assert.equal(outliner.parses, 3, "a.ts was dropped for b.ts");
      // Larger than the whole budget: never kept.
      const tiny = new Outliner({ workers: 1, cacheBytes: 100 });
      try {
        await tiny.outline(`${dir}/a.ts`);
        await tiny.outline(`${dir}/a.ts`);
        assert.equal(tiny.parses, 2);
      } finally {
        await tiny.terminate();
      }
    } finally {
      await outliner.terminate();
    }
  });
});

Deno.test("Outliner caps symbols in the worker and keeps capped and whole results apart", async () => {
  await withWorkspace(async (dir) => {
    const body = Array.from({ length: 5 }, (_, i) => `function f${i}() {}\n`);
    await Deno.writeTextFile(`${dir}/a.ts`, body.join(""));
    const outliner = new Outliner({ workers: 1 });
    try {
      const capped = await outliner.outline(`${dir}/a.ts`, { maxSymbols: 2 });
      assert.deepEqual(capped.symbols.map((s) => s.name), ["f0", "f1"]);
      assert.equal(capped.omitted, 3);
      // A capped result does not answer a call without the cap.
      const whole = await outliner.outline(`${dir}/a.ts`);
      assert.equal(whole.symbols.length, 5);
      assert.equal(whole.omitted, undefined);
      assert.equal(outliner.parses, 2);
      // A whole result answers any cap... as the whole (the format cuts it).
      await outliner.outline(`${dir}/a.ts`, { maxSymbols: 2 });
      assert.equal(outliner.parses, 2);
    } finally {
      await outliner.terminate();
    }
  });
});
