// Outliner: cancelled and shared calls, parse budgets, the result cache, the
// grammar folder, incremental re-parses and failures of the parse itself.
import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../internal/tool_error.ts";
import { npmCacheFile } from "../tests/support/npm_cache.ts";
import { modulesOutside } from "../tests/support/worker_graph.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import { Outliner, WORKER_FOLDERS } from "./outliner.ts";

const FIXTURES = new URL("../tests/fixtures/outline/", import.meta.url)
  .pathname;

// About 1 MB of TypeScript: a parse of a few hundred milliseconds.
function bigTypeScript(): string {
  return Array.from(
    { length: 10_000 },
    (_, i) =>
      `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`,
  ).join("");
}

// Resolves once the parse's job is posted to the pool's one worker and
// `calls` calls wait for it.
async function parsing(outliner: Outliner, calls = 1): Promise<void> {
  const { pool } = outliner;
  const posted = () =>
    outliner.waiting === calls && outliner.parses === 1 &&
    pool.workersStarted === 1 && pool.idle === 0;
  for (let i = 0; i < 2000 && !posted(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.ok(posted(), "the parse was posted with every call waiting");
}

async function withBigFile(
  fn: (path: string, outliner: Outliner) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const outliner = new Outliner({ workers: 1, splitBytes: Infinity });
  try {
    const path = join(dir, "big.ts");
    await Deno.writeTextFile(path, bigTypeScript());
    await fn(path, outliner);
  } finally {
    await outliner.terminate();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("Outliner.outline() rejects a cancelled call and replaces the worker parsing for it alone", async () => {
  await withBigFile(async (path, outliner) => {
    await assert.rejects(
      outliner.outline(path, { signal: AbortSignal.abort() }),
      (error) =>
        error instanceof ToolError && /was cancelled/.test(error.message),
    );
    assert.equal(outliner.parses, 0, "an aborted call starts no parse");
    const controller = new AbortController();
    const call = outliner.outline(path, { signal: controller.signal });
    await parsing(outliner);
    controller.abort();
    await assert.rejects(call, /Outlining ".*big\.ts" was cancelled/);
    // The next parse needs a new worker: the old one was stopped mid-parse.
    const { symbols } = await outliner.outline(path);
    assert.equal(symbols.length, 10_000);
    assert.equal(outliner.pool.workersStarted, 2);
  });
});

Deno.test("Outliner.outline() keeps parsing for a call that still waits when another call of the file is cancelled", async () => {
  await withBigFile(async (path, outliner) => {
    const controller = new AbortController();
    const cancelled = outliner.outline(path, { signal: controller.signal });
    const waiting = outliner.outline(path, {
      signal: new AbortController().signal,
    });
    await parsing(outliner, 2);
    controller.abort();
    await assert.rejects(cancelled, /was cancelled/);
    assert.equal((await waiting).symbols.length, 10_000);
    assert.equal(outliner.parses, 1, "the two calls shared one parse");
    assert.equal(outliner.pool.workersStarted, 1, "its worker was kept");
  });
});

Deno.test("WORKER_FOLDERS hold every local module the outline worker loads", async () => {
  // The read check up front covers these folders: a module elsewhere would
  // crash each worker under a grant that passes the check.
  const worker = new URL("./_worker.ts", import.meta.url);
  assert.deepEqual(await modulesOutside(worker, WORKER_FOLDERS), []);
});

Deno.test("Outliner's incremental re-parse after an edit that leaves a syntax error matches a fresh parse", async () => {
  await withWorkspace(async (ws) => {
    const before = [
      "union kv_number {",
      "};",
      "enum kv_status {",
      "};",
      "static unsigned kv_hash(const char *key);",
      "",
      "/*",
      "** Hash a key (djb2).",
      "static unsigned kv_hash(const char *key){",
      "  unsigned h = 5381;",
      "}",
      "# if KV_THREADSAFE>1",
      "/* Take the lock. */",
      "static int kv_lock(kv_store *s){ return 1; }",
      "const char **kv_lookup(kv_store *s, const char *key){",
      "}",
      "",
    ].join("\n");
    const after = before.replace("char *key);\n\n/*\n*", "");
    const outliner = new Outliner({ workers: 1 });
    try {
      const edited = join(ws, "kv.c");
      await Deno.writeTextFile(edited, before);
      await outliner.outline(edited);
      await Deno.writeTextFile(edited, after);
      const incremental = await outliner.outline(edited);
      // A text the old tree parses with errors is parsed again from
      // scratch: this outline is not counted as incremental.
      assert.equal(outliner.parses, 2);
      const fresh = join(ws, "fresh.c");
      await Deno.writeTextFile(fresh, after);
      assert.deepEqual(incremental, await outliner.outline(fresh));
    } finally {
      await outliner.terminate();
    }
  });
});

Deno.test("Outliner reports a parse that runs out of WASM memory clearly, then keeps serving", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "dense.js"), "1;".repeat(5_000_000));
    await Deno.writeTextFile(join(ws, "ok.ts"), "export function ok() {}\n");
    const outliner = new Outliner({ workers: 1 });
    try {
      await assert.rejects(
        // A budget far past the default 30 s: on a loaded machine the parse
        // can take that long before it runs out of memory.
        outliner.outline("dense.js", { cwd: ws, parseBudgetMs: 600_000 }),
        (error: Error) => {
          assert.doesNotMatch(error.message, /Aborted\(\)|ASSERTIONS/);
          assert.match(
            error.message,
            /^Cannot outline "dense\.js": .*memory/,
          );
          return true;
        },
      );
      const ok = await outliner.outline("ok.ts", { cwd: ws });
      assert.deepEqual(ok.symbols.map((s) => s.name), ["ok"]);
    } finally {
      await outliner.terminate();
    }
  });
});

