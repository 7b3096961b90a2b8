// A conversation saved to a file, to go on with later: `fello run --session
// FILE` or `--continue` (the workspace's own file in the state folder), and
// ACP sessions an editor loads again. The file holds the agent's history as
// JSON and is replaced atomically after each prompt, so an interrupted save
// leaves the last one.
import { dirname, join } from "node:path";
import { historyProblem } from "./_history.ts";
import type { AgentMessage } from "./types.ts";

/** What a session file holds. */
export interface SavedSession {
  /** The workspace the conversation ran in. */
  cwd: string;
  /** The model that answered last. */
  model: string;
  /** The agent's history. */
  messages: AgentMessage[];
}

const KIND = "fello session";
/** How often, and how far apart, a held session file is tried again. */
const LOCK_ATTEMPTS = 5;
const LOCK_RETRY_MS = 50;
const VERSION = 1;

/**
 * The saved conversation at `path`, or undefined when there is no file yet.
 * Throws an Error naming the file when it is not one of ours, ending with
 * `hint` (what to do instead).
 */
export async function loadSession(
  path: string,
  hint = "give another --session file",
): Promise<SavedSession | undefined> {
  let text: string;
  try {
    text = await Deno.readTextFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw new Error(`Cannot read the session file "${path}": ${reason(error)}`);
  }
  let saved: Record<string, unknown>;
  try {
    saved = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `Cannot go on with "${path}": it is not JSON (${reason(error)}); ${hint}`,
    );
  }
  if (saved?.kind !== KIND || saved.version !== VERSION) {
    throw new Error(
      `Cannot go on with "${path}": it is not a fello session file (version ${VERSION}); ${hint}`,
    );
  }
  const problem = historyProblem(saved.messages);
  if (problem) {
    throw new Error(
      `Cannot go on with "${path}": its conversation is damaged: ${problem}; ${hint}`,
    );
  }
  return {
    cwd: String(saved.cwd),
    model: String(saved.model),
    messages: saved.messages as AgentMessage[],
  };
}

/** Saves the conversation to `path`: a new file renamed over the old one. */
export async function saveSession(
  path: string,
  session: SavedSession,
): Promise<void> {
  const text = JSON.stringify({
    kind: KIND,
    version: VERSION,
    updated: new Date().toISOString(),
    ...session,
  });
  // Conversations hold file contents and command output: the user's alone.
  await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    await Deno.writeTextFile(temporary, text, { mode: 0o600 });
    await Deno.rename(temporary, path);
  } catch (error) {
    await Deno.remove(temporary).catch(() => {});
    throw error;
  }
}

/**
 * Holds the session file at `path` for this process, so that two runs do not
 * go on with one conversation and lose each other's turns: an OS lock on
 * `path.lock`, released when the returned file is closed or the process ends
 * (a crash leaves nothing stale). Undefined when the lock file cannot be
 * written (saving will say why); throws, ending with `hint`, when another
 * process still holds it after `attempts` tries (200 ms by default).
 */
export async function holdSession(
  path: string,
  {
    hint = "wait for it to end, or give another --session file",
    attempts = LOCK_ATTEMPTS,
  }: {
    /** What to do instead, for the error. */
    hint?: string;
    /** How many times to try, 50 ms apart. */
    attempts?: number;
  } = {},
): Promise<Deno.FsFile | undefined> {
  let lock: Deno.FsFile;
  try {
    await Deno.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    lock = await Deno.open(`${path}.lock`, {
      create: true,
      write: true,
      mode: 0o600,
    });
  } catch {
    return undefined;
  }
  // A holder that is just letting go (a process exiting, a session being
  // closed) gets a moment to do so.
  for (let attempt = 1; attempt <= attempts; attempt++) {
    if (await lock.tryLock(true)) return lock;
    if (attempt === attempts) break;
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
  lock.close();
  throw new Error(
    `Cannot go on with "${path}": another fello process is using it; ${hint}`,
  );
}

/**
 * Removes the oldest session files of `dir` beyond the newest `keep` (by
 * modification time), with their lock files, skipping any a process holds.
 * Resolves to how many were removed; a folder it cannot read removes none.
 */
export async function pruneSessions(
  dir: string,
  keep: number,
): Promise<number> {
  const files: { path: string; mtime: number }[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const path = join(dir, entry.name);
      const info = await Deno.stat(path).catch(() => undefined);
      files.push({ path, mtime: info?.mtime?.getTime() ?? 0 });
    }
  } catch {
    return 0;
  }
  files.sort((a, b) => b.mtime - a.mtime);
  let removed = 0;
  for (const { path } of files.slice(keep)) {
    // Once: one in use is skipped, not waited for.
    const lock = await holdSession(path, { attempts: 1 }).catch(() =>
      undefined
    );
    if (lock === undefined) continue; // in use, or not ours to lock
    try {
      await Deno.remove(path);
      await Deno.remove(`${path}.lock`).catch(() => {});
      removed++;
    } catch {
      // Gone already, or not ours to remove.
    } finally {
      lock.close();
    }
  }
  return removed;
}

/**
 * The session file --continue uses for a workspace: one per folder (its real
 * path, so a symlink to it finds the same), in the state folder's `sessions`.
 */
export async function workspaceSessionPath(cwd: string): Promise<string> {
  const real = await Deno.realPath(cwd).catch(() => cwd);
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(real),
  );
  const name = Array.from(new Uint8Array(digest).slice(0, 8))
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return join(stateFolder(), "sessions", `${name}.json`);
}

/**
 * Where fello keeps its state: `$FELLO_STATE_DIR`, else
 * `$XDG_STATE_HOME/fello`, else `~/.local/state/fello`
 * (`%LOCALAPPDATA%\fello` on Windows). Throws when none can be found.
 */
export function stateFolder(): string {
  const env = (name: string) => Deno.env.get(name) || undefined;
  const folder = env("FELLO_STATE_DIR") ??
    (env("XDG_STATE_HOME") && join(env("XDG_STATE_HOME")!, "fello")) ??
    (env("LOCALAPPDATA") && join(env("LOCALAPPDATA")!, "fello")) ??
    (env("HOME") && join(env("HOME")!, ".local", "state", "fello"));
  if (folder === undefined) {
    throw new Error(
      "Cannot find a folder for saved conversations: set FELLO_STATE_DIR (or HOME)",
    );
  }
  return folder;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
