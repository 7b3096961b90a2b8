// The `fetch_log` tool the context tests give the agent, and the check that
// what the agent sends stays a conversation an endpoint accepts.
import assert from "node:assert/strict";
import type { Tool } from "../../mod.ts";
import {
  type ChatMessage,
  contentText,
  type RecordedRequest,
} from "./scripted_server.ts";

/** What the `fetch_log` tool takes. */
export interface LogInput {
  label: string;
  size: number;
  /** Ignored; makes a call's input long. */
  note?: string;
  fail?: boolean;
  wait?: boolean;
}

/**
 * An extra tool whose output is `label:` and `size` x's; `fail` makes it throw
 * that text, `wait` makes it run until aborted (calling `onWait` first).
 */
export function logTool(onWait: () => void = () => {}): Tool<unknown, unknown> {
  return {
    name: "fetch_log",
    kind: "read",
    description: "Returns a log.",
    inputSchema: {
      type: "object",
      properties: {
        label: { type: "string" },
        size: { type: "number" },
        note: { type: "string" },
        fail: { type: "boolean" },
        wait: { type: "boolean" },
      },
      required: ["label", "size"],
    },
    execute(input: unknown, { signal } = {}): Promise<unknown> {
      const { label, size, fail, wait } = input as LogInput;
      const text = `${label}:${"x".repeat(size)}`;
      if (fail) return Promise.reject(new Error(text));
      if (!wait) return Promise.resolve({ text });
      onWait();
      return new Promise((_, reject) =>
        signal?.addEventListener("abort", () => reject(signal.reason))
      );
    },
    toModelText: (output: unknown) => (output as { text: string }).text,
  };
}

/** What would make an OpenAI-compatible endpoint refuse the messages. */
export function invalidities(messages: ChatMessage[]): string[] {
  const out: string[] = [];
  messages.forEach((message, i) => {
    if (message.role === "tool") {
      const text = typeof message.content === "string"
        ? message.content
        : contentText(message.content);
      if (!text) out.push(`message ${i}: a tool message without content`);
      const owner = messages.slice(0, i).findLast((m) =>
        m.role === "assistant"
      );
      if (!owner?.tool_calls?.some((c) => c.id === message.tool_call_id)) {
        out.push(`message ${i}: answers unknown call ${message.tool_call_id}`);
      }
    }
    if (message.role !== "assistant" || !message.tool_calls?.length) return;
    const answered: string[] = [];
    for (let j = i + 1; messages[j]?.role === "tool"; j++) {
      answered.push(messages[j].tool_call_id!);
    }
    for (const { id } of message.tool_calls) {
      if (!answered.includes(id)) out.push(`message ${i}: ${id} unanswered`);
    }
  });
  return out;
}

/** Fails the test when a request holds messages an endpoint would refuse. */
export function assertAllValid(requests: RecordedRequest[]): void {
  requests.forEach((request, n) =>
    assert.deepEqual(invalidities(request.body.messages), [], `request ${n}`)
  );
}

/**
 * Fails the test unless `request` is valid and its messages have these
 * `roles` (separated by spaces), in order.
 */
export function assertRoles(request: RecordedRequest, roles: string): void {
  assertAllValid([request]);
  assert.deepEqual(request.body.messages.map((m) => m.role), roles.split(" "));
}
