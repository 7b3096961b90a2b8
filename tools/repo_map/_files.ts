// The files a repo map reads: outlinable code, not ignored by .gitignore, out
// of hidden, vendored and built folders.
import { sep } from "node:path";
import { isError, runtime } from "../../internal/runtime/runtime.ts";
import { ToolError } from "../../internal/tool_error.ts";
import { supportedExtension } from "../../outline/supported.ts";
import { walkFiles } from "../search/walk.ts";

/** Folders a map never enters, besides hidden ones and what .gitignore says. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set([
  "node_modules",
  "vendor",
  "third_party",
  "dist",
  "build",
  "out",
  "target",
]);

/** The files a map reads: outlinable, not ignored, out of skipped folders. */
export async function mapFiles(
  folder: string,
  root: string,
  signal?: AbortSignal,
): Promise<string[]> {
  const files: string[] = [];
  // The walk yields `folder` joined with a relative path.
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  try {
    for await (
      const path of walkFiles(folder, {
        workspace: folder,
        signal,
        skipFolder: (name) => name.startsWith(".") || SKIPPED_FOLDERS.has(name),
      })
    ) {
      const extension = supportedExtension(path);
      // Markdown headings are never referenced from code: a map of code.
      if (extension === undefined || extension === ".md") continue;
      const rel = path.slice(prefix.length);
      files.push(sep === "/" ? rel : rel.split(sep).join("/"));
    }
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    if (isError(error, "notFound")) {
      throw new ToolError(
        `Cannot map "${root}": no such folder; pass the repository's root`,
      );
    }
    throw error;
  }
  if (files.length === 0 && !(await isFolder(folder))) {
    throw new ToolError(
      `Cannot map "${root}": no such folder; pass the repository's root`,
    );
  }
  return files;
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await runtime.stat(path)).isDirectory;
  } catch {
    return false;
  }
}
