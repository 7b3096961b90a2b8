import assert from "node:assert/strict";
import {
  CHARS_PER_TOKEN,
  CLEARED_OUTPUT,
  ContextBudget,
  type ContextMessage,
  estimateTokens,
} from "./context_budget.ts";

/** One step: the assistant's call and the tool's output, `chars` characters long. */
function step(
  label: string,
  chars: number,
  options: { id?: string; input?: Record<string, unknown> } = {},
): ContextMessage[] {
  const toolCallId = options.id ?? label;
  return [
    {
      role: "assistant",
      content: [{
        type: "tool-call",
        toolCallId,
        toolName: "ReadFile",
        input: options.input ?? { path: label },
      }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId,
        toolName: "ReadFile",
        output: { type: "text", value: label.repeat(chars / label.length) },
      }],
    },
  ];
}

/** The outputs as sent: each one's label, or "cleared". */
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
/** A budget of `chars` ASCII characters. */
const chars = (count: number) => count / CHARS_PER_TOKEN;

Deno.test("ContextBudget sends everything while the estimate is within the budget", () => {
  const budget = new ContextBudget(chars(10_000));
  const messages = [user, ...step("a1", 3000), ...step("b2", 3000)];
  assert.equal(budget.fit(messages), messages);
  assert.equal(budget.clearedCalls, 0);
});

Deno.test("ContextBudget clears the oldest outputs down to half the budget, never an unanswered one", () => {
  const budget = new ContextBudget(chars(20_000));
  const messages = [
    user,
    ...["a1", "b2", "c3", "d4", "e5"].flatMap((id) => step(id, 4000)),
  ];
  const before = structuredClone(messages);
  const fitted = budget.fit(messages);
  // Down to 10,000 characters: the three oldest go; e5 is not answered yet.
  assert.deepEqual(outputs(fitted), [
    "cleared",
    "cleared",
    "cleared",
    "d4",
    "e5",
  ]);
  assert.ok(JSON.stringify(fitted).length <= 10_000 + 2_000);
  assert.deepEqual(messages, before, "the input is not modified");
  assert.equal(budget.clearedCalls, 3);
});

Deno.test("ContextBudget keeps what it cleared cleared, and clears again only past the budget", () => {
  const budget = new ContextBudget(chars(20_000));
  const history = [user, ...step("a1", 8000), ...step("b2", 8000)];
  const more = [...history, ...step("c3", 8000)];
  assert.deepEqual(outputs(budget.fit(more)), ["cleared", "cleared", "c3"]);
  // The next step adds a small output: the earlier choice holds, the start
  // of the conversation is unchanged, nothing more is cleared.
  const next = [...more, ...step("d4", 400)];
  const fitted = budget.fit(next);
  assert.deepEqual(outputs(fitted), ["cleared", "cleared", "c3", "d4"]);
  assert.equal(budget.clearedCalls, 2);
  // Fitting what was fitted changes nothing.
  assert.equal(budget.fit(fitted), fitted);
});

Deno.test("ContextBudget counts what every request sends besides the messages", () => {
  const messages = [user, ...step("a1", 4000), ...step("b2", 4000)];
  const roomy = new ContextBudget(chars(20_000));
  assert.deepEqual(outputs(roomy.fit(messages)), ["a1", "b2"]);
  const tools = new ContextBudget(chars(20_000), chars(15_000));
  assert.deepEqual(outputs(tools.fit(messages)), ["cleared", "b2"]);
});

Deno.test("ContextBudget clears by position, so a server's reused call ids clear nothing new", () => {
  const budget = new ContextBudget(chars(20_000));
  const same = { id: "call_0" };
  const messages = [
    user,
    ...step("a1", 8000, same),
    ...step("b2", 8000, same),
    ...step("c3", 8000, same),
  ];
  assert.deepEqual(outputs(budget.fit(messages)), [
    "cleared",
    "cleared",
    "c3",
  ]);
});

