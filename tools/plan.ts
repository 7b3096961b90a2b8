// PLACEHOLDER: the shell helper replaces this file.
import { z } from "zod";
import { defineTool } from "./_define.ts";
import type { Tool } from "./types.ts";

/** One step of the execution plan. */
export interface PlanEntry {
  content: string;
  priority: "high" | "medium" | "low";
  status: "pending" | "in_progress" | "completed";
}

/** Input of Plan. */
export interface PlanInput {
  entries: PlanEntry[];
}

/** Result of Plan. */
export interface PlanResult {
  entries: PlanEntry[];
}

const schema = z.object({
  entries: z.array(z.object({
    content: z.string(),
    priority: z.enum(["high", "medium", "low"]),
    status: z.enum(["pending", "in_progress", "completed"]),
  })),
});

/** Creates the Plan tool and a reader of the current plan. */
export function createPlan(
  onPlan?: (entries: PlanEntry[]) => void,
): { tool: Tool<PlanInput, PlanResult>; entries(): readonly PlanEntry[] } {
  let current: PlanEntry[] = [];
  const tool = defineTool({
    name: "Plan",
    kind: "think",
    description: "Replaces the plan.",
    schema,
    run(input: PlanInput): Promise<PlanResult> {
      current = input.entries;
      onPlan?.(current);
      return Promise.resolve({ entries: current });
    },
    toModelText: (result: PlanResult) => JSON.stringify(result.entries),
  });
  return { tool, entries: () => current };
}
