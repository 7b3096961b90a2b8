// PLACEHOLDER: the files helper replaces this file.
import { z } from "zod";
import type { ToolContext } from "./_context.ts";
import { defineTool } from "./_define.ts";
import { ToolError } from "./tool_error.ts";
import type { Tool } from "./types.ts";

/** Input of EditFile. */
export interface EditFileInput {
  path: string;
  oldText: string;
  newText: string;
  replaceAll?: boolean;
  cwd?: string;
}

/** Result of EditFile. */
export interface EditFileResult {
  path: string;
  replacements: number;
  diff: string;
}

const schema = z.object({
  path: z.string(),
  oldText: z.string(),
  newText: z.string(),
  replaceAll: z.boolean().optional(),
  cwd: z.string().optional(),
});

/** Creates the EditFile tool for a context. */
export function createEditFile(
  _context: ToolContext,
): Tool<EditFileInput, EditFileResult> {
  return defineTool({
    name: "EditFile",
    kind: "edit",
    description: "Edits a file.",
    schema,
    run(): Promise<EditFileResult> {
      throw new ToolError("EditFile is not implemented yet");
    },
    toModelText: (result) => result.diff,
  });
}
