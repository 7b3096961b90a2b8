// The --cwd flag of run, mcp and acp: the folder a command works in.
import { resolve } from "node:path";

/**
 * The absolute folder `cwd` names (default: the current folder); throws a
 * usage message when it is missing or not a folder.
 */
export async function workspaceFolder(
  cwd: string | undefined,
): Promise<string> {
  const path = resolve(cwd ?? Deno.cwd());
  let info: Deno.FileInfo;
  try {
    info = await Deno.stat(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "does not exist"
      : `cannot be opened (${(error as Error).message})`;
    throw new TypeError(
      `the workspace "${path}" ${reason}; pass an existing folder with --cwd`,
    );
  }
  if (!info.isDirectory) {
    throw new TypeError(
      `the workspace "${path}" is not a folder; pass an existing folder with --cwd`,
    );
  }
  return path;
}
