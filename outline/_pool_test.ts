// OutlinePool on both kinds of thread: queued jobs, crashed, stalled and
// cancelled workers, and shutting down.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  CancelledError,
  OutlinePool,
  type OutlinePoolOptions,
} from "./_pool.ts";
import type { ThreadKind } from "../internal/thread.ts";

// Resolves to "hung" when `promise` does not settle within 10 s.
function settledWithin<T>(promise: Promise<T>): Promise<T | "hung"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise,
    new Promise<"hung">((resolve) => {
      timer = setTimeout(() => resolve("hung"), 10_000);
    }),
  ]).finally(() => clearTimeout(timer));
}

type MarkdownJob = Parameters<OutlinePool["run"]>[0];

// A pool of one worker and a Markdown file for its jobs (no grammar modules:
// the pool alone is under test), both gone after `use`.
async function withMarkdownPool(
  options: OutlinePoolOptions,
  budgetMs: number,
  use: (pool: OutlinePool, job: MarkdownJob) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const pool = new OutlinePool({ size: 1, ...options });
  try {
    const path = join(dir, "d.md");
    await Deno.writeTextFile(path, "# Title\n");
    await use(pool, {
      path,
      extension: ".md",
      budgetMs,
      recycleBytes: 1 << 30,
    });
  } finally {
    await pool.terminate();
    await Deno.remove(dir, { recursive: true });
  }
}

// Each test runs with both kinds of worker thread (see tools/_thread.ts).
for (const threads of ["web", "node"] as ThreadKind[]) {
  Deno.test(`OutlinePool (${threads} threads) answers queued jobs in order and requeues the ones behind a crash`, async () => {
    const dir = await Deno.makeTempDir();
    const pool = new OutlinePool({ size: 1, threads });
    try {
      // Markdown needs no grammar modules: the pool alone is under test.
      const job = (i: number) => ({
        path: join(dir, `d${i}.md`),
        extension: ".md",
        budgetMs: 30_000,
        recycleBytes: 1 << 30,
      });
      for (let i = 0; i < 6; i++) {
        await Deno.writeTextFile(job(i).path, `# Title ${i}\n`);
      }
      const title = async (i: number, crash = false) => {
        const reply = await pool.run({ ...job(i), crash });
        assert.equal(reply.type, "result");
        return reply.type === "result" ? reply.outline.strings[1] : undefined;
      };
      assert.equal(pool.idle, 0);
      pool.warm();
      assert.equal(pool.idle, 1, "a started worker without a job is idle");
      // Six jobs at once on one worker: two in flight, the rest queued.
      const all = Promise.all([0, 1, 2, 3, 4, 5].map((i) => title(i)));
      assert.equal(pool.idle, 0);
      const titles = await all;
      assert.equal(pool.idle, 1);
      assert.deepEqual(titles, [0, 1, 2, 3, 4, 5].map((i) => `Title ${i}`));
      // A crash fails its own job only; the job posted behind it still runs.
      const [crashed, after] = await Promise.allSettled([
        title(0, true),
        title(1),
      ]);
      assert.equal(crashed.status, "rejected");
      assert.match(String(crashed.reason), /the parser worker crashed/);
      assert.deepEqual(after, { status: "fulfilled", value: "Title 1" });
      assert.equal(pool.workersStarted, 2);
    } finally {
      await pool.terminate();
      await Deno.remove(dir, { recursive: true });
    }
  });

  Deno.test(`OutlinePool (${threads} threads) replaces a crashed worker and serves the next job`, async () => {
    await withMarkdownPool({ threads }, 30_000, async (pool, job) => {
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
    });
  });

  Deno.test(`OutlinePool (${threads} threads) replaces a worker that never answers and fails only its job`, async () => {
    await withMarkdownPool(
      { threads, stallMs: 300 },
      100,
      async (pool, job) => {
        const started = performance.now();
        const [stuck, after] = await Promise.allSettled([
          pool.run({ ...job, stall: true }),
          // Its watchdog counts the new worker's boot too (100 ms here, 300 ms
          // and more on a loaded machine): a budget of its own keeps it clear of
          // the 400 ms limit under test.
          pool.run({ ...job, budgetMs: 30_000 }),
        ]);
        assert.equal(stuck.status, "rejected");
        assert.match(
          String(stuck.reason),
          /the parser worker did not answer in 400 ms \(is the file a pipe, or on a stalled disk\?\)/,
        );
        // The job queued behind it ran on a new worker.
        assert.equal(after.status, "fulfilled");
        assert.equal(pool.workersStarted, 2);
        // Not before its budget and the stall allowance (400 ms), and not long after.
        const waited = performance.now() - started;
        assert.ok(waited >= 390 && waited < 10_000, `${waited} ms`);
      },
    );
  });

  Deno.test(`OutlinePool (${threads} threads) drops a cancelled job: queued, posted behind a running one, or running`, async () => {
    await withMarkdownPool(
      { threads, stallMs: 60_000 },
      30_000,
      async (pool, job) => {
        const [a, b, c] = [0, 1, 2].map(() => new AbortController());
        // A runs for good; B is posted behind it; C waits in the pool's queue.
        const stuck = pool.run({ ...job, stall: true, signal: a.signal });
        // B would crash the worker that runs it: a fourth worker would start.
        const posted = pool.run({ ...job, crash: true, signal: b.signal });
        const queued = pool.run({ ...job, signal: c.signal });
        const after = pool.run(job);
        c.abort();
        b.abort();
        a.abort();
        for (const cancelled of [stuck, posted, queued]) {
          await assert.rejects(cancelled, CancelledError);
        }
        const reply = await settledWithin(after);
        assert.equal(reply !== "hung" && reply.type, "result");
        assert.equal(
          pool.workersStarted,
          2,
          "the stuck worker was replaced once",
        );
        await assert.rejects(
          pool.run({ ...job, signal: AbortSignal.abort() }),
          CancelledError,
        );
      },
    );
  });

  Deno.test(`OutlinePool (${threads} threads) replaces a worker when it reaches a job posted to it and cancelled since`, async () => {
    await withMarkdownPool(
      { threads, stallMs: 60_000 },
      30_000,
      async (pool, job) => {
        const controller = new AbortController();
        const first = pool.run(job);
        // Posted behind `first`: once started it would block its worker for good.
        const stall = pool.run({
          ...job,
          stall: true,
          signal: controller.signal,
        });
        controller.abort();
        await assert.rejects(stall, CancelledError);
        assert.equal((await first).type, "result");
        const next = await settledWithin(pool.run(job));
        assert.equal(next !== "hung" && next.type, "result");
        assert.equal(pool.workersStarted, 2);
      },
    );
  });
}

Deno.test("OutlinePool.terminate() rejects a stalled job and the one behind it once, leaving no timer", async () => {
  const dir = await Deno.makeTempDir();
  const pool = new OutlinePool({ size: 1, stallMs: 60_000 });
  try {
    const path = join(dir, "d.md");
    await Deno.writeTextFile(path, "# Title\n");
    const job = { path, extension: ".md", budgetMs: 100, recycleBytes: 1e9 };
    const settled = Promise.allSettled([
      pool.run({ ...job, stall: true }),
      pool.run(job),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200));
    await pool.terminate();
    const results = await settled;
    assert.deepEqual(
      results.map((r) => r.status === "rejected" && String(r.reason)),
      Array(2).fill("Error: the outline pool was shut down"),
    );
    // The test's timer sanitizer checks that the 60 s watchdog is gone.
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
