// RegexScanner: scans in a worker, stops a match stuck backtracking (judged
// by CPU time, so a busy machine does not fail a slow scan), caps the stuck
// threads left running, and passes ordinary failures through.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../../tests/support/workspace.ts";
import {
  MAX_RUNAWAY,
  RegexBusy,
  RegexScanner,
  RegexTimeout,
  RegexWorkerError,
  runawayRegexes,
} from "./_regex_scanner.ts";

/**
 * `(a|a)*b` on 28 `a`s tries 2^28 ways, 2.5-6.5 s of CPU time here once V8
 * has compiled the regex (its first run is interpreted, about eight times
 * slower): ten times the budget that stops it or more, and short, because
 * Deno 2.9.6 does not stop a terminated worker in the middle of a match: it
 * runs on to the end in this process.
 */
const STUCK = /(a|a)*b/gm;
const AS = "a".repeat(28);
/**
 * 25 `a`s: 2-4 s of CPU time for an interpreted first run here, so a stuck
 * match that is left running ends soon enough to wait for.
 */
const FEW_AS = "a".repeat(25);

Deno.test("RegexScanner finds matching lines in a worker, scanner after scanner", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "a.ts");
    await Deno.writeTextFile(path, "let a = 1;\nfoo(bar)\nfoo(baz)\n");
    for (let round = 0; round < 2; round++) {
      const scanner = new RegexScanner();
      try {
        const scan = await scanner.scan(path, /foo\(ba[rz]\)/gm, { limit: 1 });
        assert.deepEqual(scan, {
          binary: false,
          matches: [{ line: 2, text: "foo(bar)", column: 0 }],
        });
      } finally {
        scanner.close();
      }
    }
  });
});

Deno.test("RegexScanner stops a pattern stuck backtracking and names the file", async () => {
  await withWorkspace(async (dir) => {
    const stuck = join(dir, "stuck.txt");
    const big = join(dir, "big.txt");
    const other = join(dir, "other.txt");
    await Deno.writeTextFile(stuck, `${AS}\n`);
    // Many chunks: still being scanned, posted first, when the other job sticks.
    await Deno.writeTextFile(big, "c\n".repeat(2_000_000));
    await Deno.writeTextFile(other, "ab\n");
    // A 64 KB chunk of big.txt takes under 10 ms of CPU time to match.
    const scanner = new RegexScanner({ budgetMs: 250 });
    const started = performance.now();
    try {
      const outcomes = await Promise.allSettled(
        [big, stuck].map((path) => scanner.scan(path, STUCK, { limit: 10 })),
      );
      // The stuck scan fails, naming its file; so does the big one when it
      // was still being scanned (on a loaded machine it may have finished).
      const [bigOutcome, stuckOutcome] = outcomes;
      for (const outcome of [stuckOutcome, bigOutcome]) {
        if (outcome === bigOutcome && outcome.status === "fulfilled") {
          assert.deepEqual(outcome.value.matches, []);
          continue;
        }
        assert.equal(outcome.status, "rejected");
        assert.ok(outcome.reason instanceof RegexTimeout);
        assert.equal(outcome.reason.path, stuck);
      }
      // Generous (well under a second when quiet, a few seconds beside two
      // busy loops): it proves the scan was stopped, not how fast.
      assert.ok(performance.now() - started < 60_000);
    } finally {
      scanner.close();
    }
    // The stuck worker is gone; a new scanner starts a good one.
    const next = new RegexScanner();
    try {
      const scan = await next.scan(other, /a+b/gm, { limit: 10 });
      assert.deepEqual(scan.matches, [{ line: 1, text: "ab", column: 0 }]);
    } finally {
      next.close();
    }
  });
});

