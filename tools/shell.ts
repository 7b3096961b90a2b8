// PLACEHOLDER: the shell helper replaces this file.
import { z } from "zod";
import type { ToolContext } from "./_context.ts";
import { defineTool } from "./_define.ts";
import { ToolError } from "./tool_error.ts";
import type { ShellResult, Tool } from "./types.ts";

/** Input of Shell. */
export interface ShellInput {
  command: string;
  args?: string[];
  cwd?: string;
  env?: Record<string, string>;
  outputByteLimit?: number;
  timeoutSeconds?: number;
}

const schema = z.object({
  command: z.string(),
  args: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  outputByteLimit: z.number().int().min(1).optional(),
  timeoutSeconds: z.number().positive().optional(),
});

/** Creates the Shell tool for a context. */
export function createShell(
  _context: ToolContext,
): Tool<ShellInput, ShellResult> {
  return defineTool({
    name: "Shell",
    kind: "execute",
    description: "Runs a command.",
    schema,
    run(): Promise<ShellResult> {
      throw new ToolError("Shell is not implemented yet");
    },
    toModelText: (result) => result.output,
  });
}
