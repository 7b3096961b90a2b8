// PLACEHOLDER: the files helper replaces this file.
import { z } from "zod";
import type { ToolContext } from "./_context.ts";
import { defineTool } from "./_define.ts";
import { ToolError } from "./tool_error.ts";
import type { Tool } from "./types.ts";

/** Input of WriteFile. */
export interface WriteFileInput {
  path: string;
  content: string;
  cwd?: string;
}

/** Result of WriteFile. */
export interface WriteFileResult {
  path: string;
  created: boolean;
  bytes: number;
}

const schema = z.object({
  path: z.string(),
  content: z.string(),
  cwd: z.string().optional(),
});

/** Creates the WriteFile tool for a context. */
export function createWriteFile(
  _context: ToolContext,
): Tool<WriteFileInput, WriteFileResult> {
  return defineTool({
    name: "WriteFile",
    kind: "edit",
    description: "Writes a file.",
    schema,
    run(): Promise<WriteFileResult> {
      throw new ToolError("WriteFile is not implemented yet");
    },
    toModelText: (result) => `Wrote ${result.path}`,
  });
}
