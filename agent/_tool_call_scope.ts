// Which model tool call the current code runs for. Permission requests read it
// so `approve` can name the call (ACP's request_permission needs the id), and a
// Subagent's children keep the id of the Subagent call the caller has seen.
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<string>();

/** Runs `fn` as part of tool call `toolCallId`, unless an outer call is already running. */
export function runInToolCall<T>(toolCallId: string, fn: () => T): T {
  return scope.run(scope.getStore() ?? toolCallId, fn);
}

/** The id of the outermost tool call running here, if any. */
export function currentToolCallId(): string | undefined {
  return scope.getStore();
}
