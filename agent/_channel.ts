// An unbounded async queue: several producers (the model stream, Plan updates,
// retry notices) push events, one consumer iterates them in arrival order.

/** A queue that one consumer drains with `for await`. */
export class Channel<T> implements AsyncIterable<T> {
  #items: T[] = [];
  #done = false;
  #error: { reason: unknown } | undefined;
  #wake: (() => void) | undefined;
  #onConsumed: ((item: T) => void) | undefined;

  /** `onConsumed` runs when the consumer asks for the next item: it is done with this one. */
  constructor(onConsumed?: (item: T) => void) {
    this.#onConsumed = onConsumed;
  }

  /** Adds an item; ignored once the channel is closed. */
  push(item: T): void {
    if (this.#done) return;
    this.#items.push(item);
    this.#notify();
  }

  /** Ends the channel after the items already pushed. */
  close(): void {
    this.#done = true;
    this.#notify();
  }

  /** Ends the channel with an error, thrown after the items already pushed. */
  fail(reason: unknown): void {
    if (this.#done) return;
    this.#error = { reason };
    this.close();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    while (true) {
      while (this.#items.length > 0) {
        const item = this.#items.shift()!;
        yield item;
        this.#onConsumed?.(item);
      }
      if (this.#done) break;
      await new Promise<void>((resolve) => this.#wake = resolve);
    }
    if (this.#error) throw this.#error.reason;
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }
}
