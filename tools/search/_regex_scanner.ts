// Runs a search's regular expression in a worker thread. A JavaScript regex
// cannot be interrupted, and a pattern that backtracks catastrophically
// (`(a|a)*b` on a line of `a`s) holds its thread for minutes or more: on the
// main thread an MCP server or an agent would stop answering. In a worker, a
// match that shows no progress for the budget fails the search, and the
// worker is terminated and never used again.
//
// The budget is judged by progress and CPU time, not wall time: a match is
// stuck when the worker started matching a chunk and has not finished it
// while the process has spent the budget in CPU time (and as much wall time)
// since. A stuck match spins its core; a worker starved of one on a busy
// machine, waiting on a read, or still booting uses none, and is not judged.
//
// Deno 2.9.6 does not interrupt JavaScript running in a terminated worker: the
// thread goes on to the end of the match (and of the process, if the match
// never ends). The process keeps answering and can exit; only that core stays
// busy. So at most MAX_RUNAWAY such workers may be spinning: past that, a new
// regex search waits for one of them to end, up to its budget, then fails
// with RegexBusy (a literal search still runs). A child process could be
// killed instead, at the cost of its own start and of passing permissions on.
import { fileURLToPath } from "node:url";
import { type FileScan, scanFile } from "./_search_file.ts";
import {
  startThread,
  type Thread,
  type ThreadEvents,
} from "../../internal/thread.ts";
import { workerUrl } from "../../internal/worker_url.ts";
import { runtime } from "../../internal/runtime/runtime.ts";
import { ProgressClock } from "../../internal/progress_clock.ts";

/**
 * How long, in CPU time of the process, a match may go without progress
 * before it is stopped (see ProgressClock.spent).
 */
export const REGEX_BUDGET_MS = 10_000;
/**
 * In the shared progress array: chunks started (and jobs ended), the job
 * matching one, a flag set when the worker was given up on, which ends its
 * scans at their next chunk once the stuck match returns, and a flag up
 * while the worker matches a chunk (down while it reads, boots or idles).
 */
export const PROGRESS_STEPS = 0;
export const PROGRESS_JOB = 1;
export const PROGRESS_STOP = 2;
export const PROGRESS_MATCHING = 3;
/** Workers given up on that may still be spinning before new scans wait. */
export const MAX_RUNAWAY = 2;
/**
 * Idle workers kept for the next search: a search's pool (see
 * _scan_pool.ts), for two searches at once.
 */
const MAX_IDLE = 4;
const WORKER_MODULE = new URL("./_regex_worker.ts", import.meta.url);

/** A file to scan, as the worker receives it. */
export interface RegexJob {
  id: number;
  path: string;
  source: string;
  flags: string;
  limit: number;
  /** UTF-8 bytes every match holds: the file is skimmed for them first. */
  literal?: Uint8Array;
  /** An Int32Array's buffer: see PROGRESS_STEPS and the cells after it. */
  progress: SharedArrayBuffer;
}

/**
 * Jobs sent to the worker in one message at most: a message each cost more
 * than skimming most files.
 */
const BATCH_JOBS = 16;

/** Asks the worker to stop scanning a file whose scan was cancelled. */
export interface RegexCancel {
  cancel: number;
}

/** What the worker answers for each job of a batch: the scan, or why it failed. */
export type RegexReply =
  | { id: number; kind: "done"; scan: FileScan }
  | { id: number; kind: "failed"; message: string };

/** The regex worker stopped: the search cannot go on. */
export class RegexWorkerError extends Error {}

/**
 * Earlier regular expressions stuck backtracking still hold MAX_RUNAWAY
 * threads, and none ended within the budget: no new one may start.
 */
export class RegexBusy extends RegexWorkerError {
  constructor(readonly running: number, readonly budgetMs: number) {
    super(
      `${running} earlier regular expressions stuck backtracking are still running, and none ended within ${
        budgetMs / 1000
      } s`,
    );
  }
}

