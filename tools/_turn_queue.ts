// A first-come, first-served line. A place is taken synchronously by enter(),
// so calls that enter before their first await keep the order they started in
// (the AI SDK starts the calls of a step in the model's order), whatever order
// their later awaits finish in.

/** A line of turns: the first place holds the turn, the rest wait. */
export class TurnQueue {
  #line: { turn: Turn; grant: () => void }[] = [];
  #onEmpty: (() => void) | undefined;

  /** `onEmpty` runs when the last place leaves (to drop a keyed queue). */
  constructor(onEmpty?: () => void) {
    this.#onEmpty = onEmpty;
  }

  /** Whether no place is taken. */
  get empty(): boolean {
    return this.#line.length === 0;
  }

  /** Takes the last place, now; the turn comes when every earlier place has left. */
  enter(): Turn {
    const { promise, resolve } = Promise.withResolvers<void>();
    const turn = new Turn(promise, (left) => this.#leave(left));
    this.#line.push({ turn, grant: resolve });
    if (this.#line.length === 1) resolve();
    return turn;
  }

  #leave(turn: Turn): void {
    const index = this.#line.findIndex((place) => place.turn === turn);
    if (index === -1) return;
    this.#line.splice(index, 1);
    if (index === 0) this.#line[0]?.grant();
    if (this.#line.length === 0) this.#onEmpty?.();
  }
}

/** One place in a {@linkcode TurnQueue}; leave it with `release()` or `using`. */
export class Turn implements Disposable {
  #granted: Promise<void>;
  #leave: (turn: Turn) => void;
  #left = false;

  constructor(granted: Promise<void>, leave: (turn: Turn) => void) {
    this.#granted = granted;
    this.#leave = leave;
  }

  /**
   * Resolves when the turn has come, or as soon as `signal` aborts, having
   * then left the line (a cancelled call must not hold up the calls behind
   * it): check the signal after.
   */
  async wait(signal?: AbortSignal): Promise<void> {
    if (signal === undefined) return await this.#granted;
    if (signal.aborted) return this.release();
    const aborted = Promise.withResolvers<void>();
    const onAbort = () => {
      this.release();
      aborted.resolve();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await Promise.race([this.#granted, aborted.promise]);
    } finally {
      signal.removeEventListener("abort", onAbort);
    }
  }

  /** Leaves the line (the turn passes on); later calls do nothing. */
  release(): void {
    if (this.#left) return;
    this.#left = true;
    this.#leave(this);
  }

  [Symbol.dispose](): void {
    this.release();
  }
}
