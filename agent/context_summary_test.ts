import assert from "node:assert/strict";
import {
  ContextBudget,
  type ContextMessage,
  estimateTokens,
} from "./context_budget.ts";
import {
  chooseCut,
  clipSummary,
  lastCut,
  SUMMARY_HEADING,
  summaryCut,
  summaryRequest,
  transcript,
  withSummary,
} from "./context_summary.ts";

const user = (content: unknown): ContextMessage => ({ role: "user", content });
const said = (text: string): ContextMessage => ({
  role: "assistant",
  content: [{ type: "text", text }],
});
const called = (id: string, input: unknown): ContextMessage => ({
  role: "assistant",
  content: [{ type: "tool-call", toolCallId: id, toolName: "ReadFile", input }],
});
const answered = (id: string, value: string): ContextMessage => ({
  role: "tool",
  content: [{
    type: "tool-result",
    toolCallId: id,
    toolName: "ReadFile",
    output: { type: "text", value },
  }],
});

Deno.test("summaryCut() keeps the shortest tail within the target that starts a turn or a step", () => {
  const messages = [
    user("a"),
    said("b"),
    called("1", {}),
    answered("1", "c"),
    user("d"),
  ];
  const tokens = [10, 10, 10, 10, 10];
  assert.equal(summaryCut(messages, tokens, 40), 1);
  assert.equal(summaryCut(messages, tokens, 30), 2);
  // Index 3 is the tool message: it must stay after its call, so the cut
  // goes on to the next user message.
  assert.equal(summaryCut(messages, tokens, 20), 4);
  assert.equal(summaryCut(messages, tokens, 10), 4);
  // Even the newest message alone passes the target: no cut helps.
  assert.equal(summaryCut(messages, tokens, 9), undefined);
  assert.equal(summaryCut([user("a")], [10], 100), undefined);
});