Deno.test("ContextBudget clears the long strings of old calls' inputs too", () => {
  const budget = new ContextBudget(chars(20_000));
  const write = (label: string) =>
    step(label, 40, {
      input: { path: `${label}.txt`, content: "y".repeat(8000) },
    });
  const fitted = budget.fit([
    user,
    ...write("a1"),
    ...write("b2"),
    ...write("c3"),
  ]);
  const inputs = fitted.flatMap((message) =>
    message.role !== "assistant"
      ? []
      : (message.content as { input: Record<string, string> }[]).map((p) =>
        p.input
      )
  );
  assert.deepEqual(inputs, [
    { path: "a1.txt", content: "[cleared: 8000 characters]" },
    { path: "b2.txt", content: "[cleared: 8000 characters]" },
    { path: "c3.txt", content: "y".repeat(8000) },
  ]);
  // Outputs shorter than the note are kept: clearing them would add text.
  assert.deepEqual(outputs(fitted), ["a1", "b2", "c3"]);
});

Deno.test("ContextBudget does not keep an answered output once the model has replied", () => {
  const budget = new ContextBudget(chars(20_000));
  const answered = [
    user,
    ...step("a1", 30_000),
    { role: "assistant", content: "Summarized." },
    { role: "user", content: "Thanks" },
  ];
  assert.deepEqual(outputs(budget.fit(answered)), ["cleared"]);
});

Deno.test("estimateTokens() counts ASCII at 4 characters a token and other characters one each", () => {
  assert.equal(estimateTokens("abcd".repeat(100)), 100);
  assert.equal(estimateTokens("上下文窗口"), 5);
  assert.equal(estimateTokens("ab上下"), 2.5);
});

Deno.test("ContextBudget keeps outputs the model never answered, after a run cut at its step cap", () => {
  const budget = new ContextBudget(chars(20_000));
  // The run stopped right after the tool answered; the next run's prompt follows.
  const messages = [
    user,
    ...step("a1", 12_000),
    ...step("b2", 12_000),
    { role: "user", content: "Continue" },
  ];
  assert.deepEqual(outputs(budget.fit(messages)), ["cleared", "b2"]);
});

Deno.test("ContextBudget clears long strings nested in an input's objects and arrays", () => {
  const budget = new ContextBudget(chars(10_000));
  const tasks = step("a1", 40, {
    input: { tasks: [{ description: "short", prompt: "p".repeat(6000) }] },
  });
  const fitted = budget.fit([user, ...tasks, ...step("b2", 6000)]);
  const input = (fitted[1].content as { input: unknown }[])[0].input;
  assert.deepEqual(input, {
    tasks: [{ description: "short", prompt: "[cleared: 6000 characters]" }],
  });
});

Deno.test("ContextBudget leaves out the oldest cleared steps when their notes alone pass the budget", () => {
  // 120 calls of 2,000-character outputs under 8,000 tokens, step by step,
  // carrying what was sent into the next step as the AI SDK does.
  const budget = new ContextBudget(8_000, 1_000);
  let sent: ContextMessage[] = [user];
  for (let i = 0; i < 120; i++) {
    sent = budget.fit([...sent, ...step(`s${i}`.padEnd(4, "_"), 2000)]);
    const tokens = 1_000 + estimateTokens(JSON.stringify(sent));
    assert.ok(tokens <= 8_000 * 1.1, `step ${i}: ${tokens} tokens`);
    // The newest output is always sent whole; the prompt is always first.
    assert.notEqual(outputs(sent).at(-1), "cleared");
    assert.equal(sent[0], user);
  }
  // Every tool message still follows the assistant message that called it.
  sent.forEach((message, i) => {
    if (message.role !== "tool") return;
    const call = (sent[i - 1].content as { toolCallId: string }[])[0];
    const result = (message.content as { toolCallId: string }[])[0];
    assert.equal(call.toolCallId, result.toolCallId);
  });
});

Deno.test("ContextBudget keeps every step when even without them the request would not fit", () => {
  // The instructions alone pass the budget: leaving steps out cannot help.
  const budget = new ContextBudget(1_000, 2_000);
  const messages = [user, ...step("a1", 4000), ...step("b2", 4000)];
  assert.deepEqual(outputs(budget.fit(messages)), ["cleared", "b2"]);
});
