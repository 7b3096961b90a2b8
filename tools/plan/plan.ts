// Plan: the agent's checklist. Each call replaces the whole plan; listeners
// (the agent loop, ACP's plan updates) are told about every change.
import { z } from "zod";
import { defineTool } from "../define.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { Tool } from "../types.ts";
import DESCRIPTION from "./plan.txt" with { type: "text" };

/**
 * How urgent a plan entry is.
 *
 * A type only: needs no permission.
 *
 * @example Put the urgent entries first
 * ```ts
 * import type { PlanEntry, PlanPriority } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const ORDER: PlanPriority[] = ["high", "medium", "low"];
 * function byPriority(entries: PlanEntry[]): PlanEntry[] {
 *   return entries.toSorted((a, b) => ORDER.indexOf(a.priority) - ORDER.indexOf(b.priority));
 * }
 * const sorted = byPriority([
 *   { content: "Tidy up", priority: "low", status: "pending" },
 *   { content: "Fix the crash", priority: "high", status: "pending" },
 * ]);
 * assert.equal(sorted[0].content, "Fix the crash");
 * ```
 */
export type PlanPriority = "high" | "medium" | "low";

/**
 * Where a plan entry stands.
 *
 * A type only: needs no permission.
 *
 * @example Count what is left to do
 * ```ts
 * import type { PlanEntry, PlanStatus } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function left(entries: PlanEntry[]): number {
 *   const done: PlanStatus = "completed";
 *   return entries.filter((entry) => entry.status !== done).length;
 * }
 * assert.equal(left([
 *   { content: "Write tests", priority: "high", status: "completed" },
 *   { content: "Ship it", priority: "low", status: "pending" },
 * ]), 1);
 * ```
 */
export type PlanStatus = "pending" | "in_progress" | "completed";

/**
 * One step of the execution plan.
 *
 * Needs no permission: the Plan tool keeps the plan in memory.
 *
 * @example Show the plan after every change
 * ```ts
 * import { createTools, type PlanEntry } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const shown: string[][] = [];
 * const tools = createTools({
 *   onPlan: (entries: PlanEntry[]) => {
 *     shown.push(entries.map((e) => e.content));
 *   },
 * });
 * await tools.Plan.execute({
 *   entries: [{ content: "Ship it", priority: "low", status: "pending" }],
 * });
 * assert.deepEqual(shown, [["Ship it"]]);
 * ```
 */
export interface PlanEntry {
  /** What the step does, in a few words. */
  content: string;
  /** How urgent it is. */
  priority: PlanPriority;
  /** Where it stands; at most one entry is `in_progress`. */
  status: PlanStatus;
}

/**
 * Input of the Plan tool: the whole new plan.
 *
 * Needs no permission: the Plan tool keeps the plan in memory.
 *
 * @example Set a two-step plan
 * ```ts
 * import { createTools, type PlanInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const input: PlanInput = {
 *   entries: [
 *     { content: "Read the failing test", priority: "high", status: "in_progress" },
 *     { content: "Fix the parser", priority: "high", status: "pending" },
 *   ],
 * };
 * const { counts } = await createTools().Plan.execute(input);
 * assert.deepEqual(counts, { pending: 1, in_progress: 1, completed: 0 });
 * ```
 */
export interface PlanInput {
  /** Every entry, in order; an empty list clears the plan. */
  entries: PlanEntry[];
}

/**
 * Result of the Plan tool.
 *
 * Needs no permission: the Plan tool keeps the plan in memory.
 *
 * @example Check progress after an update
 * ```ts
 * import { createTools, type PlanResult } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const result: PlanResult = await createTools().Plan.execute({
 *   entries: [{ content: "Ship it", priority: "low", status: "completed" }],
 * });
 * assert.equal(result.counts.completed, 1);
 * ```
 */
export interface PlanResult {
  /** The plan now in force. */
  entries: PlanEntry[];
  /** How many entries have each status. */
  counts: Record<PlanStatus, number>;
}

const PRIORITIES = ["high", "medium", "low"] as const;
const STATUSES = ["pending", "in_progress", "completed"] as const;
const MAX_ENTRIES = 100;

function oneOf(values: readonly string[]): string {
  return `must be one of ${values.map((value) => `"${value}"`).join(", ")}`;
}

