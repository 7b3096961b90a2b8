import assert from "node:assert/strict";
import { createTools } from "../create_tools.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { PlanEntry } from "./plan.ts";
import { withDirs } from "../../tests/support/workspace.ts";
import { rejectsTool } from "../../tests/support/tool_asserts.ts";

const ENTRIES: PlanEntry[] = [
  { content: "Read the failing test", priority: "high", status: "completed" },
  { content: "Fix the parser", priority: "medium", status: "in_progress" },
  { content: "Update the docs", priority: "low", status: "pending" },
];

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
  const cases: [Record<string, string>, RegExp][] = [
    [
      { content: "x", priority: "urgent", status: "pending" },
      /"entries\.0\.priority": must be one of "high", "medium", "low"/,
    ],
    [
      { content: "x", priority: "low", status: "done" },
      /"entries\.0\.status": must be one of "pending", "in_progress", "completed"/,
    ],
    [
      { content: " ", priority: "low", status: "pending" },
      /"entries\.0\.content": must not be empty/,
    ],
  ];
  for (const [entry, message] of cases) {
    await assert.rejects(
      tools.Plan.execute({ entries: [entry as unknown as PlanEntry] }),
      message,
    );
  }
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

Deno.test("Plan replaces the whole plan each call; tools.plan and onPlan follow it; empty clears", async () => {
  await withDirs(async ({ ws }) => {
    const seen: PlanEntry[][] = [];
    const tools = createTools({
      cwd: ws,
      onPlan: (entries) => seen.push(structuredClone(entries)),
    });
    assert.deepEqual([...tools.plan], []);
    const r = await tools.Plan.execute({ entries: ENTRIES });
    assert.deepEqual(r.entries, ENTRIES);
    assert.deepEqual([...tools.plan], ENTRIES);
    const shown = tools.Plan.toModelText(r);
    for (const entry of ENTRIES) {
      assert.ok(shown.includes(entry.content), shown);
    }
    const lineOf = (text: string) =>
      shown.split("\n").find((l) => l.includes(text))!;
    assert.notEqual(
      lineOf("Read the failing test").replace("Read the failing test", ""),
      lineOf("Update the docs").replace("Update the docs", ""),
      "the checklist marks completed and pending entries differently",
    );
    const next = [{
      content: "Only step",
      priority: "high" as const,
      status: "pending" as const,
    }];
    assert.deepEqual(
      (await tools.Plan.execute({ entries: next })).entries,
      next,
    );
    assert.deepEqual([...tools.plan], next, "replaced, not merged");
    const cleared = await tools.Plan.execute({ entries: [] });
    assert.deepEqual(cleared.entries, []);
    assert.deepEqual([...tools.plan], []);
    assert.deepEqual(seen, [ENTRIES, next, []]);
  });
});

Deno.test("Plan refuses two in_progress entries and bad enum values, naming the valid ones, plan unchanged", async () => {
  await withDirs(async ({ ws }) => {
    const tools = createTools({ cwd: ws });
    await tools.Plan.execute({ entries: ENTRIES });
    await rejectsTool(
      tools.Plan.execute({
        entries: [
          { content: "a", priority: "high", status: "in_progress" },
          { content: "b", priority: "low", status: "in_progress" },
        ],
      }),
      "in_progress",
    );
    const badValues: [Record<string, string>, string[]][] = [
      [{ priority: "urgent", status: "pending" }, ["high", "medium", "low"]],
      [{ priority: "high", status: "doing" }, [
        "pending",
        "in_progress",
        "completed",
      ]],
    ];
    for (const [entry, valid] of badValues) {
      await rejectsTool(
        tools.Plan.execute({ entries: [{ content: "a", ...entry }] } as never),
        ...valid,
      );
    }
    assert.deepEqual(
      [...tools.plan],
      ENTRIES,
      "a refused call leaves the plan as it was",
    );
  });
});

Deno.test("Plan takes the three priorities and statuses and renders a checklist", async () => {
  const tools = createTools({ permissionMode: "readOnly" });
  const result = await tools.Plan.execute({
    entries: [
      { content: "Read", priority: "high", status: "completed" },
      { content: "Fix", priority: "medium", status: "in_progress" },
      { content: "Ship", priority: "low", status: "pending" },
    ],
  });
  assert.deepEqual(result.counts, {
    pending: 1,
    in_progress: 1,
    completed: 1,
  });
  assert.equal(
    tools.Plan.toModelText(result),
    "Plan updated: 1/3 completed.\n- [x] Read [high]\n- [~] Fix [medium] (in progress)\n- [ ] Ship [low]",
  );
  await assert.rejects(
    tools.Plan.execute({
      entries: [{ content: "x", priority: "urgent", status: "pending" }],
    } as never),
    /"high", "medium", "low"/,
  );
});
