/**
 * Serializes work per key (an absolute path), so concurrent edits and writes
 * of one file apply one after another instead of overwriting each other.
 */
export class KeyedLock {
  #tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every earlier task for `key` has settled. */
  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task, task);
    const tail = result.then(() => {}, () => {});
    this.#tails.set(key, tail);
    tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }
}
