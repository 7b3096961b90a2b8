// The worker pool: starts workers on demand up to its size, queues the rest,
// replaces a worker that crashed or asked to be recycled.
//
// An idle worker is unref'd (internal/thread.ts), so a script (or the CLI)
// exits on its own as soon as its work is done, and the warm worker is reused
// when more work comes first.
import {
  startThread,
  type Thread,
  type ThreadKind,
} from "../internal/thread.ts";
import { workerUrl } from "../internal/worker_url.ts";
import type {
  OutlineReply,
  OutlineRequest,
  SyntaxReply,
  SyntaxRequest,
  WorkerMessage,
  WorkerReply,
  WorkerRequest,
} from "./_protocol.ts";
import { ProgressClock } from "../internal/progress_clock.ts";
import { runtime } from "../internal/runtime/runtime.ts";

const WORKER_URL = workerUrl(new URL("./_worker.ts", import.meta.url));
/** How many paths the pool remembers the worker of. */
const MAX_HOMES = 1000;
/**
 * Jobs posted to one worker at a time. The worker runs them one after the
 * other; the second waits in its message queue, so the worker starts it the
 * moment it posts the first reply instead of idling for a round trip through
 * the main thread (a folder of small files spent ~30% of worker time so).
 */
const DEPTH = 2;

/**
 * A job as the pool receives it (the pool assigns the id): an outline unless
 * its `type` says otherwise. Its `signal` drops the job: unstarted, it never
 * runs; running, its worker is replaced.
 */
export type PoolJob = OutlineJob | SyntaxJob;

/** An outline job (see {@linkcode PoolJob}). */
export type OutlineJob = Omit<OutlineRequest, "type" | "id"> & Cancel;

/** A syntax check (see {@linkcode PoolJob}). */
export type SyntaxJob = Omit<SyntaxRequest, "id"> & Cancel;

interface Cancel {
  signal?: AbortSignal;
}

interface Pending {
  request: WorkerRequest;
  resolve(reply: WorkerReply): void;
  reject(error: Error): void;
  /** Cancelled after it was posted behind a running job; nobody waits for it. */
  abandoned?: boolean;
}

interface Slot {
  worker: Thread;
  /** The jobs posted to it, in order; the first is the one running. */
  jobs: Pending[];
  /** The compiled modules this worker already has. */
  modules: WeakSet<WebAssembly.Module>;
  /** Ends the running job if the worker stops showing progress on it. */
  watchdog?: ReturnType<typeof setTimeout>;
}

/** Options for {@linkcode OutlinePool}. */
export interface OutlinePoolOptions {
  /** How many workers at most; defaults to the number of cores. */
  size?: number;
  /**
   * How long past its parse budget a job may go without a sign of progress
   * (see WorkerProgress) before its worker is taken for stuck (a read that
   * never returns) and replaced; default 10 s.
   */
  stallMs?: number;
  /** Which kind of worker thread to start (internal/thread.ts); a test seam. */
  threads?: ThreadKind;
}

/** See {@linkcode OutlinePoolOptions.stallMs}. */
const STALL_MS = 10_000;
/** The longest delay setTimeout takes; a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * The share of one core the process must have used over a window without
 * progress for the pool to take its worker for busy, not stuck: a stalled
 * read uses none, a text pass on a machine shared by 20 busy threads still
 * gets 5-10%.
 */
const BUSY_SHARE = 0.02;

/** A pool of outline workers. Idle workers never keep the process alive. */
export class OutlinePool {
  readonly size: number;
  #slots: Slot[] = [];
  #queue: Pending[] = [];
  #home = new Map<string, Slot>();
  #nextId = 1;
  #started = 0;

  readonly #stallMs: number;
  readonly #threads: ThreadKind | undefined;

  constructor(options: OutlinePoolOptions = {}) {
    this.size = Math.max(1, options.size ?? navigator.hardwareConcurrency ?? 2);
    this.#stallMs = options.stallMs ?? STALL_MS;
    this.#threads = options.threads;
  }

  /** How many workers this pool has started so far (replacements included). */
  get workersStarted(): number {
    return this.#started;
  }

  /** How many started workers have no job (booting ones included). */
  get idle(): number {
    return this.#slots.filter((slot) => slot.jobs.length === 0).length;
  }

