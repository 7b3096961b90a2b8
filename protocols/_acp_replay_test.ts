// replayUpdates(): a saved conversation shown again as the session/update
// notifications an editor replays on session/load.
import assert from "node:assert/strict";
import type { AgentMessage } from "../agent/types.ts";
import { replayUpdates } from "./_acp_replay.ts";

/** An assistant message that makes one tool call. */
function toolCall(
  toolCallId: string,
  toolName: string,
  input: unknown,
): AgentMessage {
  return {
    role: "assistant",
    content: [{ type: "tool-call", toolCallId, toolName, input }],
  };
}

/** A tool message with one call's result. */
function toolResult(
  toolCallId: string,
  toolName: string,
  output: { type: "text" | "error-text"; value: string },
): AgentMessage {
  return {
    role: "tool",
    content: [{ type: "tool-result", toolCallId, toolName, output }],
  };
}

Deno.test("replayUpdates() shows thoughts, failed calls and tools the session no longer has", () => {
  const updates = replayUpdates([
    { role: "user", content: [{ type: "text", text: "go" }] },
    {
      role: "assistant",
      content: [
        { type: "reasoning", text: "thinking" },
        {
          type: "tool-call",
          toolCallId: "c1",
          toolName: "gone_tool",
          input: { q: 1 },
        },
      ],
    },
    toolResult("c1", "gone_tool", { type: "error-text", value: "it broke" }),
    { role: "assistant", content: "plain text answer" },
  ], { cwd: "/w", kinds: new Map() });
  assert.deepEqual(updates, [
    {
      sessionUpdate: "user_message_chunk",
      content: { type: "text", text: "go" },
    },
    {
      sessionUpdate: "agent_thought_chunk",
      content: { type: "text", text: "thinking" },
    },
    {
      sessionUpdate: "tool_call",
      toolCallId: "c1",
      title: "gone_tool",
      kind: "other",
      status: "in_progress",
      rawInput: { q: 1 },
      locations: [],
    },
    {
      sessionUpdate: "tool_call_update",
      toolCallId: "c1",
      status: "failed",
      content: [{
        type: "content",
        content: { type: "text", text: "it broke" },
      }],
    },
    {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "plain text answer" },
    },
  ]);
});

Deno.test("replayUpdates() shows an edit as the diff its call asked for", () => {
  const input = { path: "a.ts", oldText: "x", newText: "y" };
  const updates = replayUpdates([
    toolCall("e", "EditFile", input),
    toolResult("e", "EditFile", { type: "text", value: "Edited a.ts" }),
  ], { cwd: "/w", kinds: new Map([["EditFile", "edit"]]) });
  assert.deepEqual(updates, [
    {
      sessionUpdate: "tool_call",
      toolCallId: "e",
      title: "Edit a.ts",
      kind: "edit",
      status: "in_progress",
      rawInput: input,
      locations: [{ path: "/w/a.ts" }],
      content: [{ type: "diff", path: "/w/a.ts", oldText: "x", newText: "y" }],
    },
    { sessionUpdate: "tool_call_update", toolCallId: "e", status: "completed" },
  ]);
});

Deno.test("replayUpdates() shows a summary as the agent's and a cleared edit as text", () => {
  const summary =
    "[Summary of the earlier conversation, written to keep it within the model's context]\n\nS\n\n[End of the summary]";
  const input = { path: "a.ts", content: "[cleared: 2000 characters]" };
  const updates = replayUpdates([
    { role: "user", content: `${summary}\n\nGo on` },
    toolCall("w", "WriteFile", input),
    toolResult("w", "WriteFile", { type: "text", value: "[Output cleared …]" }),
  ], { cwd: "/w", kinds: new Map([["WriteFile", "edit"]]) });
  assert.deepEqual(updates.map((u) => u.sessionUpdate), [
    "agent_message_chunk",
    "user_message_chunk",
    "tool_call",
    "tool_call_update",
  ]);
  const [said, asked, call, done] = updates as Record<string, unknown>[];
  assert.deepEqual(said.content, { type: "text", text: summary.slice(0, -22) });
  assert.deepEqual(asked.content, { type: "text", text: "Go on" });
  assert.equal(call.content, undefined); // no diff of a cleared text
  assert.deepEqual(done.content, [{
    type: "content",
    content: { type: "text", text: "[Output cleared …]" },
  }]);
});

Deno.test("replayUpdates() shows a summary as a compaction to a client that has them", () => {
  const summary =
    "[Summary of the earlier conversation, written to keep it within the model's context]\n\nThe user asked for X.\n\n[End of the summary]";
  const updates = replayUpdates([
    { role: "user", content: `${summary}\n\nGo on` },
    { role: "assistant", content: "Going on." },
  ], { cwd: "/w", kinds: new Map(), compaction: true });
  assert.deepEqual(updates, [
    {
      sessionUpdate: "compaction_update",
      compactionId: "summary-0",
      status: "completed",
      summary: [{ type: "text", text: "The user asked for X." }],
    },
    {
      sessionUpdate: "user_message_chunk",
      content: { type: "text", text: "Go on" },
    },
    {
      sessionUpdate: "agent_message_chunk",
      content: { type: "text", text: "Going on." },
    },
  ]);
});

Deno.test("replayUpdates() shows the plan each successful Plan call set", () => {
  const entries = [
    { content: "Read the test", priority: "high", status: "completed" },
    { content: "Fix it", priority: "medium", status: "in_progress" },
  ];
  const call = (id: string, input: unknown) => ({
    role: "assistant" as const,
    content: [{ type: "tool-call", toolCallId: id, toolName: "Plan", input }],
  });
  const result = (id: string, type = "text") => ({
    role: "tool" as const,
    content: [{
      type: "tool-result",
      toolCallId: id,
      toolName: "Plan",
      output: { type, value: "Plan updated" },
    }],
  });
  const updates = replayUpdates([
    call("p1", { entries }),
    result("p1"),
    call("p2", { entries: [{ content: "x", priority: "urgent" }] }),
    result("p2", "error-text"),
    call("p3", { entries: [] }),
    result("p3", "error-text"),
  ], { cwd: "/w", kinds: new Map([["Plan", "think"]]) });
  const plans = updates.filter((u) => u.sessionUpdate === "plan");
  assert.deepEqual(plans, [{ sessionUpdate: "plan", entries }]);
  // Shown before the call's outcome, as live.
  assert.deepEqual(updates.slice(0, 3).map((u) => u.sessionUpdate), [
    "tool_call",
    "plan",
    "tool_call_update",
  ]);
});
