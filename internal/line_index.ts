// A cache of newline positions for big files, so a repeated deep read of an
// unchanged file jumps close to its line instead of rescanning from the start.
// Kept per file backend (the disk and an editor's buffers may differ), keyed
// by absolute path and validated by size and modification and change times
// (a rewrite that restores the modification time still moves the change
// time); our own writes forget the entry explicitly.

/** Every this many lines, the index records where a line starts. */
export const CHECKPOINT_EVERY = 2048;

/** Files smaller than this are rescanned each time (cheap; no stale risk). */
export const INDEX_MIN_BYTES = 1 << 20;

const MAX_ENTRIES = 16;

/** Known line starts of one file version. */
export interface LineIndex {
  readonly size: number;
  readonly mtimeMs: number;
  readonly changeMs: number | null;
  /** `checkpoints[i]` is the byte offset where line `i * CHECKPOINT_EVERY + 1` starts. */
  readonly checkpoints: number[];
  /** The line count, once a scan has reached the end of the file. */
  totalLines?: number;
}

const caches = new WeakMap<object, Map<string, LineIndex>>();

function cacheOf(backend: object): Map<string, LineIndex> {
  let cache = caches.get(backend);
  if (!cache) {
    cache = new Map();
    caches.set(backend, cache);
  }
  return cache;
}

/**
 * The index for `path` (read through `backend`) when it still matches `size`,
 * `mtimeMs` and `changeMs`, or a fresh empty one (remembered for files of at least
 * {@linkcode INDEX_MIN_BYTES}).
 */
export function lineIndexFor(
  backend: object,
  path: string,
  stat: { size: number; mtimeMs: number | null; changeMs?: number | null },
  firstLineStart: number,
): LineIndex {
  const cache = cacheOf(backend);
  const known = cache.get(path);
  const changeMs = stat.changeMs ?? null;
  if (
    known && stat.mtimeMs !== null && known.size === stat.size &&
    known.mtimeMs === stat.mtimeMs && known.changeMs === changeMs
  ) {
    cache.delete(path); // re-insert: most recently used last
    cache.set(path, known);
    return known;
  }
  const fresh: LineIndex = {
    size: stat.size,
    mtimeMs: stat.mtimeMs ?? -1,
    changeMs,
    checkpoints: [firstLineStart],
  };
  cache.delete(path);
  if (
    stat.size >= INDEX_MIN_BYTES && stat.mtimeMs !== null &&
    !racy(stat.mtimeMs, changeMs)
  ) {
    cache.set(path, fresh);
    if (cache.size > MAX_ENTRIES) {
      cache.delete(cache.keys().next().value as string);
    }
  }
  return fresh;
}

/** Drops what is known about `path` in `backend` (after writing it). */
export function forgetLineIndex(backend: object, path: string): void {
  caches.get(backend)?.delete(path);
}

/**
 * How long after its last change a file may still change within the same tick
 * of the file system's clock, its size and times unmoved (git's "racily
 * clean" entries).
 */
const RACY_MS = 2000;

/** Whether a file changed too recently for its index to be kept. */
function racy(mtimeMs: number, changeMs: number | null): boolean {
  return Date.now() - Math.max(mtimeMs, changeMs ?? mtimeMs) < RACY_MS;
}
