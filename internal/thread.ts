// Worker threads (the outline pool's, the regex search's, the image
// downscale's): Deno's web Worker, unref'd while idle, or a
// node:worker_threads Worker where that cannot be done.
//
// Why a web Worker: Deno's node:worker_threads constructor blocks the calling
// thread until the worker's Node.js environment is up, 24 ms under `deno run`
// and ~38 ms under `deno test` and `deno bench`, for each worker; a web
// Worker's constructor returns in ~10 ms and the worker boots beside the
// caller. A fresh outline pool's workers so start parsing 30-60 ms sooner.
//
// But a web Worker keeps the process alive, and its unref is not public: Deno
// keeps it as a method on Worker.prototype keyed by a private symbol, the one
// its own node:worker_threads calls to unref the web Worker beneath each of
// its workers. That method is found here by its shape, the only function on
// the prototype keyed by a symbol without a description. A Deno without it
// (none up to 2.9.6) gets node:worker_threads, which behaves the same, only
// starts slower; internal/thread_test.ts checks both, and that the process
// exits.
import { Worker as NodeWorker } from "node:worker_threads";
import {
  NODE_THREAD_DATA,
  THREAD_ENDED,
  type ThreadEnded,
} from "./thread_port.ts";

/** What a thread reports to its owner. */
export interface ThreadEvents {
  message(data: unknown): void;
  /**
   * An uncaught error in the worker, or a worker that ended itself
   * (`exit code N`). A web Worker's end is seen only when it runs
   * `threadPort()` (internal/thread_port.ts), as every worker of this
   * package does: Deno itself reports none.
   */
  error(error: Error): void;
}

/** A worker thread, whichever kind. */
export interface Thread {
  post(message: unknown, transfer: Transferable[]): void;
  /** Keeps the process alive while the thread has work. */
  ref(): void;
  /** Lets the process exit while the thread is idle. */
  unref(): void;
  /** Stops the thread; its events are reported no more. */
  stop(): Promise<void>;
}

/** `web`: Deno's Worker (when it can be unref'd); `node`: node:worker_threads. */
export type ThreadKind = "web" | "node";

type RefSwitch = (this: Worker, ref: boolean) => void;

const REF_SWITCH = _findRefSwitch();

/** The kind {@linkcode startThread} starts unless told otherwise. */
export const DEFAULT_THREAD_KIND: ThreadKind = REF_SWITCH ? "web" : "node";

/**
 * Starts a worker module, unref'd (idle). A `web` thread needs Deno's private
 * ref switch: without it, a `node` one starts instead.
 */
export function startThread(
  url: URL,
  events: ThreadEvents,
  kind: ThreadKind = DEFAULT_THREAD_KIND,
): Thread {
  return kind === "web" && REF_SWITCH
    ? _webThread(url, events, REF_SWITCH)
    : _nodeThread(url, events);
}

function _webThread(
  url: URL,
  events: ThreadEvents,
  refSwitch: RefSwitch,
): Thread {
  const worker = new Worker(url.href, { type: "module" });
  let referenced = true;
  const setRef = (ref: boolean): void => {
    if (ref === referenced) return;
    referenced = ref;
    refSwitch.call(worker, ref);
  };
  let stopped = false;
  worker.onmessage = (event) => {
    if (stopped) return;
    if (_isEnd(event.data)) {
      // Gone: posts to it would be dropped, and it keeps nothing alive.
      stopped = true;
      setRef(false);
      events.error(new Error(`exit code ${event.data.code}`));
    } else events.message(event.data);
  };
  worker.onmessageerror = () => {
    if (!stopped) events.error(new Error("a reply could not be read"));
  };
  worker.onerror = (event) => {
    // Handled here: unhandled, Deno raises it again in this thread, which
    // would end the process.
    event.preventDefault();
    if (!stopped) events.error(new Error(event.message));
  };
  setRef(false);
  return {
    post: (message, transfer) => worker.postMessage(message, transfer),
    ref: () => setRef(true),
    unref: () => setRef(false),
    stop() {
      stopped = true;
      setRef(false);
      worker.terminate();
      return Promise.resolve();
    },
  };
}

function _nodeThread(url: URL, events: ThreadEvents): Thread {
  // An empty env: copying the process's makes Deno ask for env access, and
  // the worker reads none.
  const worker = new NodeWorker(url, { env: {}, workerData: NODE_THREAD_DATA });
  worker.unref();
  let stopped = false;
  worker.on("message", (data: unknown) => {
    if (!stopped) events.message(data);
  });
  worker.on("error", (error: Error) => {
    if (!stopped) events.error(error);
  });
  worker.on("exit", (code: number) => {
    if (!stopped) events.error(new Error(`exit code ${code}`));
  });
  return {
    post: (message, transfer) =>
      worker.postMessage(message, transfer as NodeTransferable[]),
    ref: () => worker.ref(),
    unref: () => worker.unref(),
    async stop() {
      stopped = true;
      worker.unref();
      await worker.terminate();
    },
  };
}

function _isEnd(data: unknown): data is ThreadEnded {
  return typeof data === "object" && data !== null &&
    (data as { type?: unknown }).type === THREAD_ENDED;
}

type NodeTransferable = Parameters<NodeWorker["postMessage"]>[1] extends
  readonly (infer T)[] | undefined ? T : never;

// Deno's ref switch for web Workers: the one function on Worker.prototype
// keyed by a symbol with no description. Bun's Worker has public ref() and
// unref() instead.
function _findRefSwitch(): RefSwitch | undefined {
  if (typeof Worker !== "function") return undefined;
  const unref = (Worker.prototype as { unref?: unknown }).unref;
  if (typeof unref === "function") {
    return function (this: Worker, ref: boolean): void {
      const worker = this as Worker & { ref(): void; unref(): void };
      if (ref) worker.ref();
      else worker.unref();
    };
  }
  const prototype = Worker.prototype as unknown as Record<symbol, unknown>;
  const found = Object.getOwnPropertySymbols(prototype).filter((symbol) =>
    symbol.description === undefined &&
    typeof prototype[symbol] === "function"
  );
  return found.length === 1 ? prototype[found[0]] as RefSwitch : undefined;
}
