// Which model tool call the current code runs for. Permission requests read it
// so `approve` can name the call (ACP's request_permission needs the id); a
// Subagent's children report the id of the Subagent call the caller has seen.
import { AsyncLocalStorage } from "node:async_hooks";

const scope = new AsyncLocalStorage<string>();

/**
 * Runs `fn` as part of tool call `toolCallId`. Always sets the id rather than
 * keeping an inherited one: the SDK may run a tool in a context captured
 * during an earlier call.
 */
export function runInToolCall<T>(toolCallId: string, fn: () => T): T {
  return scope.run(toolCallId, fn);
}

/** The id of the tool call running here, if any. */
export function currentToolCallId(): string | undefined {
  return scope.getStore();
}
