// PLACEHOLDER: the files helper replaces this file.
import type { FileBackend } from "./types.ts";

/** The local disk, checking Deno's permissions before each operation. */
export function createLocalFiles(): FileBackend {
  const missing = (): never => {
    throw new Error("local files are not implemented yet");
  };
  return {
    stat: missing,
    open: missing,
    readDir: missing,
    writeFile: missing,
  };
}
