// The one Outliner behind the public functions: its pool of workers and its
// kept trees serve outlines and syntax checks alike, so a file outlined or
// checked once re-parses incrementally the next time.
import { Outliner } from "./outliner.ts";

let shared: Outliner | undefined;

/** The process's shared Outliner, started on first use. */
export function sharedOutliner(): Outliner {
  shared ??= new Outliner();
  return shared;
}
