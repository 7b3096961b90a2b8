// The size of a file opened by its path. Deno checks `FsFile.stat()` against
// the path the descriptor really leads to (symlinks resolved), not the path
// it was opened by: under a read grant on a symlinked path (macOS's /tmp, a
// workspace given through a link) the open succeeds and the stat is denied.
// Deno already let the file be opened and read by `path`, so its size is read
// by `path` too; this grants nothing the open did not.

import { isError, runtime } from "./runtime/runtime.ts";
import type { FsFile } from "./runtime/runtime.ts";
/** `file`'s size, by `path` (the path it was opened by) when Deno denies the descriptor's. */
export async function openedFileSize(
  file: FsFile,
  path: string,
): Promise<number> {
  try {
    return (await file.stat()).size;
  } catch (error) {
    if (!isError(error, "notCapable")) throw error;
    return (await runtime.stat(path)).size;
  }
}

/** {@linkcode openedFileSize}, blocking (for the outline worker's read). */
export function openedFileSizeSync(file: FsFile, path: string): number {
  try {
    return file.statSync().size;
  } catch (error) {
    if (!isError(error, "notCapable")) throw error;
    return runtime.statSync(path).size;
  }
}
