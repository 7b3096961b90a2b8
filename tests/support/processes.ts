// Watching processes a test started through the tools (by pid, from a file
// the command wrote).

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