/** A match made no progress for the budget: the pattern backtracks catastrophically. */
export class RegexTimeout extends RegexWorkerError {
  constructor(readonly path: string, readonly budgetMs: number) {
    super(`the regular expression ran ${budgetMs} ms on "${path}"`);
  }
}

interface Job {
  path: string;
  /** The pattern and the file, for {@linkcode stuckScans}. */
  key: string;
  resolve(scan: FileScan): void;
  reject(error: Error): void;
}

/**
 * A regex worker: its thread, and the events of the scanner using it (none
 * while idle: a late error of a finished search goes nowhere).
 */
class RegexWorker {
  events?: ThreadEvents;
  readonly thread: Thread = startThread(workerUrl(WORKER_MODULE), {
    message: (data) => this.events?.message(data),
    error: (error) => this.events?.error(error),
  });
}

const idle: RegexWorker[] = [];
let nextId = 1;

/**
 * The workers given up on while a match was stuck: their progress array and
 * its step count then. A later step means the match returned (the worker
 * then stops at its next chunk).
 */
const runaways: { progress: Int32Array; steps: number }[] = [];

/** How many workers given up on may still be stuck in a match. */
export function runawayRegexes(): number {
  for (let i = runaways.length - 1; i >= 0; i--) {
    const { progress, steps } = runaways[i];
    if (Atomics.load(progress, PROGRESS_STEPS) !== steps) runaways.splice(i, 1);
  }
  return runaways.length;
}

/**
 * Resolves once fewer than MAX_RUNAWAY workers are stuck; rejects with
 * RegexBusy when none ends within `budgetMs`, or when `signal` aborts.
 */
