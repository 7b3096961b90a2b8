// The prompts typed before, across runs: one JSON string per line in a file
// of the state folder (so a multi-line prompt stays one entry), the newest
// last. Up and Down walk it; what was being typed comes back past the newest.
import { dirname } from "node:path";
import { isError, runtime } from "../../internal/runtime/runtime.ts";

/** Entries kept; an older one is dropped when the file is next rewritten. */
export const MAX_HISTORY_ENTRIES = 1000;
/** Entries longer than this (a huge paste) are not kept. */
const MAX_ENTRY_CHARS = 100_000;

/** The prompts typed before, and a walk through them. */
export class PromptHistory {
  #path: string | undefined;
  #entries: string[];
  /** The entry shown (an index into #entries), or #entries.length: the draft. */
  #at: number;
  #draft = "";

  constructor(path: string | undefined, entries: string[]) {
    this.#path = path;
    this.#entries = entries;
    this.#at = entries.length;
  }

  /**
   * The history kept in `path` (none is kept without one); a file that
   * cannot be read starts an empty one.
   */
  static async load(path: string | undefined): Promise<PromptHistory> {
    if (path === undefined) return new PromptHistory(undefined, []);
    let text = "";
    try {
      text = await runtime.readTextFile(path);
    } catch (error) {
      if (!isError(error, "notFound")) {
        return new PromptHistory(undefined, []); // unreadable: not written either
      }
    }
    const entries: string[] = [];
    for (const line of text.split("\n")) {
      if (line === "") continue;
      try {
        const entry = JSON.parse(line);
        if (typeof entry === "string") entries.push(entry);
      } catch {
        // A line cut by a crash: skipped.
      }
    }
    const history = new PromptHistory(
      path,
      entries.slice(-MAX_HISTORY_ENTRIES),
    );
    if (entries.length > 2 * MAX_HISTORY_ENTRIES) await history.#rewrite();
    return history;
  }

  /** The entries, oldest first. */
  get entries(): readonly string[] {
    return this.#entries;
  }

  /**
   * Adds a prompt (unless it repeats the newest) and saves it; the walk
   * starts again from the newest. A failed save is left unsaid: the prompt
   * itself matters more than its place in the history.
   */
  async add(entry: string): Promise<void> {
    this.#at = this.#entries.length;
    this.#draft = "";
    if (entry.trim() === "" || entry.length > MAX_ENTRY_CHARS) return;
    if (this.#entries.at(-1) === entry) return;
    this.#entries.push(entry);
    this.#at = this.#entries.length;
    if (this.#path === undefined) return;
    try {
      await runtime.mkdir(dirname(this.#path), { recursive: true });
      const file = await runtime.open(this.#path, {
        append: true,
        create: true,
        mode: 0o600,
      });
      try {
        await file.write(
          new TextEncoder().encode(`${JSON.stringify(entry)}\n`),
        );
      } finally {
        file.close();
      }
    } catch {
      // Not saved; kept for this run.
    }
  }

  /**
   * The entry before the one shown (Up), `current` kept as the draft when
   * the walk starts; undefined at the oldest.
   */
  previous(current: string): string | undefined {
    if (this.#at === 0) return undefined;
    if (this.#at === this.#entries.length) this.#draft = current;
    return this.#entries[--this.#at];
  }

  /** The entry after the one shown (Down), then the draft; undefined past it. */
  next(): string | undefined {
    if (this.#at >= this.#entries.length) return undefined;
    this.#at++;
    return this.#at === this.#entries.length
      ? this.#draft
      : this.#entries[this.#at];
  }

  async #rewrite(): Promise<void> {
    const path = this.#path!;
    const temporary = `${path}.${runtime.pid}.tmp`;
    try {
      await runtime.writeTextFile(
        temporary,
        this.#entries.map((entry) => `${JSON.stringify(entry)}\n`).join(""),
      );
      await runtime.rename(temporary, path);
    } catch {
      await runtime.remove(temporary).catch(() => {});
    }
  }
}
