// The prompt of `fello run`'s interactive session on the real terminal: the
// line editor on stdin in raw mode, its history in the state folder
// (prompt_history.jsonl). Where raw mode cannot be had, a plain line is read.
import { join } from "node:path";
import { stateFolder } from "../../agent/session_file.ts";
import { runtime } from "../../internal/runtime/runtime.ts";
import { writeAll } from "../_render.ts";
import { readLine, readText, unread } from "../_stdin_lines.ts";
import { PromptHistory } from "./history.ts";
import { PromptEditor, type PromptOutcome } from "./prompt_editor.ts";

/** The file of the state folder that keeps the prompts typed. */
export const HISTORY_FILE = "prompt_history.jsonl";

/** Reads the prompts of an interactive session. */
export interface InteractivePrompt {
  /** Reads a prompt, writing `leading` (a blank line) before it. */
  read(options?: { leading?: string }): Promise<PromptOutcome>;
}

/** The prompt for a session on this process's terminal. */
export async function interactivePrompt(): Promise<InteractivePrompt> {
  let path: string | undefined;
  try {
    path = join(stateFolder(), HISTORY_FILE);
  } catch {
    path = undefined; // no state folder: a history for this run only
  }
  const editor = new PromptEditor({
    read: readText,
    unread,
    write: (text) => writeAll(runtime.stdout, text),
    setRaw: (mode) => runtime.stdin.setRaw(mode),
    columns,
  }, await PromptHistory.load(path));
  const raw = canSetRaw();
  return {
    async read(options = {}) {
      if (raw) return await editor.read(options);
      writeAll(runtime.stdout, `${options.leading ?? ""}› `);
      const line = await readLine();
      return line === null ? { type: "eof" } : { type: "prompt", text: line };
    },
  };
}

function canSetRaw(): boolean {
  try {
    runtime.stdin.setRaw(true);
    runtime.stdin.setRaw(false);
    return true;
  } catch {
    return false;
  }
}

function columns(): number | undefined {
  try {
    const { columns } = runtime.consoleSize();
    return columns > 0 ? columns : undefined;
  } catch {
    return undefined;
  }
}
