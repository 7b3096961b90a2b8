// The worker's side of a thread (see thread.ts): its messages in and out,
// whichever kind of thread it runs in. node:worker_threads is imported only
// in a node:worker_threads worker: loading it takes a Deno web Worker 4-9 ms.
import { runtime } from "./runtime/runtime.ts";

/** A worker's channel to the thread that started it. */
export interface ThreadPort {
  /** Calls `handler` with each message, in order. */
  onMessage(handler: (data: unknown) => void): void;
  post(message: unknown, transfer: Transferable[]): void;
}

interface WorkerScope {
  postMessage(message: unknown, transfer: Transferable[]): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

/**
 * The `type` of the message a web Worker's port posts as the worker ends
 * itself: Deno tells the owner of a web Worker nothing when it does.
 */
export const THREAD_ENDED = "fello:thread-ended";

/** What a web Worker posts as it ends itself; `code` is its exit code. */
export interface ThreadEnded {
  type: typeof THREAD_ENDED;
  code: number;
}

/** The channel of the worker this module runs in. */
export async function threadPort(): Promise<ThreadPort> {
  // A web Worker has `self`; Deno's node:worker_threads workers, as Node's,
  // do not. Bun's have one whose onmessage never fires: there the thread's
  // workerData tells (read synchronously, so that no message can arrive
  // before the handler is set).
  const scope = (globalThis as unknown as { self?: WorkerScope }).self;
  if (
    scope !== undefined && typeof scope.postMessage === "function" &&
    !(runtime.name === "bun" && _isBunNodeThread())
  ) {
    _reportEnd(scope);
    return {
      onMessage(handler) {
        scope.onmessage = (event) => handler(event.data);
      },
      post: (message, transfer) => scope.postMessage(message, transfer),
    };
  }
  const { parentPort } = await import("node:worker_threads");
  if (parentPort === null) throw new Error("not started as a worker");
  return {
    onMessage(handler) {
      parentPort.on("message", handler);
    },
    post: (message, transfer) =>
      parentPort.postMessage(message, transfer as never[]),
  };
}

/** The workerData a node:worker_threads thread is started with (thread.ts). */
export const NODE_THREAD_DATA: { thread: "node" } = { thread: "node" };

function _isBunNodeThread(): boolean {
  const { require } = import.meta as unknown as {
    require(id: string): { workerData?: { thread?: string } };
  };
  return require("node:worker_threads").workerData?.thread === "node";
}

// Deno.exit() in a web Worker dispatches `unload` there and ends the worker
// alone; close() ends it without either. Both are told to the owner, as a
// node:worker_threads Worker's exit event tells its own.
function _reportEnd(scope: WorkerScope): void {
  let told = false;
  const tell = (code: number): void => {
    if (told) return;
    told = true;
    const ended: ThreadEnded = { type: THREAD_ENDED, code };
    scope.postMessage(ended, []);
  };
  if (typeof globalThis.addEventListener === "function") {
    globalThis.addEventListener("unload", () => tell(runtime.exitCode));
  }
  // Bun's worker scope has no close() to wrap.
  if (typeof scope.close !== "function") return;
  const close = scope.close.bind(scope);
  scope.close = () => {
    tell(0);
    close();
  };
}
