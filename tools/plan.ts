// Plan: the agent's checklist. Each call replaces the whole plan; listeners
// (the agent loop, ACP's plan updates) are told about every change.
import { z } from "zod";
import { defineTool } from "./_define.ts";
import { ToolError } from "./tool_error.ts";
import type { Tool } from "./types.ts";
import DESCRIPTION from "./plan.txt" with { type: "text" };

/** How urgent a plan entry is. */
export type PlanPriority = "high" | "medium" | "low";

/** Where a plan entry stands. */
export type PlanStatus = "pending" | "in_progress" | "completed";

/** One step of the execution plan. */
export interface PlanEntry {
  /** What the step does, in a few words. */
  content: string;
  /** How urgent it is. */
  priority: PlanPriority;
  /** Where it stands; at most one entry is `in_progress`. */
  status: PlanStatus;
}

/** Input of the Plan tool: the whole new plan. */
export interface PlanInput {
  /** Every entry, in order; an empty list clears the plan. */
  entries: PlanEntry[];
}

/** Result of the Plan tool. */
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
 * @example Replace the plan and read it back
 * ```ts
 * import { createPlan } from "./plan.ts";
 *
 * const plan = createPlan((entries) => console.log(entries.length));
 * await plan.tool.execute({
 *   entries: [{ content: "Write tests", priority: "high", status: "in_progress" }],
 * });
 * console.log(plan.entries()[0].status); // "in_progress"
 * ```
 *
 * Requires no permissions.
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
