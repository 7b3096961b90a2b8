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
  /** The rules above `root`, when the caller has them already (see GitIgnore.above). */
  ignoresAbove?: GitIgnore;
}

/** Yields the absolute paths of the files to search below the folder `root`. */
export async function* walkFiles(
  root: string,
  options: WalkOptions,
): AsyncGenerator<string> {
  // A stack of the folders being listed, not a generator for each: a file
  // yielded through nested generators costs a step at every level.
  const stack: Folder[] = [];
  const top = await openFolder(
    root,
    options.ignoresAbove ??
      await GitIgnore.above(root, options.workspace),
    options,
  );
  if (top) stack.push(top);
  while (stack.length > 0) {
    const folder = stack[stack.length - 1];
    if (folder.next === folder.entries.length) {
      stack.pop();
      continue;
    }
    const entry = folder.entries[folder.next++];
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

/** A folder being walked: its sorted entries, the next one, its rules. */
interface Folder {
  path: string;
  entries: DirEntry[];
  next: number;
  ignores: GitIgnore;
}

async function openFolder(
  path: string,
  parentIgnores: GitIgnore,
  options: WalkOptions,
): Promise<Folder | undefined> {
  options.signal?.throwIfAborted();
  const entries = await listFolder(path);
  if (entries === undefined) {
    options.onUnreadable?.(path);
    return undefined;
  }
  // Read only where the listing shows one: most folders have none.
  const ignores = entries.some((entry) => entry.name === ".gitignore")
    ? await parentIgnores.enter(path)
    : parentIgnores;
  return { path, entries, next: 0, ignores };
}

async function listFolder(
  folder: string,
): Promise<DirEntry[] | undefined> {
  const entries: DirEntry[] = [];
  try {
    for await (const entry of runtime.readDir(folder)) entries.push(entry);
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
