// Where fello keeps what outlives a run: saved conversations, caches.
import { runtime } from "./runtime/runtime.ts";
import { join } from "node:path";

/**
 * Where fello keeps its state: `$FELLO_STATE_DIR`, else
 * `$XDG_STATE_HOME/fello`, else `~/.local/state/fello`
 * (`%LOCALAPPDATA%\fello` on Windows). Throws when none can be found,
 * naming `purpose` (what the folder was wanted for).
 *
 * Requires `--allow-env`.
 */
export function stateFolder(purpose = "saved conversations"): string {
  const env = (name: string) => runtime.env.get(name) || undefined;
  const folder = env("FELLO_STATE_DIR") ??
    (env("XDG_STATE_HOME") && join(env("XDG_STATE_HOME")!, "fello")) ??
    (env("LOCALAPPDATA") && join(env("LOCALAPPDATA")!, "fello")) ??
    (env("HOME") && join(env("HOME")!, ".local", "state", "fello"));
  if (folder === undefined) {
    throw new Error(
      `Cannot find a folder for ${purpose}: set FELLO_STATE_DIR (or HOME)`,
    );
  }
  return folder;
}
