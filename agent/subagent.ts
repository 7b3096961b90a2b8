// Subagent: runs 1 to 8 tasks at once, each by a fresh child agent, and
// reports every task's status and final text. Children wait on the model, not
// the CPU, so all start together; one failing does not fail the others.
import { z } from "zod";
import { defineTool } from "../tools/define.ts";
import type { ExecuteOptions, Tool } from "../tools/types.ts";
import DESCRIPTION from "./subagent.txt" with { type: "text" };

/**
 * One task for a child agent.
 *
 * A type only: needs no permission.
 *
 * @example Describe a task for a child agent
 * ```ts
 * import type { SubagentTask } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const task: SubagentTask = {
 *   description: "Find the config loader",
 *   prompt: "Find where deno.json is read in this repository and report the file and line.",
 * };
 * assert.ok(task.description.length < task.prompt.length);
 * ```
 */
export interface SubagentTask {
  /** A short title shown to the user. */
  description: string;
  /** The child's whole prompt: self-contained. */
  prompt: string;
}

/**
 * Input of Subagent.
 *
 * Executing Subagent requires `--allow-net` for the endpoint, plus the tools' permissions.
 *
 * @example Two independent searches at once
 * ```ts
 * import type { SubagentInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const input: SubagentInput = {
 *   tasks: [
 *     { description: "Tests", prompt: "List the test files and what each covers." },
 *     { description: "CLI", prompt: "Summarise the CLI commands and their flags." },
 *   ],
 * };
 * assert.equal(input.tasks.length, 2);
 * ```
 */
export interface SubagentInput {
  /** 1 to 8 tasks, run at once. */
  tasks: SubagentTask[];
}

/**
 * How one task ended.
 *
 * A type only: needs no permission.
 *
 * @example Report the tasks that did not complete
 * ```ts
 * import type { SubagentTaskResult } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function problems(tasks: SubagentTaskResult[]): string[] {
 *   return tasks
 *     .filter((task) => task.status !== "completed")
 *     .map((task) => `${task.description}: ${task.error ?? task.status}`);
 * }
 * const tasks = [
 *   { description: "Tests", status: "completed", text: "3 files" },
 *   { description: "CLI", status: "failed", text: "", error: "endpoint down" },
 * ] as SubagentTaskResult[];
 * assert.deepEqual(problems(tasks), ["CLI: endpoint down"]);
 * ```
 */
export interface SubagentTaskResult {
  /** The task's description, as given. */
  description: string;
  /** How it ended. */
  status: "completed" | "failed" | "cancelled";
  /** The child's final text ("" when it failed). */
  text: string;
  /** Why it failed or was cancelled. */
  error?: string;
  /** Model calls the child made. */
  steps: number;
}

/**
 * Result of Subagent: every task, in input order.
 *
 * A type only: needs no permission.
 *
 * @example Join the children's reports
 * ```ts
 * import type { SubagentResult } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function report(result: SubagentResult): string {
 *   return result.tasks.map((task) => `## ${task.description}\n${task.text}`).join("\n\n");
 * }
 * const result = {
 *   tasks: [{ description: "Tests", status: "completed", text: "3 files" }],
 * } as SubagentResult;
 * assert.equal(report(result), "## Tests\n3 files");
 * ```
 */
export interface SubagentResult {
  /** One entry per task, in input order. */
  tasks: SubagentTaskResult[];
}

/** Runs one task to its end; rejects when the child fails. */
export type RunSubagentTask = (
  task: SubagentTask,
  options: { signal: AbortSignal; index: number },
) => Promise<{ text: string; steps: number }>;

/** At most this many tasks per call. */
export const MAX_SUBAGENT_TASKS = 8;

const schema = z.object({
  tasks: z.array(z.object({
    description: z.string().trim().min(1, "give each task a short description"),
    prompt: z.string().trim().min(1, "give each task a self-contained prompt"),
  })).min(1, "give at least one task").max(
    MAX_SUBAGENT_TASKS,
    `at most ${MAX_SUBAGENT_TASKS} tasks per call; split them over several calls`,
  ),
});

/** Creates the Subagent tool; `runTask` starts a fresh child agent per task. */
export function createSubagent(
  runTask: RunSubagentTask,
): Tool<SubagentInput, SubagentResult> {
  return defineTool({
    name: "Subagent",
    kind: "other",
    description: DESCRIPTION,
    schema,
    run: (input, options) => runAll(runTask, input, options),
    toModelText: renderResult,
  });
}

async function runAll(
  runTask: RunSubagentTask,
  input: SubagentInput,
  options: ExecuteOptions,
): Promise<SubagentResult> {
  // Children get their own controller so a parent abort reaches every one of
  // them, and none of them can abort a sibling.
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  if (options.signal?.aborted) onAbort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  try {
    const tasks = await Promise.all(
      input.tasks.map((task, index) =>
        runOne(runTask, task, { signal: controller.signal, index })
      ),
    );
    return { tasks };
  } finally {
    options.signal?.removeEventListener("abort", onAbort);
  }
}

async function runOne(
  runTask: RunSubagentTask,
  task: SubagentTask,
  options: { signal: AbortSignal; index: number },
): Promise<SubagentTaskResult> {
  const { signal } = options;
  try {
    const { text, steps } = await runTask(task, options);
    return { description: task.description, status: "completed", text, steps };
  } catch (error) {
    const cancelled = signal.aborted;
    return {
      description: task.description,
      status: cancelled ? "cancelled" : "failed",
      text: "",
      error: cancelled ? "cancelled by the user" : messageOf(error),
      steps: 0,
    };
  }
}

function renderResult(result: SubagentResult): string {
  const counts = ["completed", "failed", "cancelled"]
    .map((status) =>
      [status, result.tasks.filter((t) => t.status === status).length] as const
    )
    .filter(([, n]) => n > 0)
    .map(([status, n]) => `${n} ${status}`);
  const sections = result.tasks.map((task, index) => {
    const head = `## Task ${index + 1}: ${task.description} (${task.status})`;
    const body = task.status === "completed"
      ? task.text.trim() || "(the helper finished without a final message)"
      : `Error: ${task.error}`;
    return `${head}\n${body}`;
  });
  return [`${result.tasks.length} tasks: ${counts.join(", ")}`, ...sections]
    .join("\n\n");
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
