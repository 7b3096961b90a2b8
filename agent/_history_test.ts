import assert from "node:assert/strict";
import { historyProblem } from "./_history.ts";

const call = (id: string) => ({
  role: "assistant",
  content: [{
    type: "tool-call",
    toolCallId: id,
    toolName: "ReadFile",
    input: {},
  }],
});
const result = (...ids: string[]) => ({
  role: "tool",
  content: ids.map((id) => ({
    type: "tool-result",
    toolCallId: id,
    toolName: "ReadFile",
    output: { type: "text", value: "x" },
  })),
});

Deno.test("historyProblem() accepts a conversation of prompts, answers, calls and their results", () => {
  assert.equal(historyProblem([]), undefined);
  assert.equal(
    historyProblem([
      { role: "user", content: "read a and b" },
      {
        role: "assistant",
        content: [
          { type: "text", text: "ok" },
          ...call("1").content,
          ...call("2").content,
        ],
      },
      result("1"),
      result("2"),
      { role: "assistant", content: "done" },
      { role: "user", content: [{ type: "text", text: "thanks" }] },
    ]),
    undefined,
  );
});

Deno.test("historyProblem() names the message at fault", () => {
  assert.equal(historyProblem({}), "it is not an array of messages");
  assert.equal(historyProblem([null]), "message 0 is not an object");
  assert.equal(
    historyProblem([{ role: "system", content: "x" }]),
    'message 0 has role "system", not user, assistant or tool',
  );
  assert.equal(
    historyProblem([{ role: "user" }]),
    "message 0 has no content (a string or an array of parts)",
  );
  assert.equal(
    historyProblem([{ role: "user", content: [{ type: "text" }] }]),
    "message 0 has part 0 of type text without text",
  );
  assert.equal(
    historyProblem([{ role: "user", content: [null] }]),
    "message 0 has part 0 that is not an object",
  );
  assert.equal(
    historyProblem([
      call("1"),
      {
        role: "tool",
        content: [{
          type: "tool-result",
          toolCallId: "1",
          toolName: "ReadFile",
        }],
      },
    ]),
    "message 1 has part 0 of type tool-result without toolCallId, toolName or output",
  );
  assert.equal(
    historyProblem([{
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: 1 }],
    }]),
    "message 0 has part 0 of type tool-call without toolCallId or toolName",
  );
  assert.equal(
    historyProblem([{ role: "assistant", content: [{ text: "no type" }] }]),
    "message 0 has part 0 without a type",
  );
  assert.equal(
    historyProblem([{
      role: "assistant",
      content: [{ type: "future-kind", data: 1 }],
    }]),
    undefined,
  );
  assert.equal(
    historyProblem([call("1"), { role: "tool", content: "x" }]),
    "message 1 has no array of tool results as its content",
  );
  assert.equal(
    historyProblem([{ role: "user", content: "go" }, result("9")]),
    'message 1 answers call "9", which the assistant message before it did not make or another message answered',
  );
  assert.equal(
    historyProblem([call("1"), result("1"), result("1")]),
    'message 2 answers call "1", which the assistant message before it did not make or another message answered',
  );
  // A call left unanswered, at the end or before the next message.
  assert.equal(
    historyProblem([{ role: "user", content: "go" }, call("1")]),
    'message 1 makes call "1", which no tool message right after it answers',
  );
  assert.equal(
    historyProblem([call("1"), { role: "user", content: "go" }, result("1")]),
    'message 0 makes call "1", which no tool message right after it answers',
  );
});