Deno.test("RegexScanner lets a long scan that keeps making progress finish", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "big.txt");
    // 8 MB of 80-character lines; the pattern tries up to 60 characters at
    // every position, so the whole scan takes longer than the budget (2.5 s
    // of CPU time here) while each 64 KB chunk takes 20-30 ms.
    const line = "abcdefghij".repeat(8).slice(0, 79) + "\n";
    const lines = 100_000;
    await Deno.writeTextFile(path, line.repeat(lines) + "needle here\n");
    // The budget counts the process's CPU time, which a busy machine does
    // not stretch: over 30 times a chunk's, still short of the whole scan.
    const scanner = new RegexScanner({ budgetMs: 1_000 });
    try {
      const started = performance.now();
      const scan = await scanner.scan(path, /[a-j][^x\n]{0,60}y|needle/gm, {
        limit: 10,
      });
      const took = performance.now() - started;
      assert.deepEqual(scan.matches, [
        { line: lines + 1, text: "needle here", column: 0 },
      ]);
      if (took < 1_000) {
        console.warn(`scan took ${took} ms: too fast to prove`);
      }
    } finally {
      scanner.close();
    }
  });
});

Deno.test("RegexScanner ends a stuck scan as soon as it is cancelled", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "stuck.txt");
    // Stuck for a few seconds, well short of the budget: the match ends by
    // itself, and leaves no runaway for the tests after this one.
    await Deno.writeTextFile(path, `${FEW_AS}\n`);
    // Cancelling does not wait for the budget: the scan rejects at once.
    const scanner = new RegexScanner({ budgetMs: 10_000 });
    const cancel = new AbortController();
    const started = performance.now();
    try {
      const scan = scanner.scan(path, STUCK, {
        limit: 10,
        signal: cancel.signal,
      });
      setTimeout(() => cancel.abort(), 100);
      await assert.rejects(scan, (error) => {
        assert.equal((error as Error).name, "AbortError");
        return true;
      });
      assert.ok(performance.now() - started < 5_000);
    } finally {
      scanner.close();
    }
  });
});

Deno.test("RegexScanner reports a file it cannot read as an ordinary failure", async () => {
  await withWorkspace(async (dir) => {
    const scanner = new RegexScanner();
    try {
      await assert.rejects(
        scanner.scan(join(dir, "missing.txt"), /a/gm, { limit: 1 }),
        (error) => {
          assert.ok(!(error instanceof RegexWorkerError));
          assert.match((error as Error).message, /NotFound|No such file/);
          return true;
        },
      );
    } finally {
      scanner.close();
    }
  });
});

/**
 * Waits (generously bounded: 120 s, where a stuck match of the tests here
 * takes a few seconds of CPU time, and several share a busy machine) until
 * fewer than `count` stuck matches run.
 */
async function runawaysBelow(count: number): Promise<void> {
  for (let i = 0; i < 2400 && runawayRegexes() >= count; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.ok(runawayRegexes() < count, "a stuck match never ended");
}

Deno.test("RegexScanner refuses new scans while MAX_RUNAWAY stuck matches still run, and not after", async () => {
  await withWorkspace(async (dir) => {
    const stuck = join(dir, "stuck.txt");
    const good = join(dir, "good.txt");
    // A new pattern each time: interpreted, ten times the budget or more.
    await Deno.writeTextFile(stuck, `${FEW_AS}\n`);
    await Deno.writeTextFile(good, "ab\n");
    const scanWith = async (pattern: RegExp, path: string) => {
      const scanner = new RegexScanner({ budgetMs: 200 });
      try {
        return await scanner.scan(path, pattern, { limit: 10 });
      } finally {
        scanner.close();
      }
    };
    // Up to the cap (an earlier test's may still run). Distinct patterns:
    // the same one on the same file is refused anyway.
    for (let i = 0; runawayRegexes() < MAX_RUNAWAY; i++) {
      const pattern = new RegExp(`${STUCK.source}|x{${i}}y`, "gm");
      await assert.rejects(scanWith(pattern, stuck), RegexTimeout);
    }
    await assert.rejects(scanWith(/a+b/gm, good), (error) => {
      assert.ok(error instanceof RegexBusy);
      assert.equal(error.running, MAX_RUNAWAY);
      return true;
    });
    // Once a stuck match ends, its thread is free: scans run again.
    await runawaysBelow(MAX_RUNAWAY);
    const scan = await scanWith(/a+b/gm, good);
    assert.deepEqual(scan.matches, [{ line: 1, text: "ab", column: 0 }]);
  });
});
