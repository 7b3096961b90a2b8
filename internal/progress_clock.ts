// How long some work has gone without a sign of progress, in wall time and
// in the CPU time of the whole process, for the watchdogs of worker threads
// (the regex search's, the outline pool's). Wall time alone cannot tell a
// stuck thread from a starved one: on a machine with more busy threads than
// cores, a worker waits seconds for its turn, and uses no CPU meanwhile; a
// thread that spins (a regex stuck backtracking) uses all the CPU it gets.
import { runtime } from "./runtime/runtime.ts";

/** Wall time and process CPU time since the last sign of progress. */
export class ProgressClock {
  #wall = 0;
  #cpu: number | undefined;
  #cpuTimeMs: () => number | undefined;

  /**
   * Starts counting now. `cpuTimeMs` reads the process's CPU time (the
   * runtime's by default; a test seam).
   */
  constructor(options: { cpuTimeMs?: () => number | undefined } = {}) {
    this.#cpuTimeMs = options.cpuTimeMs ?? (() => runtime.cpuTimeMs());
    this.restart();
  }

  /** Notes a sign of progress: both clocks count from now. */
  restart(): void {
    this.#wall = performance.now();
    this.#cpu = this.#cpuTimeMs();
  }

  /** Milliseconds of wall time since the last sign of progress. */
  wallMs(): number {
    return performance.now() - this.#wall;
  }

  /**
   * Milliseconds of CPU time the process (all its threads) has used since
   * the last sign of progress; undefined where the runtime does not tell.
   */
  cpuMs(): number | undefined {
    const now = this.#cpuTimeMs();
    return now === undefined || this.#cpu === undefined
      ? undefined
      : now - this.#cpu;
  }

  /**
   * Whether `limitMs` went by without progress both in wall time and in the
   * process's CPU time: what a thread spinning on a core for that long
   * costs, however many threads share the cores. Where the runtime does not
   * tell CPU time, wall time alone decides.
   */
  spent(limitMs: number): boolean {
    if (this.wallMs() < limitMs) return false;
    const cpu = this.cpuMs();
    return cpu === undefined || cpu >= limitMs;
  }
}
