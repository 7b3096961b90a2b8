// ProgressClock: time without progress counts only once both the wall clock
// and the process's CPU time have gone past the limit.
import assert from "node:assert/strict";
import { ProgressClock } from "./progress_clock.ts";

/** A CPU clock the test sets by hand. */
function fakeCpu(): { ms: number | undefined; read: () => number | undefined } {
  const cpu = {
    ms: 0 as number | undefined,
    read: () => cpu.ms,
  };
  return cpu;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

Deno.test("ProgressClock.spent() waits for the CPU time of a starved process", async () => {
  const cpu = fakeCpu();
  const clock = new ProgressClock({ cpuTimeMs: cpu.read });
  await sleep(30);
  // Past the limit in wall time, with the CPU idle: a starved thread.
  assert.equal(clock.spent(20), false);
  assert.equal(clock.cpuMs(), 0);
  cpu.ms = 25;
  assert.equal(clock.spent(20), true);
  assert.equal(clock.cpuMs(), 25);
  assert.ok(clock.wallMs() >= 20);
});

Deno.test("ProgressClock.spent() waits for the wall time when the CPU time runs ahead", () => {
  // Several busy threads spend CPU time faster than the wall clock runs.
  const cpu = fakeCpu();
  const clock = new ProgressClock({ cpuTimeMs: cpu.read });
  cpu.ms = 120_000;
  assert.equal(clock.spent(60_000), false);
});

Deno.test("ProgressClock.restart() counts both clocks from the new sign of progress", async () => {
  const cpu = fakeCpu();
  const clock = new ProgressClock({ cpuTimeMs: cpu.read });
  await sleep(30);
  cpu.ms = 50;
  assert.equal(clock.spent(20), true);
  clock.restart();
  assert.equal(clock.cpuMs(), 0);
  assert.ok(clock.wallMs() < 20_000);
  assert.equal(clock.spent(20), false);
  cpu.ms = 100;
  await sleep(30);
  assert.equal(clock.spent(20), true);
});

Deno.test("ProgressClock.spent() goes by wall time alone where the runtime tells no CPU time", async () => {
  const cpu = fakeCpu();
  cpu.ms = undefined;
  const clock = new ProgressClock({ cpuTimeMs: cpu.read });
  assert.equal(clock.cpuMs(), undefined);
  assert.equal(clock.spent(60_000), false);
  await sleep(30);
  assert.equal(clock.spent(20), true);
});
