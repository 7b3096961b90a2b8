// The --cwd flag of run, mcp and acp: the folder a command works in.
import { resolve } from "node:path";
import { isError, runtime } from "../internal/runtime/runtime.ts";
import type { FileInfo } from "../internal/runtime/runtime.ts";

/**
 * The absolute folder `cwd` names (default: the current folder); throws a
 * usage message when it is missing or not a folder.
 */
export async function workspaceFolder(
  cwd: string | undefined,
): Promise<string> {
  const path = resolve(cwd ?? runtime.cwd());
  let info: FileInfo;
  try {
    info = await runtime.stat(path);
  } catch (error) {
    const reason = isError(error, "notFound")
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
