// A conversation saved to a file, to go on with later: `fello run --session
// FILE` or `--continue` (the workspace's own file in the state folder), and
// ACP sessions an editor loads again. The file holds the agent's history as
// JSON and is replaced atomically after each prompt, so an interrupted save
// leaves the last one.
import { stateFolder } from "../internal/state_folder.ts";
import { dirname, join } from "node:path";
import { exists } from "../internal/exists.ts";
import { readHead } from "../internal/read_head.ts";
import { historyProblem } from "./_history.ts";
import type { AgentMessage } from "./types.ts";
import { isError, runtime } from "../internal/runtime/runtime.ts";
import type { FsFile } from "../internal/runtime/runtime.ts";

/** What a session file holds. */
export interface SavedSession {
  /** The workspace the conversation ran in. */
  cwd: string;
  /** The model that answered last. */
  model: string;
  /** What the conversation is about: its first request, clipped. */
  title?: string;
  /** The agent's history. */
  messages: AgentMessage[];
}

/** A saved conversation as {@linkcode listSessions} finds it. */
export interface SessionListing {
  /** The session file. */
  path: string;
  /** The workspace the conversation ran in. */
  cwd: string;
  /** What the conversation is about, when the file says. */
  title?: string;
  /** When it was last saved (ISO 8601). */
  updated: string;
}

const KIND = "fello session";
/**
 * A listing reads this much of each file: everything before the messages
 * (saved last), unless the workspace path is absurdly long.
 */
const HEADER_BYTES = 16 * 1024;
/** The field that follows the header in a saved file. */
const MESSAGES_KEY = ',"messages":';
/** How every session file this code saves starts. */
const FILE_START = `{"kind":${JSON.stringify(KIND)},`;
/** How often, and how far apart, a held session file is tried again. */
const LOCK_ATTEMPTS = 5;
const LOCK_RETRY_MS = 50;
const VERSION = 1;
/** A save's temporary file: `<session>.json.<random>.tmp`. */
const TEMP_FILE = /\.json\.[0-9a-f]{8}\.tmp$/;
/** How old a temporary file must be to be taken for a crashed save's. */
const STALE_TEMP_MS = 10 * 60_000;

/**
 * The saved conversation at `path`, or undefined when there is no file yet.
 * Throws an Error naming the file when it is not one of ours, ending with
 * `hint` (what to do instead).
 */
export async function loadSession(
  path: string,
  hint = "give another --session file",
): Promise<SavedSession | undefined> {
  // A mistyped --session (a log, a dump) is refused from its first bytes:
  // reading it whole cost twice its size, and failed past V8's longest string.
  let head: Uint8Array;
  try {
    head = await readHead(path, HEADER_BYTES);
  } catch (error) {
    if (isError(error, "notFound")) return undefined;
    throw readFailure(path, error);
  }
  let text = new TextDecoder().decode(head);
  if (head.length === HEADER_BYTES) {
    if (!mayBeSession(text)) {
      throw new Error(
        `Cannot go on with "${path}": it is not a fello session file (version ${VERSION}); ${hint}`,
      );
    }
    try {
      text = await runtime.readTextFile(path);
    } catch (error) {
      throw readFailure(path, error);
    }
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
    ...(typeof saved.title === "string" ? { title: saved.title } : {}),
    messages: saved.messages as AgentMessage[],
  };
}

// A session file that cannot be read. Deno checks the path as written: a
// grant on a state folder's real path does not cover a symlink to it (nor
// the reverse), so a denial names the flag for the path as given.
function readFailure(path: string, error: unknown): Error {
  const why = isError(error, "notCapable")
    ? `Deno denies reading it; ${grantAdvice(dirname(path), "read")}`
    : reason(error);
  return new Error(`Cannot read the session file "${path}": ${why}`);
}

// Deno's own denial names one file (for a save, the temporary one) and only
// the bare flag: the advice names the folder to grant.
function grantAdvice(dir: string, access: "read" | "write"): string {
  return `run deno again with --allow-${access}=${dir} (Deno checks the path as written, not where a symlink in it leads)`;
}

