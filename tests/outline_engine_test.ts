// The outline engine in processes of their own: a script that uses it ends by
// itself once its work is done, whatever its workers went through.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { ThreadKind } from "../internal/thread.ts";
import { MOD } from "./support/fello_cli.ts";
import { runDeno } from "./support/run_deno.ts";
import { withWorkspace } from "./support/workspace.ts";

const FIXTURES = new URL("./fixtures/outline/", import.meta.url).pathname;
const POOL = new URL("../outline/_pool.ts", import.meta.url).href;
const KINDS: ThreadKind[] = ["web", "node"];

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

// Every failure path of the pool, then a good job, and no terminate(): the
// script must end by itself once its work is done.
const POOL_SCRIPT = `
import { CancelledError, OutlinePool } from ${JSON.stringify(POOL)};
const [threads, dir] = Deno.args;
const pool = new OutlinePool({ size: 1, threads, stallMs: 200 });
const job = { path: dir + "/d.md", extension: ".md", budgetMs: 30000, recycleBytes: 1 << 30 };
const outcome = (promise, expected, pattern) =>
  promise.then((reply) => reply.type, (error) =>
    pattern.test(error.message) || error instanceof CancelledError ? expected : error.message);
const out = [];
out.push(await outcome(pool.run({ ...job, crash: true }), "crashed", /the parser worker crashed/));
out.push(await outcome(pool.run({ ...job, budgetMs: 50, stall: true }), "stalled", /did not answer in 250 ms/));
const controller = new AbortController();
const running = pool.run({ ...job, stall: true, signal: controller.signal });
setTimeout(() => controller.abort(), 100);
out.push(await outcome(running, "cancelled", /^$/));
const recycled = await pool.run({ ...job, recycleBytes: 1 });
out.push(recycled.type === "result" && recycled.recycle ? "recycled" : JSON.stringify(recycled));
out.push((await pool.run(job)).type);
console.log(JSON.stringify({ out, started: pool.workersStarted }));
`;

Deno.test("OutlinePool of either kind lets a script end by itself after a crash, a stall, a cancelled and a recycled job", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "d.md"), "# Title\n");
    const script = join(ws, "pool.js");
    await Deno.writeTextFile(script, POOL_SCRIPT);
    // runDeno fails the test if the process does not exit 0 (or in 60 s).
    const runs = await Promise.all(
      KINDS.map((kind) => runDeno(["-A"], script, [kind, ws])),
    );
    for (const [i, { stdout }] of runs.entries()) {
      assert.deepEqual(JSON.parse(stdout), {
        out: ["crashed", "stalled", "cancelled", "recycled", "result"],
        started: 5,
      }, KINDS[i]);
    }
  });
});

Deno.test("OutlinePool: a script whose worker stalls gets the watchdog's error and exits", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "d.md"), "# Title\n");
    const script = join(ws, "stall.js");
    await Deno.writeTextFile(
      script,
      `import { OutlinePool } from ${JSON.stringify(POOL)};
const pool = new OutlinePool({ size: 1, stallMs: 200 });
const job = { path: Deno.args[0] + "/d.md", extension: ".md", budgetMs: 50, recycleBytes: 1e9 };
const [stuck, after] = await Promise.allSettled([
  pool.run({ ...job, stall: true }),
  // A budget of its own: its watchdog counts the new worker's boot.
  pool.run({ ...job, budgetMs: 30_000 }),
]);
console.log(stuck.status, stuck.reason?.message, after.status);
`,
    );
    // The stuck worker is unref'd and terminated: it must not hold the
    // process, which runDeno() needs to exit 0.
    const { stdout } = await runDeno(["-A"], script, [ws]);
    assert.equal(
      stdout,
      "rejected the parser worker did not answer in 250 ms (is the file a pipe, or on a stalled disk?) fulfilled\n",
    );
  });
});
