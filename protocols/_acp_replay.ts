// session/load: an editor opens a saved session again, and the agent replays
// its conversation as session/update notifications (the user's prompts, the
// model's text and thoughts, each tool call with its outcome) before it
// answers. This file turns a saved history into those updates.
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentMessage } from "../agent/types.ts";
import type { ToolKind } from "../tools/types.ts";
import {
  proposedDiff,
  textContent,
  toolLocations,
  toolTitle,
} from "./_acp_updates.ts";

const EDITS = new Set(["EditFile", "WriteFile"]);

interface Part {
  type?: unknown;
  text?: unknown;
  toolCallId?: unknown;
  toolName?: unknown;
  input?: unknown;
  output?: { type?: unknown; value?: unknown };
}

/**
 * The updates that show `history` in an editor, in order. `kinds` gives each
 * tool's kind (other for tools the session no longer has).
 */
export function replayUpdates(
  history: readonly AgentMessage[],
  setup: { cwd: string; kinds: ReadonlyMap<string, ToolKind> },
): acp.SessionUpdate[] {
  const updates: acp.SessionUpdate[] = [];
  for (const message of history) {
    for (const part of parts(message.content)) {
      const update = partUpdate(message.role, part, setup);
      if (update) updates.push(update);
    }
  }
  return updates;
}

function partUpdate(
  role: AgentMessage["role"],
  part: Part,
  { cwd, kinds }: { cwd: string; kinds: ReadonlyMap<string, ToolKind> },
): acp.SessionUpdate | undefined {
  switch (part.type) {
    case "text": {
      const content = { type: "text" as const, text: String(part.text ?? "") };
      return role === "user"
        ? { sessionUpdate: "user_message_chunk", content }
        : { sessionUpdate: "agent_message_chunk", content };
    }
    case "reasoning":
      return {
        sessionUpdate: "agent_thought_chunk",
        content: { type: "text", text: String(part.text ?? "") },
      };
    case "tool-call": {
      const name = String(part.toolName);
      // An edit shows as the diff its input asked for, as it did live.
      const diff = proposedDiff(name, part.input, cwd);
      return {
        sessionUpdate: "tool_call",
        toolCallId: String(part.toolCallId),
        title: toolTitle(name, part.input),
        kind: kinds.get(name) ?? "other",
        status: "in_progress",
        rawInput: part.input,
        locations: toolLocations(name, part.input, cwd),
        ...(diff ? { content: [diff] } : {}),
      };
    }
    case "tool-result": {
      const toolCallId = String(part.toolCallId);
      const failed = String(part.output?.type ?? "").startsWith("error");
      // A done edit keeps the diff its call showed.
      if (!failed && EDITS.has(String(part.toolName))) {
        return {
          sessionUpdate: "tool_call_update",
          toolCallId,
          status: "completed",
        };
      }
      const value = part.output?.value;
      const text = typeof value === "string" ? value : JSON.stringify(value);
      return {
        sessionUpdate: "tool_call_update",
        toolCallId,
        status: failed ? "failed" : "completed",
        content: [textContent(text ?? "")],
      };
    }
    default:
      return undefined;
  }
}

function parts(content: unknown): Part[] {
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content)
    ? content.filter((part): part is Part =>
      typeof part === "object" && part !== null
    )
    : [];
}
