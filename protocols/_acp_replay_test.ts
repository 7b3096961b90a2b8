import assert from "node:assert/strict";
import { replayUpdates } from "./_acp_replay.ts";

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
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "c1",
        toolName: "gone_tool",
        output: { type: "error-text", value: "it broke" },
      }],
    },
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
    {
      role: "assistant",
      content: [{
        type: "tool-call",
        toolCallId: "e",
        toolName: "EditFile",
        input,
      }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "e",
        toolName: "EditFile",
        output: { type: "text", value: "Edited a.ts" },
      }],
    },
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
