// The process-wide file queues. They live at module level, not in a tools
// instance: two agents in one script, or two ACP sessions on one folder, edit
// the same files, and a lock of their own each would let their
// read-modify-writes overwrite each other.
import { realPathOrNearest } from "../internal/paths.ts";
import { type Turn, TurnQueue } from "./_turn_queue.ts";

/** A map of turn queues that drops a queue once nobody is in it. */
class KeyedQueues {
  #queues = new Map<string, TurnQueue>();

  enter(key: string): Turn {
    let queue = this.#queues.get(key);
    if (queue === undefined) {
      queue = new TurnQueue(() => this.#queues.delete(key));
      this.#queues.set(key, queue);
    }
    return queue.enter();
  }

  /** How many keys have someone in line (for tests: nothing leaks). */
  get size(): number {
    return this.#queues.size;
  }
}

// By the path as the call gave it, resolved against the workspace: known
// synchronously, so a call takes its place before its first await.
const byPath = new KeyedQueues();
// By the real path: found with an await, so it orders nothing, but it keeps
// "link/a.txt" and "pkg/a.txt" (link -> pkg) from being written at once.
const byRealPath = new KeyedQueues();

/**
 * Takes a place, now, in the line of calls on the file at `path` (absolute):
 * the calls that touch one file run one at a time, in the order they started.
 */
export function queueForFile(path: string): Turn {
  return byPath.enter(path);
}

/**
 * Runs `task` alone among the writes of the same real file, whatever path
 * reached it. Nothing that waits for a person (an approval) runs under it,
 * so a wait for it always ends and needs no AbortSignal: `task` checks one.
 */
export async function lockRealFile<T>(
  path: string,
  task: () => Promise<T>,
): Promise<T> {
  using turn = byRealPath.enter(await realPathOrNearest(path));
  await turn.wait();
  return await task();
}

/** How many files have calls queued or running (for tests: nothing leaks). */
export function queuedFileCount(): number {
  return byPath.size + byRealPath.size;
}
