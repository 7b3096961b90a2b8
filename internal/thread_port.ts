// The worker's side of a thread (see _thread.ts): its messages in and out,
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
