// Scans the files of one search on several worker threads at once, so a
// search without ripgrep uses every core (up to MAX_SCAN_THREADS): each file
// goes to the worker with the fewest files in hand. Each worker is a
// RegexScanner with its own watchdog, so a match stuck backtracking in any of
// them stops the search as it would with one.
import type { FileScan } from "./_search_file.ts";
import { RegexScanner } from "./_regex_scanner.ts";

/** The most worker threads one search scans on. */
export const MAX_SCAN_THREADS = 4;

/** The threads a search scans on by default: the cores, 2 to MAX_SCAN_THREADS. */
export function scanThreads(): number {
  const cores = navigator.hardwareConcurrency ?? 2;
  return Math.min(MAX_SCAN_THREADS, Math.max(2, cores));
}

/** RegexScanners for one search, sharing its files. Close it when it ends. */
export class ScanPool {
  #scanners: { scanner: RegexScanner; inHand: number }[];

  /**
   * `threads` workers (default {@linkcode scanThreads}), each started at its
   * first file; `budgetMs` and `mayBacktrack` as RegexScanner takes them.
   */
  constructor(
    options: { threads?: number; budgetMs?: number; mayBacktrack?: boolean } =
      {},
  ) {
    const threads = Math.max(1, options.threads ?? scanThreads());
    this.#scanners = Array.from({ length: threads }, () => ({
      scanner: new RegexScanner(options),
      inHand: 0,
    }));
  }

  /** Scans `path` on the least busy worker, as RegexScanner.scan does. */
  async scan(
    path: string,
    pattern: RegExp,
    options: { limit: number; signal?: AbortSignal; literal?: Uint8Array },
  ): Promise<FileScan> {
    const least = this.#scanners.reduce((a, b) => b.inHand < a.inHand ? b : a);
    least.inHand++;
    try {
      return await least.scanner.scan(path, pattern, options);
    } finally {
      least.inHand--;
    }
  }

  /** Closes every scanner (see RegexScanner.close). */
  close(): void {
    for (const { scanner } of this.#scanners) scanner.close();
  }
}
