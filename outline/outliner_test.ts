import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../internal/tool_error.ts";
import { modulesOutside } from "../tests/support/worker_graph.ts";
import { Outliner, WORKER_FOLDERS } from "./outliner.ts";

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