// A denied save or listing, as the folder and the grant it needs.
function denial(dir: string, error: unknown): unknown {
  if (!isError(error, "notCapable")) return error;
  const access = /requires write access/i.test((error as Error).message)
    ? "write"
    : "read";
  return new Error(
    `Deno denies ${access} access to "${dir}"; ${grantAdvice(dir, access)}`,
    { cause: error },
  );
}

// Whether a file's start may be a saved session: one as saved, or its JSON
// reformatted by hand (an object naming the kind early on).
function mayBeSession(head: string): boolean {
  return head.startsWith(FILE_START) ||
    (/^\s*\{/.test(head) && head.includes(JSON.stringify(KIND)));
}

/** Saves the conversation to `path`: a new file renamed over the old one. */
export async function saveSession(
  path: string,
  session: SavedSession,
): Promise<void> {
  // The messages go last: a listing reads only what comes before them.
  const { messages, ...header } = session;
  const text = JSON.stringify({
    kind: KIND,
    version: VERSION,
    updated: new Date().toISOString(),
    ...header,
    messages,
  });
  const temporary = `${path}.${crypto.randomUUID().slice(0, 8)}.tmp`;
  try {
    // Conversations hold file contents and command output: the user's alone.
    await runtime.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const file = await runtime.open(temporary, {
      write: true,
      createNew: true,
      mode: 0o600,
    });
    try {
      const data = new TextEncoder().encode(text);
      for (let at = 0; at < data.length;) {
        at += await file.write(data.subarray(at));
      }
      // On disk before the rename, so a crash leaves the last save whole.
      await file.syncData();
    } finally {
      file.close();
    }
    await runtime.rename(temporary, path);
  } catch (error) {
    await runtime.remove(temporary).catch(() => {});
    throw denial(dirname(path), error);
  }
}

/**
 * Holds the session file at `path` for this process, so that two runs do not
 * go on with one conversation and lose each other's turns: an OS lock on
 * `path.lock`, released when the returned file is closed or the process ends
 * (a crash leaves nothing stale). Undefined when the lock file cannot be
 * written (saving will say why); throws, ending with `hint`, when another
 * process still holds it after `attempts` tries (200 ms by default), or
 * when Deno denies reading the lock file (naming the --allow-read to add).
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
): Promise<FsFile | undefined> {
  const open = () =>
    runtime.open(`${path}.lock`, { create: true, write: true, mode: 0o600 });
  let lock: FsFile;
  try {
    await runtime.mkdir(dirname(path), { recursive: true, mode: 0o700 });
    lock = await open();
  } catch {
    return undefined;
  }
  const busy = () =>
    new Error(
      `Cannot go on with "${path}": another fello agent is using it; ${hint}`,
    );
  // A holder that is just letting go (a process exiting, a session being
  // closed) gets a moment to do so.
  for (let attempt = 1, reopened = 0; attempt <= attempts;) {
    if (await lock.tryLock(true)) {
      let here: boolean;
      try {
        here = await isAtPath(lock, `${path}.lock`);
      } catch (error) {
        // Held by nobody once the error is out: let go of it.
        lock.close();
        throw error;
      }
      if (here) return lock;
      // The holder removed the lock file (with its session) while this one
      // waited on it: lock the file at the path now (not an attempt used).
      lock.close();
      if (++reopened > LOCK_ATTEMPTS) throw busy();
      try {
        lock = await open();
      } catch {
        return undefined;
      }
      continue;
    }
    if (attempt++ === attempts) break;
    await new Promise((resolve) => setTimeout(resolve, LOCK_RETRY_MS));
  }
  lock.close();
  throw busy();
}

// Whether an open file is still the one at `path` (not removed or replaced).
// Windows reports no inode numbers, so there it always is; Windows does not
// remove a file another process has open anyway.
async function isAtPath(file: FsFile, path: string): Promise<boolean> {
  const [open, named] = await Promise.all([
    file.stat().catch((error) => {
      if (isError(error, "notCapable")) return undefined;
      throw error;
    }),
    runtime.stat(path).catch((error) => {
      if (isError(error, "notCapable")) throw lockDenied(path);
      return undefined;
    }),
  ]);
  if (open === undefined) return await holdsToken(file, path);
  return named !== undefined && open.ino === named.ino &&
    open.dev === named.dev;
}

// Deno checks an open file's stat against the path it really leads to, not
// the one it was opened by: under a grant on a symlinked state folder (the
// link granted, or macOS's /tmp) the open succeeds and the stat is denied.
// The held lock file then tells itself apart by its content: its holder
// writes a random token into it through the open file (a lock file is
// written by its holder alone) and reads the file at `path` back.
async function holdsToken(file: FsFile, path: string): Promise<boolean> {
  const token = new TextEncoder().encode(crypto.randomUUID());
  await file.truncate(0);
  await file.seek(0, runtime.SeekMode.Start);
  for (let at = 0; at < token.length;) {
    at += await file.write(token.subarray(at));
  }
  let found: Uint8Array;
  try {
    found = await readHead(path, token.length + 1);
  } catch (error) {
    if (isError(error, "notFound")) return false;
    if (!isError(error, "notCapable")) throw error;
    throw lockDenied(path);
  }
  return found.length === token.length &&
    found.every((byte, index) => byte === token[index]);
}

// Without a read grant on the lock file, whether this process holds the
// session cannot be told: say which flag to add, rather than that another
// process holds it.
function lockDenied(path: string): Error {
  return new Error(
    `Deno denies reading the session lock file "${path}": run deno again with --allow-read=${
      dirname(path)
    } (or a parent folder)`,
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
  const locks: string[] = [];
  const temps: string[] = [];
  try {
    for await (const entry of runtime.readDir(dir)) {
      if (entry.isFile && entry.name.endsWith(".json.lock")) {
        locks.push(join(dir, entry.name.slice(0, -".lock".length)));
      }
      if (entry.isFile && TEMP_FILE.test(entry.name)) {
        temps.push(join(dir, entry.name));
      }
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const path = join(dir, entry.name);
      const info = await runtime.stat(path).catch(() => undefined);
      files.push({ path, mtime: info?.mtime?.getTime() ?? 0 });
    }
  } catch {
    return 0;
  }
  files.sort((a, b) => b.mtime - a.mtime);
  let removed = 0;
  for (const { path } of files.slice(keep)) {
    // Once: one in use is skipped, not waited for.
    if (await removeSession(path, { attempts: 1 }).catch(() => false)) {
      removed++;
    }
  }
  // The lock files of sessions that were never saved, left by a crash.
  for (const path of locks) {
    if (!await exists(path)) {
      await removeSession(path, { attempts: 1 }).catch(() => false);
    }
  }
  // Temporary files of saves a crash interrupted (a save takes milliseconds).
  for (const path of temps) {
    const info = await runtime.stat(path).catch(() => undefined);
    const age = Date.now() - (info?.mtime?.getTime() ?? Date.now());
    if (age > STALE_TEMP_MS) await runtime.remove(path).catch(() => {});
  }
  return removed;
}

/**
 * Removes the session file at `path` and its lock file, once no other
 * process holds it. Resolves to false when there was no such file; throws,
 * ending with `hint`, when another process still holds it after `attempts`
 * tries, or when the file cannot be removed.
 */
export async function removeSession(
  path: string,
  { hint, attempts }: { hint?: string; attempts?: number } = {},
): Promise<boolean> {
  if (!await exists(path) && !await exists(`${path}.lock`)) return false;
  const lock = await holdSession(path, { hint, attempts });
  if (lock === undefined) {
    throw new Error(`Cannot remove "${path}": its folder cannot be written`);
  }
  try {
    // The session first: from then on whoever locks the path finds none.
    // Held, the lock file is ours to remove: a waiter on it tries again on
    // the path (see holdSession), so no two processes ever both hold one.
    const removed = await runtime.remove(path).then(() => true, (error) => {
      // Removed by another holder meanwhile, or never saved.
      if (isError(error, "notFound")) return false;
      throw new Error(`Cannot remove "${path}": ${reason(error)}`);
    });
    await runtime.remove(`${path}.lock`).catch(() => {});
    return removed;
  } finally {
    lock.close();
  }
}

/**
 * Removes the lock file of a session file that was never saved, while
 * `lock` (from {@linkcode holdSession}) holds it, then lets go of it.
 */
export async function releaseSession(
  path: string,
  lock: FsFile,
): Promise<void> {
  try {
    if (!await exists(path)) {
      await runtime.remove(`${path}.lock`).catch(() => {});
    }
  } finally {
    lock.close();
  }
}

/**
 * The conversations saved in `dir`, newest first, read from the start of
 * each file only. Files that are not fello sessions are left out; a folder
 * that does not exist lists none.
 */
export async function listSessions(dir: string): Promise<SessionListing[]> {
  const listings: SessionListing[] = [];
  try {
    for await (const entry of runtime.readDir(dir)) {
      if (!entry.isFile || !entry.name.endsWith(".json")) continue;
      const path = join(dir, entry.name);
      const header = await readHeader(path).catch(() => undefined);
      if (
        header?.kind !== KIND || header.version !== VERSION ||
        typeof header.cwd !== "string"
      ) {
        continue;
      }
      listings.push({
        path,
        cwd: header.cwd,
        ...(typeof header.title === "string" ? { title: header.title } : {}),
        updated: typeof header.updated === "string" ? header.updated : "",
      });
    }
  } catch (error) {
    if (isError(error, "notFound")) return [];
    const why = denial(dir, error);
    if (why === error) throw error;
    throw new Error(
      `Cannot list the saved sessions: ${(why as Error).message}`,
      { cause: error },
    );
  }
  return listings.sort((a, b) => b.updated.localeCompare(a.updated));
}

// The fields of a session file before its messages. A `,"messages":` cannot
// occur inside a JSON string (its quote would be escaped), so the first one
// ends the header. Only files that start as ours are read further, and
// parsed whole when the header is longer than the bytes read.
async function readHeader(
  path: string,
): Promise<Record<string, unknown> | undefined> {
  const head = await readHead(path, HEADER_BYTES);
  const whole = head.length < HEADER_BYTES;
  const text = new TextDecoder().decode(head);
  if (!text.startsWith(FILE_START)) return undefined;
  const end = text.indexOf(MESSAGES_KEY);
  if (end !== -1) return JSON.parse(`${text.slice(0, end)}}`);
  return JSON.parse(whole ? text : await runtime.readTextFile(path));
}

/**
 * The session file --continue uses for a workspace: one per folder (its real
 * path, so a symlink to it finds the same), in the state folder's `sessions`.
 */
export async function workspaceSessionPath(cwd: string): Promise<string> {
  const real = await runtime.realPath(cwd).catch(() => cwd);
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(real),
  );
  const name = Array.from(new Uint8Array(digest).slice(0, 8))
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return join(stateFolder(), "sessions", `${name}.json`);
}

export { stateFolder };

/** How long a session's title is at most. */
const TITLE_LENGTH = 80;

/**
 * A conversation's title from its first request: the first line that says
 * something, spaces collapsed, cut to 80 characters. Undefined for a blank
 * request.
 */
export function sessionTitle(request: string): string | undefined {
  const line = request.split("\n").map((l) => l.replace(/\s+/g, " ").trim())
    .find((l) => l !== "");
  if (line === undefined) return undefined;
  if (line.length <= TITLE_LENGTH) return line;
  // Never between the halves of an emoji: a lone one is not a character,
  // and strict JSON readers refuse it.
  let end = TITLE_LENGTH - 1;
  const last = line.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return `${line.slice(0, end)}…`;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
