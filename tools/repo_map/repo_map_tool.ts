// The built-in `repo_map` tool: the repository's most relevant definitions
// within a token budget, for a model that needs the lay of the land.
import { z } from "zod";
import { displayPath } from "../../internal/display_path.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define.ts";
import type { Tool } from "../types.ts";
import { DEFAULT_MAP_TOKENS, MIN_MAP_TOKENS, repoMap } from "./repo_map.ts";
import DESCRIPTION from "./repo_map.txt" with { type: "text" };

/**
 * Input of the `repo_map` tool.
 *
 * Executing repo_map requires `--allow-read` for the folder.
 *
 * @example Map the workspace around the file being changed
 * ```ts
 * import { createTools, type RepoMapInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.py`, "from b import parse\nparse('x')\n");
 * await Deno.writeTextFile(`${cwd}/b.py`, "def parse(text):\n    return text\n");
 * const input: RepoMapInput = { focus: ["a.py"], tokens: 256 };
 * const map = await createTools({ cwd }).repo_map.execute(input);
 * assert.match(map, /^b\.py\n {4}def parse \(lines 1-2\)$/m);
 * ```
 */
export interface RepoMapInput {
  /** The folder to map, relative to the workspace; defaults to the workspace. */
  path?: string;
  /** The budget in tokens; default 1,024, at least 256. */
  tokens?: number;
  /** Files or symbol name paths the map is about. */
  focus?: string[];
}

const schema = z.object({
  path: z.string().min(1, "must not be empty").optional(),
  tokens: z.number().int().min(MIN_MAP_TOKENS).max(65_536).optional(),
  focus: z.array(z.string().min(1)).max(50).optional(),
});

/**
 * Creates the `repo_map` tool for a context: {@linkcode repoMap} of the
 * workspace (or a folder of it), cached per file in fello's state folder.
 *
 * Requires `--allow-read` for the folder and `--allow-env` (plus
 * `--allow-write` on the state folder for the cache between processes).
 *
 * @param context The workspace, permission gate and backends.
 * @returns The tool.
 */
export function createRepoMap(
  context: ToolContext,
): Tool<RepoMapInput, string> {
  return defineTool({
    name: "repo_map",
    kind: "read",
    description: DESCRIPTION,
    schema,
    async run(input: RepoMapInput, { signal }): Promise<string> {
      const folder = context.resolve(input.path ?? ".", "repo_map");
      const shown = displayPath(context.workspace, folder);
      await context.authorize({
        tool: "repo_map",
        action: "read",
        path: folder,
        description: `Map the code in "${shown}"`,
      }, { signal });
      if (signal?.aborted) {
        throw new ToolError(`Mapping "${shown}" was cancelled`);
      }
      return await repoMap(folder, {
        tokens: input.tokens ?? DEFAULT_MAP_TOKENS,
        focus: input.focus,
        signal,
      });
    },
    toModelText: (text: string) => text,
  });
}