const schema = z.object({
  entries: z.array(z.object({
    content: z.string().trim().min(1, "must not be empty"),
    priority: z.enum(PRIORITIES, { error: oneOf(PRIORITIES) }),
    status: z.enum(STATUSES, { error: oneOf(STATUSES) }),
  })).max(MAX_ENTRIES, `a plan holds at most ${MAX_ENTRIES} entries`),
});

/** Called with the whole plan after each change. */
export type PlanListener = (entries: PlanEntry[]) => void | Promise<void>;

/**
 * Creates the Plan tool and a reader of the current plan.
 *
 * Requires no permissions.
 *
 * @example Replace the plan and read it back
 * ```ts
 * import { createPlan } from "./plan.ts";
 * import assert from "node:assert/strict";
 *
 * const sizes: number[] = [];
 * const plan = createPlan((entries) => {
 *   sizes.push(entries.length);
 * });
 * await plan.tool.execute({
 *   entries: [{ content: "Write tests", priority: "high", status: "in_progress" }],
 * });
 * assert.equal(plan.entries()[0].status, "in_progress");
 * assert.deepEqual(sizes, [1]);
 * ```
 */
export function createPlan(
  onPlan?: PlanListener,
): { tool: Tool<PlanInput, PlanResult>; entries(): readonly PlanEntry[] } {
  let current: readonly PlanEntry[] = [];
  const tool = defineTool({
    name: "Plan",
    kind: "think",
    description: DESCRIPTION,
    schema,
    async run(input: PlanInput): Promise<PlanResult> {
      checkSingleInProgress(input.entries);
      const entries = input.entries.map(copyEntry);
      current = Object.freeze(
        entries.map((entry) => Object.freeze(copyEntry(entry))),
      );
      await notify(onPlan, entries);
      return { entries, counts: countStatuses(entries) };
    },
    toModelText: renderPlan,
  });
  return { tool, entries: () => current };
}

/**
 * The plan a Plan call with `input` sets, as the tool stores it (contents
 * trimmed), or undefined when the tool would refuse the input. For showing a
 * saved conversation's plans again.
 */
export function plannedEntries(input: unknown): PlanEntry[] | undefined {
  const parsed = schema.safeParse(input);
  if (!parsed.success) return undefined;
  try {
    checkSingleInProgress(parsed.data.entries);
  } catch {
    return undefined;
  }
  return parsed.data.entries.map(copyEntry);
}

function copyEntry(entry: PlanEntry): PlanEntry {
  return {
    content: entry.content,
    priority: entry.priority,
    status: entry.status,
  };
}

function checkSingleInProgress(entries: PlanEntry[]): void {
  const active = entries.flatMap((entry, index) =>
    entry.status === "in_progress" ? [index + 1] : []
  );
  if (active.length > 1) {
    throw new ToolError(
      `Cannot update the plan: ${active.length} entries are "in_progress" (entries ${
        active.join(", ")
      }); keep at most one entry in_progress and mark the others "pending" or "completed"`,
    );
  }
}

async function notify(
  onPlan: PlanListener | undefined,
  entries: PlanEntry[],
): Promise<void> {
  if (onPlan === undefined) return;
  try {
    await onPlan(entries.map(copyEntry));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError(
      `The plan was updated, but showing it failed (${message}); continue with the task`,
      { cause: error },
    );
  }
}

function countStatuses(entries: PlanEntry[]): Record<PlanStatus, number> {
  const counts: Record<PlanStatus, number> = {
    pending: 0,
    in_progress: 0,
    completed: 0,
  };
  for (const entry of entries) counts[entry.status]++;
  return counts;
}

const BOXES: Record<PlanStatus, string> = {
  pending: "[ ]",
  in_progress: "[~]",
  completed: "[x]",
};

/** Renders a plan as a checklist for the model. */
export function renderPlan(result: PlanResult): string {
  if (result.entries.length === 0) return "Plan cleared.";
  const lines = result.entries.map((entry) => {
    const note = entry.status === "in_progress" ? " (in progress)" : "";
    return `- ${
      BOXES[entry.status]
    } ${entry.content} [${entry.priority}]${note}`;
  });
  const { completed } = result.counts;
  return `Plan updated: ${completed}/${result.entries.length} completed.\n${
    lines.join("\n")
  }`;
}