  /**
   * Runs a job on the first free worker. Rejects if the worker dies, or with
   * a {@linkcode CancelledError} once the job's signal is aborted.
   */
  run(job: OutlineJob): Promise<OutlineReply>;
  run(job: SyntaxJob): Promise<SyntaxReply>;
  run(job: PoolJob): Promise<WorkerReply>;
  run(job: PoolJob): Promise<WorkerReply> {
    const { signal, ...rest } = job;
    if (signal?.aborted) return Promise.reject(new CancelledError());
    const request: WorkerRequest = {
      type: "outline",
      id: this.#nextId++,
      ...rest,
    };
    return new Promise((resolve, reject) => {
      const onAbort = (): void => this.#cancel(pending);
      const pending: Pending = {
        request,
        resolve(reply) {
          signal?.removeEventListener("abort", onAbort);
          resolve(reply);
        },
        reject(error) {
          signal?.removeEventListener("abort", onAbort);
          reject(error);
        },
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(pending);
      this.#dispatch();
    });
  }

  /**
   * Starts a worker now if none is idle and the pool has room, so it boots
   * while the caller prepares a job.
   */
  warm(): void {
    const idle = this.#slots.some((s) => s.jobs.length === 0);
    if (!idle && this.#slots.length < this.size) this.#spawn();
  }

  /** Stops every worker; queued and running jobs are rejected. */
  async terminate(): Promise<void> {
    const slots = this.#slots.splice(0);
    const error = new Error("the outline pool was shut down");
    for (const pending of this.#queue.splice(0)) pending.reject(error);
    for (const slot of slots) {
      clearTimeout(slot.watchdog);
      for (const pending of slot.jobs.splice(0)) pending.reject(error);
    }
    await Promise.all(slots.map((slot) => slot.worker.stop()));
  }

  // A queued job leaves the queue. A running one takes its worker with it:
  // a parse cannot be stopped midway, and a cancelled call may be the 30 s
  // one. One posted behind a running job is already in its worker's message
  // queue: it is marked, and its worker replaced when it starts it.
  #cancel(pending: Pending): void {
    const queued = this.#queue.indexOf(pending);
    if (queued !== -1) {
      this.#queue.splice(queued, 1);
    } else {
      const slot = this.#slots.find((s) => s.jobs.includes(pending));
      if (slot === undefined) return; // answered already
      if (slot.jobs[0] === pending) {
        slot.jobs.shift();
        this.#retire(slot);
      } else {
        pending.abandoned = true;
      }
    }
    pending.reject(new CancelledError());
    this.#dispatch();
  }

  #dispatch(): void {
    while (this.#queue.length > 0) {
      const slot = this.#pick(this.#queue[0].request.path);
      if (slot === undefined) return;
      const pending = this.#queue.shift()!;
      slot.jobs.push(pending);
      this.#home.delete(pending.request.path);
      this.#home.set(pending.request.path, slot);
      if (this.#home.size > MAX_HOMES) {
        this.#home.delete(this.#home.keys().next().value!);
      }
      slot.worker.ref();
      slot.worker.post(_once(slot, pending.request), []);
      if (slot.jobs.length === 1) this.#watch(slot);
    }
  }

  // Times the job a worker is running, from its start or its last sign of
  // progress: a worker that shows none for the job's budget and the stall
  // allowance (stuck in a read of a pipe, say) is replaced, and its job
  // fails. A parse reports progress every second, however slow a busy
  // machine makes it; a text pass or an extraction cannot, so a window
  // without progress in which the process kept computing (at least
  // BUSY_SHARE of a core) is taken for a worker at work, until the process
  // has spent the whole window in CPU time since the last sign (a worker
  // spinning for good).
  #watch(slot: Slot): void {
    clearTimeout(slot.watchdog);
    const running = slot.jobs[0];
    if (running === undefined) return;
    const limit = running.request.budgetMs + this.#stallMs;
    // A budget past what a timer can count (about 24.8 days) has no watchdog.
    if (!(limit <= MAX_TIMER_MS)) return;
    const since = new ProgressClock();
    const window = new ProgressClock();
    const check = (): void => {
      if (slot.jobs[0] !== running) return;
      // Where the runtime does not tell CPU time, only progress counts.
      const computing = (window.cpuMs() ?? 0) >= limit * BUSY_SHARE;
      window.restart();
      if (computing && !since.spent(limit)) {
        arm();
        return;
      }
      slot.jobs.shift();
      this.#retire(slot);
      const wait = limit < 1000
        ? `${limit} ms`
        : `${Math.round(limit / 1000)} s`;
      running.reject(
        new Error(
          `the parser worker did not answer in ${wait} (is the file a pipe, or on a stalled disk?)`,
        ),
      );
      this.#dispatch();
    };
    const arm = (): void => {
      const watchdog = setTimeout(check, limit);
      // A busy worker keeps the process alive already; the timer must not.
      runtime.unrefTimer(watchdog);
      slot.watchdog = watchdog;
    };
    arm();
  }

