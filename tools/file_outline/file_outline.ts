// The built-in `file_outline` tool: the structure of one source file as the
// specification's plain text, from the outline engine (tree-sitter in workers).
import { z } from "zod";
import { fileOutline } from "../../outline/outline.ts";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define.ts";
import { displayPath } from "../../internal/display_path.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { Tool } from "../types.ts";
import DESCRIPTION from "./file_outline.txt" with { type: "text" };

/**
 * Input of the `file_outline` tool.
 *
 * Executing file_outline requires `--allow-read` for the file.
 *
 * @example Outline a file for the model
 * ```ts
 * import { createTools, type FileOutlineInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const input: FileOutlineInput = { path: "tools/read/read_file.ts" };
 * const text = await createTools({ cwd: Deno.cwd() }).file_outline.execute(input);
 * assert.match(text, /^File: tools\/read\/read_file\.ts/);
 * assert.match(text, /function createReadFile/);
 * ```
 */
export interface FileOutlineInput {
  /** The file: relative to the workspace, `~/`-relative, absolute, or a `file://` URI. */
  path: string;
}

/** The most symbol lines the tool shows: room for a big file in a model's context. */
export const FILE_OUTLINE_MAX_SYMBOLS = 400;

const schema = z.object({
  path: z.string().min(1, "must not be empty"),
});

/**
 * Creates the `file_outline` tool for a context: the symbols of one source
 * file with line ranges and doc summaries, as the specification's plain text,
 * capped at {@linkcode FILE_OUTLINE_MAX_SYMBOLS} symbols.
 *
 * Requires `--allow-read` for the file (and for this package's own modules,
 * which the parser workers load).
 *
 * @example Outline a file before reading parts of it
 * ```ts
 * import { createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.py`, "class Greeter:\n    def hello(self):\n        pass\n");
 * const tools = createTools({ cwd, permissionMode: "readOnly" });
 * const outline = await tools.file_outline.execute({ path: "a.py" });
 * assert.match(outline, /class Greeter \(lines 1-3\)/);
 * assert.match(outline, /  method hello \(lines 2-3\)/);
 * ```
 *
 * @param context The workspace, permission gate and backends.
 * @returns The tool.
 */
export function createFileOutline(
  context: ToolContext,
): Tool<FileOutlineInput, string> {
  return defineTool({
    name: "file_outline",
    kind: "read",
    description: DESCRIPTION,
    schema,
    async run(input: FileOutlineInput, { signal }): Promise<string> {
      // Before the permission check: a cancelled call asks nobody.
      refuseCancelled(input.path, signal);
      const path = context.resolve(input.path, "file_outline");
      const shown = displayPath(context.workspace, path);
      // Before any await: an outline made after a write of this file (in one
      // step) waits for it, and outlines what it wrote.
      using queued = context.queueForFile(path);
      await queued.file.wait(signal);
      refuseCancelled(input.path, signal);
      await context.authorize({
        tool: "file_outline",
        action: "read",
        path,
        description: `Outline "${shown}"`,
      }, { turn: queued.ask, signal });
      // The engine resolves the path the same way; the `File:` line shows it as given.
      return await fileOutline(input.path, {
        cwd: context.workspace,
        maxSymbols: FILE_OUTLINE_MAX_SYMBOLS,
        signal,
      });
    },
    toModelText: (text: string) => text,
  });
}

function refuseCancelled(path: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ToolError(`Outlining "${path}" was cancelled`);
}
