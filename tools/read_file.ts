// PLACEHOLDER: the files helper replaces this file.
import { z } from "zod";
import type { ToolContext } from "./_context.ts";
import { defineTool } from "./_define.ts";
import { ToolError } from "./tool_error.ts";
import type { Tool } from "./types.ts";

/** Input of ReadFile. */
export interface ReadFileInput {
  path: string;
  line?: number;
  limit?: number;
  cwd?: string;
  force?: boolean;
}

/** Result of ReadFile. */
export interface ReadFileResult {
  path: string;
  content: string;
  startLine: number;
  endLine: number;
  totalLines?: number;
}

const schema = z.object({
  path: z.string(),
  line: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).optional(),
  cwd: z.string().optional(),
  force: z.boolean().optional(),
});

/** Creates the ReadFile tool for a context. */
export function createReadFile(
  _context: ToolContext,
): Tool<ReadFileInput, ReadFileResult> {
  return defineTool({
    name: "ReadFile",
    kind: "read",
    description: "Reads a text file.",
    schema,
    run(): Promise<ReadFileResult> {
      throw new ToolError("ReadFile is not implemented yet");
    },
    toModelText: (result) => result.content,
  });
}
