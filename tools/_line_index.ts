// A cache of newline positions for big files, so a repeated deep read of an
// unchanged file jumps close to its line instead of rescanning from the start.
// Kept per file backend (the disk and an editor's buffers may differ), keyed
// by absolute path and validated by size and modification time; our own
// writes forget the entry explicitly.

/** Every this many lines, the index records where a line starts. */
export const CHECKPOINT_EVERY = 2048;

/** Files smaller than this are rescanned each time (cheap; no stale risk). */
export const INDEX_MIN_BYTES = 1 << 20;

const MAX_ENTRIES = 16;

/** Known line starts of one file version. */
export interface LineIndex {
  readonly size: number;
  readonly mtimeMs: number;
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
 * The index for `path` (read through `backend`) when it still matches `size`
 * and `mtimeMs`, or a fresh empty one (remembered for files of at least
 * {@linkcode INDEX_MIN_BYTES}).
 */
export function lineIndexFor(
  backend: object,
  path: string,
  stat: { size: number; mtimeMs: number | null },
  firstLineStart: number,
): LineIndex {
  const cache = cacheOf(backend);
  const known = cache.get(path);
  if (
    known && stat.mtimeMs !== null && known.size === stat.size &&
    known.mtimeMs === stat.mtimeMs
  ) {
    cache.delete(path); // re-insert: most recently used last
    cache.set(path, known);
    return known;
  }
  const fresh: LineIndex = {
    size: stat.size,
    mtimeMs: stat.mtimeMs ?? -1,
    checkpoints: [firstLineStart],
  };
  cache.delete(path);
  if (stat.size >= INDEX_MIN_BYTES && stat.mtimeMs !== null) {
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