Deno.test("transcript() shows who said what, each call with its input and output, long ones cut short", () => {
  const text = transcript([
    user("Fix the bug in parse.ts"),
    called("1", { path: "src/parse.ts" }),
    answered("1", "x".repeat(5_000)),
    said("The loop ends one early."),
  ], 10_000);
  assert.match(text, /^## User\nFix the bug in parse\.ts\n\n## Assistant\n/);
  assert.match(text, /→ called ReadFile \{"path":"src\/parse\.ts"\}/);
  assert.match(text, /← ReadFile: x{1500} \[…3500 characters cut\]/);
  assert.match(text, /## Assistant\nThe loop ends one early\.$/);
});

Deno.test("transcript() over its size keeps the first message and the newest ones", () => {
  const messages = [
    user(`${SUMMARY_HEADING}\n\nEarlier: the user wants a CLI.`),
    ...Array.from(
      { length: 40 },
      (_, i) => said(`step ${i} ${"y".repeat(400)}`),
    ),
  ];
  const text = transcript(messages, 1_000);
  assert.ok(estimateTokens(text) <= 1_000, `${estimateTokens(text)} tokens`);
  assert.match(text, /^## User\n\[Summary of the earlier conversation/);
  assert.match(text, /\[… \d+ messages left out …\]/);
  assert.match(text, /step 39 y+$/);
  assert.doesNotMatch(text, /step 0 /);
});

Deno.test("withSummary() puts the summary first, in the first user message when there is one", () => {
  const summary = `${SUMMARY_HEADING}\n\nS\n\n[End of the summary]`;
  const [merged, next] = withSummary("S", [user("go on"), said("ok")]);
  assert.equal(merged.role, "user");
  assert.equal(merged.content, `${summary}\n\ngo on`);
  assert.deepEqual(next, said("ok"));

  const parts = withSummary("S", [user([{ type: "text", text: "look" }])]);
  assert.deepEqual(parts[0].content, [
    { type: "text", text: summary },
    { type: "text", text: "look" },
  ]);

  // A tail that starts with the model's step gets a user message of its own.
  const own = withSummary(" S\n", [called("1", {}), answered("1", "c")]);
  assert.deepEqual(own.map((m) => m.role), ["user", "assistant", "tool"]);
  assert.equal(own[0].content, summary);
});

Deno.test("withSummary() brings back the user's current request right after the summary", () => {
  const kept = [called("1", {}), answered("1", "c")];
  const merged = withSummary("S1", kept, user("Fix --- the bug"));
  assert.deepEqual(merged.map((m) => m.role), ["user", "assistant", "tool"]);
  assert.equal(
    merged[0].content,
    `${SUMMARY_HEADING}\n\nS1\n\n[End of the summary]\n\nFix --- the bug`,
  );
  assert.deepEqual(merged.slice(1), kept);
  const image = { type: "image", image: "data" };
  const [parts] = withSummary("S2", kept, user([image]));
  assert.deepEqual(parts.content, [
    { type: "text", text: `${SUMMARY_HEADING}\n\nS2\n\n[End of the summary]` },
    image,
  ]);
});

Deno.test("withSummary() drops the marks a summarizer echoed from an earlier summary", () => {
  const echoed =
    `${SUMMARY_HEADING}\n\nold\n\n[End of the summary]\n\nnew facts`;
  const [first] = withSummary(echoed, [user("go on")]);
  assert.equal(
    first.content,
    `${SUMMARY_HEADING}\n\nold\n\n\n\nnew facts\n\n[End of the summary]\n\ngo on`,
  );
});

Deno.test("lastCut() keeps only the last turn or step, when that fits", () => {
  const messages = [user("a"), said("b"), called("1", {}), answered("1", "c")];
  assert.equal(lastCut(messages, [10, 10, 50, 50], 100), 2);
  assert.equal(lastCut(messages, [10, 10, 50, 50], 99), undefined);
  assert.equal(lastCut([user("a"), user("huge")], [10, 500], 100), undefined);
  assert.equal(lastCut([user("a")], [10], 100), undefined);
});

Deno.test("chooseCut() puts the prompt back only where the result fits", () => {
  const prompt = user("do it");
  const messages = [
    user("old"),
    said("old answer"),
    prompt,
    called("1", {}),
    answered("1", "big"),
  ];
  const budget = {
    limit: 1_000,
    fixedTokens: 100,
    summaryTokens: 100,
    prompt,
    promptTokens: 200,
  };
  // Half the budget reached by cutting before the prompt: it stays in place.
  assert.deepEqual(
    chooseCut(messages, { ...budget, tokens: [300, 300, 200, 20, 100] }),
    { cut: 2 },
  );
  // Only the last step fits: the prompt comes back when there is room...
  assert.deepEqual(
    chooseCut(messages, { ...budget, tokens: [10, 10, 200, 20, 500] }),
    { cut: 3, request: prompt },
  );
  // ...and is summarized with the rest when there is not.
  assert.deepEqual(
    chooseCut(messages, { ...budget, tokens: [10, 10, 200, 20, 600] }),
    { cut: 3 },
  );
  // Not even the last step fits.
  assert.equal(
    chooseCut(messages, { ...budget, tokens: [10, 10, 200, 20, 800] }),
    undefined,
  );
});

Deno.test("summaryRequest() asks for a summary within its allowance, in words", () => {
  assert.equal(
    summaryRequest("## User\nhi", 4_000),
    "## User\nhi\n\n---\nSummarize the conversation above in at most 2000 words.",
  );
});

Deno.test("clipSummary() cuts a summary longer than asked to its token allowance", () => {
  assert.equal(clipSummary("short", 100), "short");
  for (const long of ["word ".repeat(2_000), "摘要".repeat(2_000)]) {
    const clipped = clipSummary(long, 500);
    assert.ok(clipped.endsWith(" […]"));
    assert.ok(estimateTokens(clipped) <= 502, `${estimateTokens(clipped)}`);
    assert.ok(estimateTokens(clipped) > 400, `${estimateTokens(clipped)}`);
  }
});

Deno.test("ContextBudget forgets the cleared calls a summary replaced, and can go back", () => {
  const steps = (n: number) =>
    Array.from({ length: n }, (_, i) => [
      called(`c${i}`, {}),
      answered(`c${i}`, "z".repeat(4_000)),
    ]).flat();
  const budget = new ContextBudget(2_000);
  const messages = [user("go"), ...steps(4)];
  budget.fit(messages);
  assert.equal(budget.clearedCalls, 3); // the newest output is unanswered
  const before = budget.clearedCalls;
  budget.forget(messages.slice(0, 5)); // the prompt and two steps
  assert.equal(budget.clearedCalls, 1);
  budget.forget(messages);
  assert.equal(budget.clearedCalls, 0);
  budget.restore(before);
  assert.equal(budget.clearedCalls, 3);
  assert.equal(budget.limit, 2_000);
  assert.deepEqual(
    budget.messageTokens([user("abcd"), user("abcdefgh")]),
    [
      estimateTokens(JSON.stringify(user("abcd"))),
      estimateTokens(JSON.stringify(user("abcdefgh"))),
    ],
  );
});
