// Timing for tests that only prove a pass ends (on inputs where a quadratic
// pass would take seconds): how long one synchronous run took.

/** Runs `run` once and returns how many milliseconds it took. */
export function elapsedMs(run: () => unknown): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}
