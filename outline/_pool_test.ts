import assert from "node:assert/strict";
import { join } from "node:path";
import { OutlinePool } from "./_pool.ts";

Deno.test("OutlinePool answers queued jobs in order and requeues the ones behind a crash", async () => {
  const dir = await Deno.makeTempDir();
  const pool = new OutlinePool({ size: 1 });
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