async function roomForRegex(
  budgetMs: number,
  signal?: AbortSignal,
): Promise<void> {
  const deadline = performance.now() + budgetMs;
  while (runawayRegexes() >= MAX_RUNAWAY) {
    signal?.throwIfAborted();
    if (performance.now() >= deadline) {
      throw new RegexBusy(runaways.length, budgetMs);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The scans that ran past the budget, by pattern and file: asked again (models
 * retry), they fail at once. Deno cannot stop a match in a terminated worker,
 * so each retry would keep one more core busy. A search that leaves the file
 * out runs, and so does one after the file changed or with a longer budget.
 */
const stuckScans = new Map<string, { timeout: RegexTimeout; stamp: string }>();
const MAX_STUCK_SCANS = 100;

/**
 * A file's size and modification time, to tell whether it changed. Read
 * synchronously: only on a timeout and on a scan that one concerns.
 */
function fileStamp(path: string): string {
  try {
    const info = runtime.statSync(path);
    return `${info.size}/${info.mtime?.getTime()}`;
  } catch {
    return "";
  }
}

/**
 * Scans files for one search in a worker of its own (reused from an earlier
 * search when one is idle). Close it when the search ends. Where the worker's
 * module cannot be read, scans run in-process, without the time bound.
 */
export class RegexScanner {
  #budgetMs: number;
  #worker: RegexWorker | undefined;
  /** The jobs the worker has not answered, including cancelled ones. */
  #jobs = new Map<number, Job>();
  #progress = new Int32Array(new SharedArrayBuffer(16));
  /** Settles once this scanner may start its worker (see MAX_RUNAWAY). */
  #room: Promise<void> | undefined;
  #roomMade = false;
  #steps = 0;
  /** Since the last step or reply, or since the worker was not matching. */
  #clock = new ProgressClock();
  #watchdog: { stop(): void; unref(): void } | undefined;
  #closed = false;
  #stopped: Error | undefined;
  /** Jobs not sent yet, and the timer that sends them. */
  #outbox: RegexJob[] = [];
  #flushSoon: ReturnType<typeof setTimeout> | undefined;

  /**
   * `mayBacktrack: false` is for a literal pattern: it cannot get stuck, so
   * it starts its worker without waiting for room among runaway ones.
   */
  constructor(options: { budgetMs?: number; mayBacktrack?: boolean } = {}) {
    this.#budgetMs = options.budgetMs ?? REGEX_BUDGET_MS;
    this.#roomMade = options.mayBacktrack === false;
  }

  /**
   * Scans `path` for lines matching `pattern` (a regex with the `g` flag).
   * A cancelled scan rejects at once; the worker stops it at its next chunk
   * (the budget still applies until then). `literal`: the UTF-8 bytes every
   * match of `pattern` holds (a case-sensitive literal pattern's own), for a
   * skim of the file first.
   */
  scan(
    path: string,
    pattern: RegExp,
    options: { limit: number; signal?: AbortSignal; literal?: Uint8Array },
  ): Promise<FileScan> {
    const stopped = this.#stopped ??
      (this.#closed ? new RegexWorkerError("the scanner is closed") : null);
    if (stopped) return Promise.reject(stopped);
    if (options.signal?.aborted) return Promise.reject(options.signal.reason);
    const key = `${pattern.flags}/${pattern.source}\0${path}`;
    const stuck = this.#stuckOn(key, path);
    if (stuck) return Promise.reject(stuck);
    if (this.#roomMade) return this.#post(path, pattern, { ...options, key });
    this.#room ??= roomForRegex(this.#budgetMs, options.signal).then(() => {
      this.#roomMade = true;
    });
    return this.#room.then(() => this.scan(path, pattern, options));
  }

  #post(
    path: string,
    pattern: RegExp,
    options: {
      limit: number;
      signal?: AbortSignal;
      literal?: Uint8Array;
      key: string;
    },
  ): Promise<FileScan> {
    const key = options.key;
    const worker = this.#start();
    if (worker === undefined) return scanFile(path, pattern, options);
    const id = nextId++;
    const { promise, resolve, reject } = Promise.withResolvers<FileScan>();
    const signal = options.signal;
    const onAbort = () => {
      reject(signal!.reason);
      const waiting = this.#outbox.findIndex((job) => job.id === id);
      if (waiting !== -1) {
        // Not sent yet: no reply will come.
        this.#outbox.splice(waiting, 1);
        this.#jobs.delete(id);
        if (this.#jobs.size === 0 && this.#closed) this.#release();
        return;
      }
      // The worker stops reading the file at its next chunk.
      this.#worker?.thread.post({ cancel: id } satisfies RegexCancel, []);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const settle = () => signal?.removeEventListener("abort", onAbort);
    this.#jobs.set(id, {
      path,
      key,
      resolve: (scan) => (settle(), resolve(scan)),
      reject: (error) => (settle(), reject(error)),
    });
    if (this.#jobs.size === 1) this.#clock.restart();
    this.#outbox.push({
      id,
      path,
      source: pattern.source,
      flags: pattern.flags,
      limit: options.limit,
      literal: options.literal,
      progress: this.#progress.buffer as SharedArrayBuffer,
    });
    if (this.#outbox.length >= BATCH_JOBS) this.#flush();
    else this.#flushSoon ??= setTimeout(() => this.#flush(), 0);
    return promise;
  }

  /**
   * Sends the scans asked for since the last batch went: they go by
   * BATCH_JOBS, or once the caller's turn ends.
   */
  #flush(): void {
    if (this.#flushSoon !== undefined) clearTimeout(this.#flushSoon);
    this.#flushSoon = undefined;
    if (this.#outbox.length === 0) return;
    const batch = this.#outbox;
    this.#outbox = [];
    this.#worker?.thread.post(batch, []);
  }

  /**
   * Ends the scanner. Its worker goes back to the idle list once it has
   * answered every job; until then the budget still applies, without keeping
   * the process alive.
   */
  close(): void {
    this.#closed = true;
    if (this.#jobs.size === 0) {
      this.#release();
    } else {
      this.#worker?.thread.unref();
      this.#watchdog?.unref();
    }
  }

  #start(): RegexWorker | undefined {
    if (this.#worker) return this.#worker;
    const worker = idle.pop() ?? spawn();
    if (worker === undefined) return undefined;
    worker.events = {
      message: (replies) => this.#receive(replies as RegexReply[]),
      error: (error) => this.#lost(error.message),
    };
    worker.thread.ref();
    const timer = setInterval(() => this.#check(), this.#budgetMs / 10);
    this.#watchdog = {
      stop: () => clearInterval(timer),
      // A Timeout object at run time (Deno 2.9.6 once node:* modules load),
      // typed as a number or a Timeout depending on the type graph.
      unref: () => runtime.unrefTimer(timer as unknown as number),
    };
    this.#worker = worker;
    return worker;
  }

  #receive(replies: RegexReply[]): void {
    this.#clock.restart();
    for (const reply of replies) {
      const job = this.#jobs.get(reply.id);
      if (job === undefined) continue;
      this.#jobs.delete(reply.id);
      if (reply.kind === "done") job.resolve(reply.scan);
      else job.reject(new Error(reply.message));
    }
    if (this.#jobs.size > 0) return;
    if (this.#closed) this.#release();
    else this.#worker?.thread.unref();
  }

  // Stuck: jobs wait, the worker is matching a chunk, and it started no
  // other since the process spent the budget in CPU and wall time. Steps are
  // read before the flag: a chunk started since the last look restarts the
  // clock even if it is being matched now.
  #check(): void {
    const steps = Atomics.load(this.#progress, PROGRESS_STEPS);
    const matching = Atomics.load(this.#progress, PROGRESS_MATCHING) !== 0;
    if (steps !== this.#steps || this.#jobs.size === 0 || !matching) {
      this.#steps = steps;
      this.#clock.restart();
      return;
    }
    if (!this.#clock.spent(this.#budgetMs)) return;
    const stuck = this.#jobs.get(Atomics.load(this.#progress, PROGRESS_JOB)) ??
      this.#jobs.values().next().value!;
    const timeout = new RegexTimeout(stuck.path, this.#budgetMs);
    stuckScans.set(stuck.key, { timeout, stamp: fileStamp(stuck.path) });
    if (stuckScans.size > MAX_STUCK_SCANS) {
      stuckScans.delete(stuckScans.keys().next().value!);
    }
    // Told to stop, it ends its scans once the match returns: until then
    // it counts against MAX_RUNAWAY.
    Atomics.store(this.#progress, PROGRESS_STOP, 1);
    runaways.push({
      progress: this.#progress,
      steps: Atomics.load(this.#progress, PROGRESS_STEPS),
    });
    this.#stop(timeout);
  }

  // The timeout remembered for this pattern on this file, unless the file has
  // changed since or this scanner's budget is longer.
  #stuckOn(key: string, path: string): RegexTimeout | undefined {
    const stuck = stuckScans.get(key);
    if (stuck === undefined) return undefined;
    if (
      stuck.timeout.budgetMs >= this.#budgetMs &&
      fileStamp(path) === stuck.stamp
    ) {
      return stuck.timeout;
    }
    stuckScans.delete(key);
    return undefined;
  }

  #lost(why: string): void {
    this.#stop(
      new RegexWorkerError(`the regex search worker stopped (${why})`),
    );
  }

  // Terminates the worker and fails every job still waiting for it.
  #stop(error: Error): void {
    this.#stopped ??= error;
    void this.#detach()?.thread.stop();
    const jobs = [...this.#jobs.values()];
    this.#jobs.clear();
    for (const job of jobs) job.reject(error);
  }

  // Hands the worker, idle now, to the next search.
  #release(): void {
    const worker = this.#detach();
    if (worker === undefined) return;
    worker.thread.unref();
    if (idle.length < MAX_IDLE) idle.push(worker);
    else void worker.thread.stop();
  }

  #detach(): RegexWorker | undefined {
    this.#watchdog?.stop();
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) worker.events = undefined;
    return worker;
  }
}

// The worker loads its module from disk when this package is local. Without
// read access to it (asked without a prompt), scan in-process instead of
// failing every regex search.
function spawn(): RegexWorker | undefined {
  if (
    WORKER_MODULE.protocol === "file:" &&
    runtime.permissions.querySync({
        name: "read",
        path: fileURLToPath(new URL("./", WORKER_MODULE)),
      }).state !== "granted"
  ) {
    return undefined;
  }
  try {
    return new RegexWorker();
  } catch {
    return undefined;
  }
}
