// Which model tool call the current code runs for. Permission requests read it
// so `approve` can name the call (ACP's request_permission needs the id). A
// Subagent child's call gets an id derived from the Subagent call and its task:
// each child is a conversation of its own, whose ids may repeat the parent's.
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

/** The session-wide id of call `toolCallId` of task `task` of Subagent call `parent`. */
export function childToolCallId(
  parent: string,
  task: number,
  toolCallId: string,
): string {
  return `${parent}/${task}/${toolCallId}`;
}
