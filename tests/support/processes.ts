// Watching processes a test started through the tools (by pid, from a file
// the command wrote).
import assert from "node:assert/strict";

/** Waits (up to 20 s) for `path` to hold a pid, written by the command under test. */
export async function waitForPid(path: string): Promise<number> {
  for (let i = 0; i < 400; i++) {
    try {
      const text = (await Deno.readTextFile(path)).trim();
      if (text) return Number(text);
    } catch {
      // not written yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no pid in ${path}`);
}

/** Whether `pid` runs; a zombie (exited, not yet reaped) counts as gone. Linux (/proc). */
export function isAlive(pid: number): boolean {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

/** Waits (up to 5 s) for `pid` to be gone; resolves to whether it is. */
export async function waitUntilGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50 && isAlive(pid); i++) {
    await new Promise((r) => setTimeout(r, 100));
  }
  return !isAlive(pid);
}

/** The pids written one a line (or space-separated) in `file`; none while it is missing. */
export async function readPids(file: string): Promise<number[]> {
  const text = await Deno.readTextFile(file).catch(() => "");
  return text.split(/\s+/).filter(Boolean).map(Number);
}

/** The pids written in whichever of `files` exist. */
export async function readPidFiles(files: string[]): Promise<number[]> {
  const pids: number[] = [];
  for (const file of files) pids.push(...await readPids(file));
  return pids;
}

/** Waits (up to 20 s) until `file` lists `count` pids; resolves to them. */
export async function waitForPids(
  file: string,
  count: number,
): Promise<number[]> {
  for (let i = 0; i < 400; i++) {
    const pids = await readPids(file);
    if (pids.length >= count) return pids;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`fewer than ${count} pids in ${file}`);
}

/** The pids still running after each had up to 5 s to go. */
export async function survivors(pids: number[]): Promise<number[]> {
  const alive: number[] = [];
  for (const pid of pids) if (!(await waitUntilGone(pid))) alive.push(pid);
  return alive;
}

/** Kills whatever of `pids` still runs (a failed test's leftovers). */
export function killLeftovers(pids: number[]): void {
  for (const pid of pids) {
    if (!isAlive(pid)) continue;
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Gone meanwhile.
    }
  }
}

/** Asserts that every one of `pids` ends within 5 s; kills the survivors either way. */
export async function assertAllGone(pids: number[]): Promise<void> {
  const left = await survivors(pids);
  killLeftovers(left);
  assert.deepEqual(left, [], "no process of the tree survives");
}

/**
 * A command whose process tree has children and grandchildren, each pid
 * appended to `file` ({@linkcode TREE_SIZE} in all: sh, two children, two
 * grandchildren).
 */
export function treeCommand(file: string): string {
  return `sleep 100 & echo $! >> ${file}; ` +
    `(sleep 100 & echo $! >> ${file}; sleep 100 & echo $! >> ${file}; wait) & ` +
    `echo $! >> ${file}; echo $$ >> ${file}; wait`;
}

/** How many pids {@linkcode treeCommand} writes. */
export const TREE_SIZE = 5;
