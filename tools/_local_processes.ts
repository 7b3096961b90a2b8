// PLACEHOLDER: the shell helper replaces this file.
import type { ProcessBackend } from "./types.ts";

/** Local subprocesses in their own process groups. */
export function createLocalProcesses(): ProcessBackend {
  return {
    run(): never {
      throw new Error("local processes are not implemented yet");
    },
  };
}
