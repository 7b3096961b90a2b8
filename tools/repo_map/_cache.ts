// Per-file results of the repo map, keyed by path, size and modification
// time: in memory for the process, and on disk in fello's state folder so
// that another process maps an unchanged tree without reading a file.
import { runtime } from "../../internal/runtime/runtime.ts";
import { join } from "node:path";
import { stateFolder } from "../../internal/state_folder.ts";
import type { FileFacts } from "./_facts.ts";

/** Bumped whenever FileFacts or the outline behind it changes shape. */
const FORMAT = 2;

const memory = new Map<string, Map<string, FileFacts>>();

/** Forgets what this process knows, as a fresh process would (for benches). */
export function clearRepoMapCache(): void {
  memory.clear();
}

/** The cache of one repository root. */
export class RepoMapCache {
  #entries: Map<string, FileFacts>;
  #file: string | undefined;
  #changed = false;

  constructor(entries: Map<string, FileFacts>, file?: string) {
    this.#entries = entries;
    this.#file = file;
  }

  /** The cache of `root`, loaded from `dir` (the state folder's by default). */
  static async open(
    root: string,
    dir: string | false | undefined,
  ): Promise<RepoMapCache> {
    const file = dir === false ? undefined : await cacheFile(root, dir);
    let entries = memory.get(root);
    if (entries === undefined) {
      entries = file === undefined ? new Map() : await load(file);
      memory.set(root, entries);
    }
    return new RepoMapCache(entries, file);
  }

  /** The facts of `path` if it still has this size and modification time. */
  get(path: string, size: number, mtimeMs: number): FileFacts | undefined {
    const entry = this.#entries.get(path);
    return entry && entry.size === size && entry.mtimeMs === mtimeMs
      ? entry
      : undefined;
  }

  set(path: string, facts: FileFacts): void {
    this.#entries.set(path, facts);
    this.#changed = true;
  }

  /** Keeps `current` (the files that exist now) and writes them to disk. */
  async save(current: Map<string, FileFacts>): Promise<void> {
    for (const path of this.#entries.keys()) {
      if (!current.has(path)) {
        this.#entries.delete(path);
        this.#changed = true;
      }
    }
    if (!this.#changed || this.#file === undefined) return;
    const text = JSON.stringify({
      format: FORMAT,
      files: Object.fromEntries(this.#entries),
    });
    const temporary = `${this.#file}.${crypto.randomUUID()}.tmp`;
    try {
      await runtime.mkdir(join(this.#file, ".."), { recursive: true });
      await runtime.writeTextFile(temporary, text);
      await runtime.rename(temporary, this.#file);
      this.#changed = false;
    } catch {
      // A cache that cannot be written only costs the next process a read.
      await runtime.remove(temporary).catch(() => {});
    }
  }
}

async function cacheFile(
  root: string,
  dir?: string,
): Promise<string | undefined> {
  let folder = dir;
  if (folder === undefined) {
    try {
      folder = join(stateFolder("the repo map's cache"), "repo-map");
    } catch {
      return undefined;
    }
  }
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(root),
  );
  const name = Array.from(new Uint8Array(digest).slice(0, 8))
    .map((byte) => byte.toString(16).padStart(2, "0")).join("");
  return join(folder, `${name}.json`);
}

async function load(file: string): Promise<Map<string, FileFacts>> {
  try {
    const data = JSON.parse(await runtime.readTextFile(file));
    if (data?.format === FORMAT && typeof data.files === "object") {
      return new Map(Object.entries(data.files as Record<string, FileFacts>));
    }
  } catch {
    // No cache yet, or one from another version: start empty.
  }
  return new Map();
}
