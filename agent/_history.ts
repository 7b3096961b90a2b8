// A conversation handed to createAgent({ history }) comes from outside: a file
// a session was saved to, a script's own store. It is checked before the first
// request, so a damaged one fails with the message at fault named rather than
// as a refused request later. Plain data here, no AI SDK types.
import type { AgentMessage } from "./types.ts";

const ROLES = new Set(["user", "assistant", "tool"]);

/**
 * What is wrong with `history` as a conversation to go on with, or undefined
 * when nothing is: each message a user, assistant or tool message with
 * content, and each tool call of an assistant message answered by the tool
 * messages right after it, as endpoints require.
 */
export function historyProblem(history: unknown): string | undefined {
  if (!Array.isArray(history)) return "it is not an array of messages";
  let unanswered = new Set<string>();
  let asker = -1;
  for (const [index, message] of history.entries()) {
    const problem = messageProblem(message);
    if (problem) return `message ${index} ${problem}`;
    const { role, content } = message as AgentMessage;
    if (role === "tool") {
      for (const id of partIds(content, "tool-result")) {
        if (!unanswered.delete(id)) {
          return `message ${index} answers call "${id}", which the assistant message before it did not make or another message answered`;
        }
      }
      continue;
    }
    if (unanswered.size > 0) break;
    if (role === "assistant") {
      unanswered = new Set(partIds(content, "tool-call"));
      asker = index;
    }
  }
  if (unanswered.size === 0) return undefined;
  const [id] = unanswered;
  return `message ${asker} makes call "${id}", which no tool message right after it answers`;
}

function messageProblem(message: unknown): string | undefined {
  if (typeof message !== "object" || message === null) {
    return "is not an object";
  }
  const { role, content } = message as { role?: unknown; content?: unknown };
  if (typeof role !== "string" || !ROLES.has(role)) {
    return `has role ${JSON.stringify(role)}, not user, assistant or tool`;
  }
  if (
    Array.isArray(content) || (typeof content === "string" && role !== "tool")
  ) {
    return undefined;
  }
  return role === "tool"
    ? "has no array of tool results as its content"
    : "has no content (a string or an array of parts)";
}

function partIds(content: unknown, type: string): string[] {
  if (!Array.isArray(content)) return [];
  return content
    .filter((part) => part?.type === type)
    .map((part) => String(part.toolCallId));
}
