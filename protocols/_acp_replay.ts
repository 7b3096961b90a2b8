// session/load: an editor opens a saved session again, and the agent replays
// its conversation as session/update notifications (the user's prompts, the
// model's text and thoughts, each tool call with its outcome) before it
// answers. This file turns a saved history into those updates.
import type * as acp from "@agentclientprotocol/sdk";
import { isClearedInput } from "../agent/context_budget.ts";
import { cleanSummary, splitSummary } from "../agent/context_summary.ts";
import type { AgentMessage } from "../agent/types.ts";
import { plannedEntries } from "../tools/plan/plan.ts";
import type { ToolKind } from "../tools/types.ts";
import {
  proposedDiff,
  textContent,
  toolLocations,
  toolTitle,
} from "./_acp_updates.ts";

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
 * tool's kind (other for tools the session no longer has). A summary of
 * earlier messages shows as a compaction to a client that has them, else as
 * the agent's message.
 */
export function replayUpdates(
  history: readonly AgentMessage[],
  setup: {
    cwd: string;
    kinds: ReadonlyMap<string, ToolKind>;
    compaction?: boolean;
  },
): acp.SessionUpdate[] {
  const replay = new Replay(setup.cwd, setup.kinds, setup.compaction ?? false);
  for (const message of history) {
    for (const part of parts(message.content)) replay.add(message.role, part);
  }
  return replay.updates;
}

class Replay {
  readonly updates: acp.SessionUpdate[] = [];
  /** Calls shown with a diff: done, they keep it. */
  #diffs = new Set<string>();
  /** The entries of Plan calls, shown as the plan once they succeed. */
  #plans = new Map<string, acp.PlanEntry[]>();

  constructor(
    readonly cwd: string,
    readonly kinds: ReadonlyMap<string, ToolKind>,
    readonly compaction: boolean,
  ) {}

  add(role: AgentMessage["role"], part: Part): void {
    switch (part.type) {
      case "text":
        return this.#text(role, String(part.text ?? ""));
      case "reasoning":
        return this.#push("agent_thought_chunk", String(part.text ?? ""));
      case "tool-call":
        return this.#call(part);
      case "tool-result":
        return this.#result(part);
    }
  }

  #text(role: AgentMessage["role"], text: string): void {
    if (role !== "user") return this.#push("agent_message_chunk", text);
    // A summary that replaced the earliest messages is the agent's, not the
    // user's; the user's own request may follow it.
    const split = splitSummary(text);
    if (!split) return this.#push("user_message_chunk", text);
    if (this.compaction) {
      this.updates.push({
        sessionUpdate: "compaction_update",
        compactionId: `summary-${this.updates.length}`,
        status: "completed",
        summary: [{ type: "text", text: cleanSummary(split.summary) }],
      });
    } else this.#push("agent_message_chunk", split.summary);
    if (split.own) this.#push("user_message_chunk", split.own);
  }

  #push(
    kind: "user_message_chunk" | "agent_message_chunk" | "agent_thought_chunk",
    text: string,
  ): void {
    this.updates.push({ sessionUpdate: kind, content: { type: "text", text } });
  }

  #call(part: Part): void {
    const name = String(part.toolName);
    const toolCallId = String(part.toolCallId);
    // An edit shows as the diff its input asked for, as it did live, unless
    // clearing took its text.
    const cleared = Object.values(part.input ?? {}).some(isClearedInput);
    const diff = cleared ? undefined : proposedDiff(name, part.input, this.cwd);
    if (diff) this.#diffs.add(toolCallId);
    if (name === "Plan") {
      const entries = plannedEntries(part.input);
      if (entries) this.#plans.set(toolCallId, entries);
    }
    this.updates.push({
      sessionUpdate: "tool_call",
      toolCallId,
      title: toolTitle(name, part.input),
      kind: this.kinds.get(name) ?? "other",
      status: "in_progress",
      rawInput: part.input,
      locations: toolLocations(name, part.input, this.cwd),
      ...(diff ? { content: [diff] } : {}),
    });
  }

  #result(part: Part): void {
    const toolCallId = String(part.toolCallId);
    const failed = String(part.output?.type ?? "").startsWith("error");
    const plan = this.#plans.get(toolCallId);
    // The plan panel shows the last plan set, as it did live.
    if (plan && !failed) {
      this.updates.push({ sessionUpdate: "plan", entries: plan });
    }
    if (!failed && this.#diffs.has(toolCallId)) {
      this.updates.push({
        sessionUpdate: "tool_call_update",
        toolCallId,
        status: "completed",
      });
      return;
    }
    const value = part.output?.value;
    const text = typeof value === "string" ? value : JSON.stringify(value);
    this.updates.push({
      sessionUpdate: "tool_call_update",
      toolCallId,
      status: failed ? "failed" : "completed",
      content: [textContent(text ?? "")],
    });
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
