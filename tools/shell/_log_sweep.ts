// Shell keeps a command's full output in a log the model may read later, so
// no log is removed when its command ends. Left alone, a long-lived agent
// fills the temp folder (a log holds up to 256 MiB): the first log a process
// writes in a folder removes the Shell logs there older than a day.
import { join } from "node:path";
import { runtime } from "../../internal/runtime/runtime.ts";
import type { DirEntry } from "../../internal/runtime/runtime.ts";

/** The prefix and suffix of every Shell log's file name. */
export const LOG_PREFIX = "shell-output-";
export const LOG_SUFFIX = ".log";
/** How old a Shell log may grow before a later process removes it. */
export const LOG_MAX_AGE_MS = 24 * 60 * 60 * 1000;

const swept = new Set<string>();

/**
 * Removes the Shell logs in `dir` last written more than a day ago, once per
 * folder and process. Anything it cannot list, stat or remove is left as is.
 */
export function sweepOldLogs(dir: string, now: number = Date.now()): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  try {
    for (const entry of runtime.readDirSync(dir)) {
      if (!_isLog(entry)) continue;
      _removeIfOld(join(dir, entry.name), now);
    }
  } catch {
    // No read access to the folder: nothing is swept.
  }
}

function _isLog(entry: DirEntry): boolean {
  return entry.isFile && entry.name.startsWith(LOG_PREFIX) &&
    entry.name.endsWith(LOG_SUFFIX);
}

function _removeIfOld(path: string, now: number): void {
  try {
    const modified = runtime.statSync(path).mtime?.getTime();
    if (modified !== undefined && now - modified > LOG_MAX_AGE_MS) {
      runtime.removeSync(path);
    }
  } catch {
    // Removed meanwhile, or not ours to remove.
  }
}
