import { isAbsolute, relative } from "node:path";

/**
 * How tools name a path in results and messages: relative to the workspace
 * when it lies inside it (lexically), absolute otherwise.
 */
export function displayPath(workspace: string, path: string): string {
  const rel = relative(workspace, path);
  if (rel === "") return ".";
  if (
    rel === ".." || rel.startsWith("../") || rel.startsWith("..\\") ||
    isAbsolute(rel)
  ) {
    return path;
  }
  return rel;
}