Deno.test("Outliner refuses a grammar folder holding another language's grammar", async () => {
  await withWorkspace(async (dir) => {
    const python = await npmCacheFile(
      "tree-sitter-python",
      "0.25.0",
      "tree-sitter-python.wasm",
    );
    await Deno.copyFile(python, join(dir, "tree-sitter-typescript.wasm"));
    const outliner = new Outliner({ workers: 1 });
    try {
      await assert.rejects(
        outliner.outline("sample.ts", { cwd: FIXTURES, grammarsDir: dir }),
        /Cannot load the typescript grammar from ".*tree-sitter-typescript\.wasm"/,
      );
    } finally {
      await outliner.terminate();
    }
  });
});

Deno.test("Outliner answers a call with another grammarsDir from that grammar, not the cache", async () => {
  await withWorkspace(async (empty) => {
    const outliner = new Outliner({ workers: 1 });
    try {
      const pinned = await outliner.outline("sample.py", { cwd: FIXTURES });
      assert.ok(pinned.symbols.length > 0);
      await assert.rejects(
        outliner.outline("sample.py", { cwd: FIXTURES, grammarsDir: empty }),
        /Cannot load the python grammar from/,
      );
    } finally {
      await outliner.terminate();
    }
  });
});

Deno.test("Outliner gives each concurrent call for one file its own parse budget", async () => {
  await withWorkspace(async (ws) => {
    const functions = Array.from(
      { length: 4000 },
      (_, i) =>
        `export function f${i}(a: number): number {\n  return a * ${i};\n}\n`,
    );
    await Deno.writeTextFile(join(ws, "big.ts"), functions.join("\n"));
    const outliner = new Outliner({ workers: 1 });
    try {
      const [hasty, patient] = await Promise.allSettled([
        outliner.outline("big.ts", { cwd: ws, parseBudgetMs: 1 }),
        outliner.outline("big.ts", { cwd: ws }),
      ]);
      assert.equal(hasty.status, "rejected");
      assert.equal(
        patient.status,
        "fulfilled",
        patient.status === "rejected" ? String(patient.reason) : "",
      );
      assert.equal(patient.value.symbols.length, 4000);
    } finally {
      await outliner.terminate();
    }
  });
});
