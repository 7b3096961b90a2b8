import assert from "node:assert/strict";
import { createTools } from "../create_tools.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { PlanEntry } from "./plan.ts";

const steps: PlanEntry[] = [
  { content: "Read the failing test", priority: "high", status: "completed" },
  { content: "Fix the parser", priority: "high", status: "in_progress" },
  { content: "Update the README", priority: "low", status: "pending" },
];

Deno.test("Plan replaces the whole plan and tells onPlan each time", async () => {
  const seen: PlanEntry[][] = [];
  const tools = createTools({ onPlan: (entries) => void seen.push(entries) });
  assert.deepEqual(tools.plan, []);
  const first = await tools.Plan.execute({ entries: steps });
  assert.deepEqual(first.entries, steps);
  assert.deepEqual(first.counts, { pending: 1, in_progress: 1, completed: 1 });
  assert.deepEqual(tools.plan, steps);
  const next = [
    { content: "Ship it", priority: "medium", status: "pending" } as const,
  ];
  await tools.Plan.execute({ entries: next });
  assert.deepEqual(tools.plan, next);
  assert.deepEqual(seen, [steps, next]);
});

Deno.test("Plan renders a checklist for the model", async () => {
  const tools = createTools();
  const result = await tools.Plan.execute({ entries: steps });
  assert.equal(
    tools.Plan.toModelText(result),
    [
      "Plan updated: 1/3 completed.",
      "- [x] Read the failing test [high]",
      "- [~] Fix the parser [high] (in progress)",
      "- [ ] Update the README [low]",
    ].join("\n"),
  );
});

Deno.test("Plan rejects more than one in_progress entry and keeps the old plan", async () => {
  const seen: PlanEntry[][] = [];
  const tools = createTools({ onPlan: (entries) => void seen.push(entries) });
  await tools.Plan.execute({ entries: steps });
  const twoActive = steps.map((entry) => ({
    ...entry,
    status: "in_progress" as const,
  }));
  await assert.rejects(
    tools.Plan.execute({ entries: twoActive }),
    (error: unknown) =>
      error instanceof ToolError &&
      /3 entries are "in_progress" \(entries 1, 2, 3\)/.test(error.message),
  );
  assert.deepEqual(tools.plan, steps);
  assert.equal(seen.length, 1);
});

Deno.test("Plan names the allowed values of a bad priority or status", async () => {
  const tools = createTools();
  await assert.rejects(
    tools.Plan.execute({
      entries: [
        {
          content: "x",
          priority: "urgent",
          status: "pending",
        } as unknown as PlanEntry,
      ],
    }),
    /"entries\.0\.priority": must be one of "high", "medium", "low"/,
  );
  await assert.rejects(
    tools.Plan.execute({
      entries: [
        {
          content: "x",
          priority: "low",
          status: "done",
        } as unknown as PlanEntry,
      ],
    }),
    /"entries\.0\.status": must be one of "pending", "in_progress", "completed"/,
  );
  await assert.rejects(
    tools.Plan.execute({
      entries: [{ content: " ", priority: "low", status: "pending" }],
    }),
    /"entries\.0\.content": must not be empty/,
  );
});

Deno.test("Plan clears the plan with an empty list", async () => {
  const seen: PlanEntry[][] = [];
  const tools = createTools({ onPlan: (entries) => void seen.push(entries) });
  await tools.Plan.execute({ entries: steps });
  const result = await tools.Plan.execute({ entries: [] });
  assert.deepEqual(tools.plan, []);
  assert.deepEqual(seen.at(-1), []);
  assert.equal(tools.Plan.toModelText(result), "Plan cleared.");
});

Deno.test("Plan keeps its own copy of the entries", async () => {
  const tools = createTools();
  const entries = steps.map((entry) => ({ ...entry }));
  const result = await tools.Plan.execute({ entries });
  entries[0].content = "changed by the caller";
  result.entries[1].content = "changed through the result";
  assert.deepEqual(tools.plan, steps);
});
