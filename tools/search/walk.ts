// The files a search visits, in a stable (sorted, depth-first) order: it skips
// `.git`, `node_modules`, what .gitignore files ignore, and symbolic links
// (following them could loop or leave the workspace).
import { join, relative, sep } from "node:path";
import { GitIgnore } from "./_gitignore.ts";
import type { GlobFilter } from "./_glob.ts";
import { runtime } from "../../internal/runtime/runtime.ts";
import type { DirEntry } from "../../internal/runtime/runtime.ts";

/** Folders never searched, whatever the ignore files say. */
const ALWAYS_SKIPPED = new Set([".git", "node_modules"]);

/** Options for {@linkcode walkFiles}. */
export interface WalkOptions {
  /** The workspace root, which bounds the .gitignore lookup above `root`. */
  workspace: string;
  /** Keeps only the files whose path relative to `root` passes. */
  glob?: GlobFilter;
  signal?: AbortSignal;
  /** Leaves out the folders whose name this answers true for. */
  skipFolder?: (name: string) => boolean;
  /** Called with each folder that could not be listed. */
  onUnreadable?: (path: string) => void;
}

/** Yields the absolute paths of the files to search below the folder `root`. */
export async function* walkFiles(
  root: string,
  options: WalkOptions,
): AsyncGenerator<string> {
  // One generator over a stack of open folders: a generator per folder would
  // pass each path up through one more generator per level.
  const stack: OpenFolder[] = [];
  const top = await openFolder(
    root,
    await GitIgnore.above(root, options.workspace),
    options,
  );
  if (top) stack.push(top);
  while (stack.length > 0) {
    const folder = stack[stack.length - 1];
    const entry = folder.entries[folder.next++];
    if (entry === undefined) {
      stack.pop();
      continue;
    }
    if (entry.isSymlink || ALWAYS_SKIPPED.has(entry.name)) continue;
    const path = join(folder.path, entry.name);
    if (folder.ignores.ignores(path, entry.isDirectory)) continue;
    if (entry.isDirectory) {
      if (options.skipFolder?.(entry.name)) continue;
      const child = await openFolder(path, folder.ignores, options);
      if (child) stack.push(child);
    } else if (entry.isFile && passesGlob(root, path, options.glob)) {
      yield path;
    }
  }
}

/** A folder being walked: its sorted entries and the rules inside it. */
interface OpenFolder {
  path: string;
  entries: DirEntry[];
  next: number;
  ignores: GitIgnore;
}

async function openFolder(
  path: string,
  parentIgnores: GitIgnore,
  options: WalkOptions,
): Promise<OpenFolder | undefined> {
  options.signal?.throwIfAborted();
  const entries = listFolder(path);
  if (entries === undefined) {
    options.onUnreadable?.(path);
    return undefined;
  }
  // Only a folder listing a .gitignore has rules to read: trying to read one
  // in every folder costs a failed open and an error object each.
  const ignores = entries.some((entry) => entry.name === ".gitignore")
    ? await parentIgnores.enter(path)
    : parentIgnores;
  return { path, entries, next: 0, ignores };
}

function listFolder(folder: string): DirEntry[] | undefined {
  const entries: DirEntry[] = [];
  try {
    // Sync: a listing takes a few system calls, fewer than the async op's
    // hand-off to another thread costs.
    for (const entry of runtime.readDirSync(folder)) entries.push(entry);
  } catch {
    return undefined;
  }
  return entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
}

function passesGlob(root: string, path: string, glob?: GlobFilter): boolean {
  if (!glob) return true;
  const rel = relative(root, path);
  return glob(sep === "/" ? rel : rel.split(sep).join("/"));
}
