import assert from "node:assert/strict";
import {
  CHARS_PER_TOKEN,
  CLEARED_OUTPUT,
  ContextBudget,
  type ContextMessage,
} from "./_context_budget.ts";

/** One step: the assistant's call and the tool's output of `chars` characters. */
function step(id: string, chars: number): ContextMessage[] {
  return [
    {
      role: "assistant",
      content: [{ type: "tool-call", toolCallId: id, toolName: "ReadFile" }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: id,
        toolName: "ReadFile",
        output: { type: "text", value: id.repeat(chars / id.length) },
      }],
    },
  ];
}

/** The outputs as sent: each call's id, or "cleared". */
function outputs(messages: ContextMessage[]): string[] {
  return messages.flatMap((message) =>
    message.role !== "tool" ? [] : (message.content as {
      output: { value: string };
    }[]).map(({ output }) =>
      output.value === CLEARED_OUTPUT ? "cleared" : output.value.slice(0, 2)
    )
  );
}

const user: ContextMessage = { role: "user", content: "Read them all" };

Deno.test("ContextBudget sends everything while the estimate is within the budget", () => {
  const budget = new ContextBudget(10_000 / CHARS_PER_TOKEN);
  const messages = [user, ...step("a1", 3000), ...step("b2", 3000)];
  assert.equal(budget.fit(messages), messages);
  assert.equal(budget.clearedOutputs, 0);
});

Deno.test("ContextBudget clears the oldest outputs down to half the budget, never the newest", () => {
  // 20,000 characters of budget; five outputs of 4,000 pass it.
  const budget = new ContextBudget(20_000 / CHARS_PER_TOKEN);
  const messages = [
    user,
    ...step("a1", 4000),
    ...step("b2", 4000),
    ...step("c3", 4000),
    ...step("d4", 4000),
    ...step("e5", 4000),
  ];
  const before = structuredClone(messages);
  const fitted = budget.fit(messages);
  // Down to 10,000 characters: the three oldest go.
  assert.deepEqual(outputs(fitted), [
    "cleared",
    "cleared",
    "cleared",
    "d4",
    "e5",
  ]);
  assert.ok(JSON.stringify(fitted).length <= 10_000 + 2_000);
  assert.deepEqual(messages, before, "the input is not modified");
  assert.equal(budget.clearedOutputs, 3);
});

Deno.test("ContextBudget keeps what it cleared cleared, and clears again only past the budget", () => {
  const budget = new ContextBudget(20_000 / CHARS_PER_TOKEN);
  const history = [user, ...step("a1", 8000), ...step("b2", 8000)];
  const more = [...history, ...step("c3", 8000)];
  assert.deepEqual(outputs(budget.fit(more)), ["cleared", "cleared", "c3"]);
  // The next step adds a small output: the earlier choice holds, the start
  // of the conversation is unchanged, nothing more is cleared.
  const next = [...more, ...step("d4", 400)];
  const fitted = budget.fit(next);
  assert.deepEqual(outputs(fitted), ["cleared", "cleared", "c3", "d4"]);
  assert.equal(budget.clearedOutputs, 2);
  // Fitting what was fitted changes nothing.
  assert.equal(budget.fit(fitted), fitted);
});

Deno.test("ContextBudget counts what every request sends besides the messages", () => {
  const messages = [user, ...step("a1", 4000), ...step("b2", 4000)];
  const roomy = new ContextBudget(20_000 / CHARS_PER_TOKEN);
  assert.deepEqual(outputs(roomy.fit(messages)), ["a1", "b2"]);
  const tools = new ContextBudget(20_000 / CHARS_PER_TOKEN, 15_000);
  assert.deepEqual(outputs(tools.fit(messages)), ["cleared", "b2"]);
});
