// A gate on file locking for tests of the session lock: the first failed lock
// attempt waits until the test lets it go, so a step of another process lands
// between two attempts however loaded the machine (a sleep cannot promise that).

/** A gate set up by {@linkcode gateFailedLock}. */
export interface LockGate {
  /** Resolves once a lock attempt has failed and is waiting. */
  reached: Promise<void>;
  /** Lets the waiting attempt return. */
  go(): void;
  /** Puts `Deno.FsFile.prototype.tryLock` back (also done after the first failure). */
  restore(): void;
}

/** Patches `Deno.FsFile.prototype.tryLock` so its first failure waits for `go()`. */
export function gateFailedLock(): LockGate {
  const tryLock = Deno.FsFile.prototype.tryLock;
  const reached = Promise.withResolvers<void>();
  const go = Promise.withResolvers<void>();
  const restore = () => {
    Deno.FsFile.prototype.tryLock = tryLock;
  };
  Deno.FsFile.prototype.tryLock = async function (
    this: Deno.FsFile,
    ...args: Parameters<Deno.FsFile["tryLock"]>
  ) {
    const locked = await tryLock.apply(this, args);
    if (!locked) {
      restore();
      reached.resolve();
      await go.promise;
    }
    return locked;
  };
  return { reached: reached.promise, go: () => go.resolve(), restore };
}
