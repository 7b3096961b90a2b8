// Error messages shared by the file tools: a missing file with similar names,
// a directory where a file was expected, and plain file-system failures.
import { basename, dirname } from "node:path";
import { displayPath } from "../internal/display_path.ts";
import { realPathOrNearest } from "../internal/paths.ts";
import type { Authorization, ToolContext } from "./context.ts";
import { ToolError } from "../internal/tool_error.ts";
import type { FileBackend, FileStat } from "./types.ts";
import { isError } from "../internal/runtime/runtime.ts";

/** Who is asking, for messages: `Cannot ${verb} "${display}": ...`. */
export interface FileTarget {
  verb: string;
  /** Absolute path. */
  path: string;
  /** The path as messages show it. */
  display: string;
  workspace: string;
}

/** Resolves a file tool's `path` (against its `cwd`) into the target its messages name. */
export function fileTarget(
  context: ToolContext,
  call: { tool: string; verb: string; path: string; cwd?: string },
): FileTarget {
  const path = context.resolve(call.path, call.tool, call.cwd);
  return {
    verb: call.verb,
    path,
    display: displayPath(context.workspace, path),
    workspace: context.workspace,
  };
}

/** Stats an existing file, turning "missing" and "directory" into clear errors. */
export async function statFile(
  files: FileBackend,
  target: FileTarget,
): Promise<FileStat> {
  let stat: FileStat;
  try {
    stat = await files.stat(target.path);
  } catch (error) {
    if (isError(error, "notFound")) {
      throw await notFoundError(files, target);
    }
    throw fileSystemError(target, error);
  }
  if (stat.kind === "directory") {
    throw new ToolError(
      `Cannot ${target.verb} "${target.display}": it is a directory, not a file; give the path of a file inside it (list it with Shell, e.g. "ls ${target.display}")`,
    );
  }
  if (stat.kind !== "file") {
    throw new ToolError(
      `Cannot ${target.verb} "${target.display}": it is not a regular file (a device, socket or pipe)`,
    );
  }
  return stat;
}

/** "No such file", with up to three similar names from its folder. */
export async function notFoundError(
  files: FileBackend,
  target: FileTarget,
): Promise<ToolError> {
  const folder = dirname(target.path);
  const shownFolder = displayPath(target.workspace, folder);
  let names: string[];
  try {
    names = await files.readDir(folder);
  } catch (error) {
    if (isError(error, "notFound")) {
      return new ToolError(
        `Cannot ${target.verb} "${target.display}": it does not exist, and neither does its folder "${shownFolder}"; check the path`,
      );
    }
    names = [];
  }
  const similar = similarNames(basename(target.path), names);
  const hint = similar.length > 0
    ? `; similar names in "${shownFolder}": ${
      similar.map((n) => `"${n}"`).join(", ")
    }`
    : `; no similar names in "${shownFolder}", check the path`;
  return new ToolError(
    `Cannot ${target.verb} "${target.display}": no such file${hint}`,
  );
}

/** A file-system failure with the path and, where it helps, what to do. */
export function fileSystemError(target: FileTarget, error: unknown): ToolError {
  if (error instanceof ToolError) return error;
  const where = `Cannot ${target.verb} "${target.display}"`;
  if (isError(error, "permissionDenied")) {
    return new ToolError(
      `${where}: the operating system denies access (${
        messageOf(error)
      }); check the file's permissions`,
      { cause: error },
    );
  }
  if (isError(error, "notCapable")) {
    return new ToolError(`${where}: ${messageOf(error)}`, { cause: error });
  }
  if (isError(error, "notADirectory")) {
    return new ToolError(
      `${where}: a part of the path is a file, not a folder`,
      { cause: error },
    );
  }
  if (isError(error, "isADirectory")) {
    return new ToolError(`${where}: it is a directory, not a file`, {
      cause: error,
    });
  }
  return new ToolError(`${where}: ${messageOf(error)}`, { cause: error });
}

/** Up to three names from `names` that look like `wanted` (closest first). */
export function similarNames(wanted: string, names: string[]): string[] {
  const lower = wanted.toLowerCase();
  const stem = stemOf(lower);
  const scored: { name: string; score: number }[] = [];
  for (const name of names) {
    const other = name.toLowerCase();
    let score = editDistance(lower, other, 8);
    if (stemOf(other) === stem) score = Math.min(score, 1);
    const otherStem = stemOf(other);
    if (
      (stem.length >= 3 && other.startsWith(stem)) ||
      (otherStem.length >= 3 && lower.startsWith(otherStem))
    ) {
      score = Math.min(score, 2);
    }
    if (score <= Math.max(2, Math.floor(wanted.length / 3))) {
      scored.push({ name, score });
    }
  }
  scored.sort((a, b) => a.score - b.score || a.name.localeCompare(b.name));
  return scored.slice(0, 3).map((s) => s.name);
}

function stemOf(name: string): string {
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(0, dot) : name;
}

/**
 * Levenshtein distance, giving up (returning `cap + 1`) once it exceeds
 * `cap`. Only the band of cells within `cap` of the diagonal can stay under
 * it, so only those are computed: long names cost length × cap, not length².
 */
function editDistance(a: string, b: string, cap: number): number {
  const over = cap + 1;
  if (Math.abs(a.length - b.length) > cap) return over;
  let previous = new Int32Array(b.length + 1);
  let current = new Int32Array(b.length + 1);
  for (let j = 0; j <= b.length; j++) previous[j] = Math.min(j, over);
  for (let i = 1; i <= a.length; i++) {
    const low = Math.max(1, i - cap);
    const high = Math.min(b.length, i + cap);
    current[low - 1] = low === 1 ? Math.min(i, over) : over;
    let best = current[low - 1];
    for (let j = low; j <= high; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const above = j <= i - 1 + cap ? previous[j] : over;
      current[j] = Math.min(
        above + 1,
        current[j - 1] + 1,
        previous[j - 1] + cost,
      );
      best = Math.min(best, current[j]);
    }
    if (best > cap) return over;
    [previous, current] = [current, previous];
  }
  return Math.min(previous[b.length], over);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Refuses a call whose signal was aborted, e.g. while its approval was
 * pending: a cancelled turn must change nothing more.
 */
export function refuseAborted(
  signal: AbortSignal | undefined,
  target: FileTarget,
): void {
  if (!signal?.aborted) return;
  throw new ToolError(
    `Did not ${target.verb} "${target.display}": the call was aborted`,
  );
}

/**
 * Refuses a call whose file no longer leads where it did when the call was
 * authorized: a file swapped for a symlink (or a folder repointed) while a
 * person decided would otherwise be read or written through, wherever it
 * leads now. Writes check under the file's lock, right before the write.
 */
export async function refuseRetargeted(
  context: ToolContext,
  target: FileTarget,
  authorized: Authorization,
): Promise<void> {
  const approved = authorized.realPath;
  if (approved === undefined) return;
  const now = await realPathOrNearest(target.path);
  if (now === approved) return;
  const outside = await context.isOutside(target.path)
    ? " (outside the workspace)"
    : "";
  throw new ToolError(
    `Did not ${target.verb} "${target.display}": it changed while the call waited and now leads to "${now}"${outside}, not to "${approved}" as when it was authorized (a symlink was made or repointed); nothing was done. Find out what replaced it before you try again: a new call asks about the new target`,
  );
}