  // The worker that last outlined `path` keeps its tree for an incremental
  // re-parse: prefer it when idle, then any idle worker, then a new one, then
  // the least busy worker with room in its queue.
  #pick(path: string): Slot | undefined {
    const home = this.#home.get(path);
    if (
      home !== undefined && home.jobs.length === 0 &&
      this.#slots.includes(home)
    ) {
      return home;
    }
    const idle = this.#slots.find((s) => s.jobs.length === 0);
    if (idle !== undefined) return idle;
    if (this.#slots.length < this.size) return this.#spawn();
    let best: Slot | undefined;
    for (const slot of this.#slots) {
      if (slot.jobs.length >= DEPTH) continue;
      if (best === undefined || slot.jobs.length < best.jobs.length) {
        best = slot;
      }
    }
    return best;
  }

  #spawn(): Slot {
    const slot: Slot = {
      worker: startThread(WORKER_URL, {
        message: (data) => this.#receive(slot, data as WorkerMessage),
        error: (error) => this.#lose(slot, error),
      }, this.#threads),
      jobs: [],
      modules: new WeakSet(),
    };
    this.#started++;
    this.#slots.push(slot);
    return slot;
  }

  #receive(slot: Slot, message: WorkerMessage): void {
    if (message.type !== "progress") this.#settle(slot, message);
    else if (slot.jobs[0]?.request.id === message.id) this.#watch(slot);
  }

  #settle(slot: Slot, reply: WorkerReply): void {
    const pending = slot.jobs[0];
    if (pending === undefined || pending.request.id !== reply.id) return;
    slot.jobs.shift();
    // The worker went on to the next job: if nobody waits for it any more,
    // replace the worker rather than let it parse for nothing.
    if (reply.recycle || slot.jobs[0]?.abandoned) {
      this.#retire(slot);
    } else {
      this.#watch(slot);
      if (slot.jobs.length === 0) slot.worker.unref();
    }
    pending.resolve(reply);
    this.#dispatch();
  }

  #lose(slot: Slot, error: Error): void {
    if (!this.#slots.includes(slot)) return;
    // The first job was running: it is the one that crashed the worker.
    const crashed = slot.jobs.shift();
    this.#retire(slot);
    crashed?.reject(
      new Error(`the parser worker crashed (${error.message})`, {
        cause: error,
      }),
    );
    this.#dispatch();
  }

  // Removes a worker from the pool; the next job starts a fresh one. Jobs
  // posted to it but not started go back to the front of the queue, unless
  // nobody waits for them.
  #retire(slot: Slot): void {
    clearTimeout(slot.watchdog);
    const posted = slot.jobs.splice(0).filter((pending) => !pending.abandoned);
    this.#queue.unshift(...posted);
    this.#slots = this.#slots.filter((s) => s !== slot);
    void slot.worker.stop();
  }
}

// Posts each compiled module to a worker once: cloning one per job costs more
// than the small files of a folder take to parse.
function _once(slot: Slot, request: WorkerRequest): WorkerRequest {
  const copy = { ...request };
  for (const key of ["grammar", "runtime"] as const) {
    const module = copy[key];
    if (module === undefined) continue;
    if (slot.modules.has(module)) delete copy[key];
    else slot.modules.add(module);
  }
  return copy;
}

/** Why {@linkcode OutlinePool.run} rejects a job whose signal was aborted. */
export class CancelledError extends Error {
  constructor() {
    super("the outline was cancelled");
    this.name = "CancelledError";
  }
}
