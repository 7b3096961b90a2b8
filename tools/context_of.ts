// Links a tools instance to its ToolContext, so tools built outside createTools
// (the agent's ImageAnalysis) share the same workspace, permission gate (with
// its "always" answers) and file backend, without widening the public Tools type.
import type { ToolContext } from "./context.ts";

const contexts = new WeakMap<object, ToolContext>();

/** Records `context` as the context of `tools` and returns `tools`. */
export function rememberContext<T extends object>(
  context: ToolContext,
  tools: T,
): T {
  contexts.set(tools, context);
  return tools;
}

/** The context of a tools instance made by createTools. */
export function contextOf(tools: object): ToolContext | undefined {
  return contexts.get(tools);
}
