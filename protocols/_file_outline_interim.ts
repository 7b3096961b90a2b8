// INTERIM: stands in for tools/file_outline.ts until the outline helper lands it.
import { z } from "zod";
import type { ToolContext } from "../tools/_context.ts";
import { defineTool } from "../tools/_define.ts";
import { fileOutline } from "../outline/outline.ts";
import type { Tool } from "../tools/types.ts";

/** Input of file_outline. */
export interface FileOutlineInput {
  path: string;
}

/** Creates the file_outline tool for a context. */
export function createFileOutline(
  context: ToolContext,
): Tool<FileOutlineInput, string> {
  return defineTool({
    name: "file_outline",
    kind: "read",
    description:
      "Lists the symbols of a source file (functions, classes, types, members) with line ranges.",
    schema: z.object({ path: z.string() }),
    run: async ({ path }) => {
      const absolute = context.resolve(path, "file_outline");
      await context.authorize({
        tool: "file_outline",
        action: "read",
        path: absolute,
        description: `Outline "${path}"`,
      });
      return await fileOutline(path, {
        cwd: context.workspace,
        maxSymbols: 500,
      });
    },
    toModelText: (text) => text,
  });
}
