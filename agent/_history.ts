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
  if (typeof content === "string" && role !== "tool") return undefined;
  if (!Array.isArray(content)) {
    return role === "tool"
      ? "has no array of tool results as its content"
      : "has no content (a string or an array of parts)";
  }
  for (const [index, part] of content.entries()) {
    const problem = partProblem(part);
    if (problem) return `has part ${index} ${problem}`;
  }
  return undefined;
}

// The fields the AI SDK reads of each kind of part. Kinds this file does not
// know (a later SDK's) pass: refusing them would refuse the agent's own.
function partProblem(part: unknown): string | undefined {
  if (typeof part !== "object" || part === null) return "that is not an object";
  const p = part as Record<string, unknown>;
  const named = typeof p.toolCallId === "string" &&
    typeof p.toolName === "string";
  switch (p.type) {
    case "text":
    case "reasoning":
      return typeof p.text === "string"
        ? undefined
        : `of type ${p.type} without text`;
    case "tool-call":
      return named
        ? undefined
        : "of type tool-call without toolCallId or toolName";
    case "tool-result": {
      const output = p.output as { type?: unknown } | null | undefined;
      return named && typeof output?.type === "string"
        ? undefined
        : "of type tool-result without toolCallId, toolName or output";
    }
    default:
      return typeof p.type === "string" ? undefined : "without a type";
  }
}

function partIds(content: unknown, type: string): string[] {
  if (!Array.isArray(content)) return [];
  return content
    .filter((part) => part?.type === type)
    .map((part) => String(part.toolCallId));
}
