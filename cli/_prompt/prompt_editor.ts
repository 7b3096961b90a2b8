// The interactive prompt: reads one prompt from a terminal in raw mode with
// line editing (arrows, Home/End, word moves, Ctrl-A/E/K/U/W), history
// (Up/Down), bracketed paste and Alt-Enter or a final `\` for a line break,
// so a prompt of several lines is sent once. Ctrl-C clears the line and says
// how to quit; a second one within 2 s quits, as Ctrl-D on an empty line does.
//
// Written here rather than taken from npm: node:readline (through Deno's
// Node layer) and the prompt packages (@inquirer/input, enquirer) have no
// bracketed paste, so a pasted block becomes one prompt per line, and they
// read stdin themselves, while the permission questions of a run must read
// the same stdin through one reader (_stdin_lines.ts).
import { displayWidth } from "../_display_width.ts";
import { type Key, KeyReader } from "./keys.ts";
import { LineBuffer } from "./line_buffer.ts";
import type { PromptHistory } from "./history.ts";

/** A second Ctrl-C within this time quits. */
export const QUIT_WINDOW_MS = 2_000;

/** What reading a prompt ended with. */
export type PromptOutcome =
  | { type: "prompt"; text: string }
  /** Ctrl-D on an empty line, or the end of input. */
  | { type: "eof" }
  /** Ctrl-C twice within {@linkcode QUIT_WINDOW_MS}. */
  | { type: "quit" };

/** The terminal the editor works on. */
export interface PromptTerminal {
  /** The next text typed (null at the end of input). */
  read(): Promise<string | null>;
  /** Gives back what was typed after the prompt's Enter, for the next reader. */
  unread(text: string): void;
  /** Writes to the terminal. */
  write(text: string): void;
  /** Raw mode on or off. */
  setRaw(mode: boolean): void;
  /** The terminal's width, undefined when unknown. */
  columns(): number | undefined;
  /** Milliseconds now (for the Ctrl-C window). */
  now?(): number;
}

const PROMPT = "› ";
/** What starts each line of a prompt after its first. */
const CONTINUATION = "  ";
const QUIT_HINT = "(Ctrl-C again or Ctrl-D to quit; /help lists commands)";
const BRACKETED_PASTE_ON = "\x1b[?2004h";
const BRACKETED_PASTE_OFF = "\x1b[?2004l";

/** Reads prompts on a terminal, keeping the history. */
export class PromptEditor {
  #terminal: PromptTerminal;
  #history: PromptHistory;
  #lastInterrupt = -Infinity;

  constructor(terminal: PromptTerminal, history: PromptHistory) {
    this.#terminal = terminal;
    this.#history = history;
  }

  /**
   * Shows the prompt and reads what is typed at it, up to Enter;
   * `leading` is written just before the prompt (a blank line).
   */
  async read(options: { leading?: string } = {}): Promise<PromptOutcome> {
    const terminal = this.#terminal;
    const view = new PromptView(terminal);
    const keys = new KeyReader();
    const buffer = new LineBuffer();
    terminal.setRaw(true);
    // In raw mode a newline does not return the carriage by itself.
    const leading = (options.leading ?? "").replaceAll("\n", "\r\n");
    terminal.write(`${BRACKETED_PASTE_ON}${leading}${PROMPT}`);
    try {
      while (true) {
        const chunk = await terminal.read();
        if (chunk === null) {
          for (const key of keys.flush()) this.#apply(key, buffer, view);
          view.finish(buffer);
          return buffer.text === ""
            ? { type: "eof" }
            : { type: "prompt", text: buffer.text };
        }
        const typed = keys.feed(chunk);
        for (let i = 0; i < typed.length; i++) {
          const outcome = this.#apply(typed[i], buffer, view);
          if (outcome === undefined) continue;
          view.finish(buffer);
          if (outcome.type === "prompt") {
            terminal.unread(rest(typed.slice(i + 1)));
            await this.#history.add(outcome.text);
          }
          return outcome;
        }
      }
    } finally {
      terminal.write(BRACKETED_PASTE_OFF);
      terminal.setRaw(false);
    }
  }

  /** Acts on one key; the outcome when it ends the prompt. */
  #apply(
    key: Key,
    buffer: LineBuffer,
    view: PromptView,
  ): PromptOutcome | undefined {
    switch (key.type) {
      case "text":
        return view.type(buffer, key.text);
      case "paste":
        buffer.insert(clean(key.text));
        break;
      case "newline":
        buffer.insert("\n");
        break;
      case "enter":
        // A final backslash continues the prompt on the next line.
        if (
          buffer.cursor === buffer.text.length && buffer.text.endsWith("\\")
        ) {
          buffer.backspace();
          buffer.insert("\n");
          break;
        }
        if (buffer.text.trim() === "") {
          buffer.set("");
          view.finish(buffer);
          view.restart();
          return undefined;
        }
        return { type: "prompt", text: buffer.text };
      case "eof":
        if (buffer.text === "") return { type: "eof" };
        buffer.delete();
        break;
      case "interrupt": {
        const now = this.#terminal.now?.() ?? Date.now();
        if (now - this.#lastInterrupt <= QUIT_WINDOW_MS) {
          return { type: "quit" };
        }
        this.#lastInterrupt = now;
        if (buffer.cursor !== buffer.text.length) {
          buffer.cursor = buffer.text.length;
          view.draw(buffer);
        }
        view.finish(buffer);
        this.#terminal.write(`${QUIT_HINT}\r\n`);
        buffer.set("");
        view.restart();
        return undefined;
      }
      case "up":
      case "down":
        this.#walk(key.type === "up", buffer);
        break;
      case "clear":
        this.#terminal.write("\x1b[H\x1b[2J");
        view.restart();
        break;
      case "backspace":
      case "delete":
      case "left":
      case "right":
      case "home":
      case "end":
      case "wordLeft":
      case "wordRight":
      case "killToEnd":
      case "killToStart":
      case "killWordBack":
      case "killWordForward":
        buffer[key.type]();
        break;
    }
    view.draw(buffer);
    return undefined;
  }

  // Up and Down move between the lines of a prompt, and past its first or
  // last line through the history.
  #walk(up: boolean, buffer: LineBuffer): void {
    if (up ? !buffer.onFirstLine : !buffer.onLastLine) {
      buffer.verticalMove(up);
      return;
    }
    const entry = up
      ? this.#history.previous(buffer.text)
      : this.#history.next();
    if (entry !== undefined) buffer.set(entry);
  }
}

/**
 * Where the prompt is on the screen, and how to draw it again: rows are
 * counted from the prompt's first row, at the terminal's width.
 */
class PromptView {
  #terminal: PromptTerminal;
  /** The cursor's row, counted from the prompt's first. */
  #row = 0;

  constructor(terminal: PromptTerminal) {
    this.#terminal = terminal;
  }

  /** Text typed: echoed as is when it goes at the end of a one-line prompt. */
  type(buffer: LineBuffer, text: string): undefined {
    const atEnd = buffer.cursor === buffer.text.length;
    buffer.insert(text);
    const columns = this.#terminal.columns();
    const width = PROMPT.length + displayWidth(shown(buffer.text));
    if (
      atEnd && !buffer.text.includes("\n") &&
      (columns === undefined || width < columns)
    ) {
      this.#terminal.write(shown(text));
    } else {
      this.draw(buffer);
    }
    return undefined;
  }

  /** Draws the whole prompt again and puts the cursor where it stands. */
  draw(buffer: LineBuffer): void {
    const columns = this.#terminal.columns() ?? Infinity;
    const lines = buffer.text.split("\n");
    const end = locate(lines, buffer.text.length, columns);
    const cursor = locate(lines, buffer.cursor, columns);
    let out = this.#toStart() + "\r\x1b[J" +
      lines.map((line, i) => (i === 0 ? PROMPT : CONTINUATION) + shown(line))
        .join("\r\n");
    // At the very end of a row the terminal waits to wrap: go to the next.
    if (end.column === 0 && end.row > 0 && lines.at(-1) !== "") out += "\r\n";
    if (end.row !== cursor.row || end.column !== cursor.column) {
      if (end.row > cursor.row) out += `\x1b[${end.row - cursor.row}A`;
      out += "\r";
      if (cursor.column > 0) out += `\x1b[${cursor.column}C`;
    }
    this.#row = cursor.row;
    this.#terminal.write(out);
  }

  /** Leaves the prompt: the cursor below its last row. */
  finish(buffer: LineBuffer): void {
    const columns = this.#terminal.columns() ?? Infinity;
    const lines = buffer.text.split("\n");
    const end = locate(lines, buffer.text.length, columns);
    const down = end.row - this.#row;
    this.#terminal.write(`${down > 0 ? `\x1b[${down}B` : ""}\r\n`);
    this.#row = 0;
  }

  /** A new prompt on the current row. */
  restart(): void {
    this.#row = 0;
    this.#terminal.write(PROMPT);
  }

  #toStart(): string {
    return this.#row > 0 ? `\x1b[${this.#row}A` : "";
  }
}

/**
 * The row (from the prompt's first) and column of `index` in the text of
 * `lines`, each line after the prompt or the continuation mark.
 */
function locate(
  lines: string[],
  index: number,
  columns: number,
): { row: number; column: number } {
  let row = 0;
  let start = 0;
  for (const [i, line] of lines.entries()) {
    const prefix = i === 0 ? PROMPT.length : CONTINUATION.length;
    if (index <= start + line.length) {
      const width = prefix + displayWidth(shown(line.slice(0, index - start)));
      return {
        row: row + Math.floor(width / columns),
        column: width % columns,
      };
    }
    const width = prefix + displayWidth(shown(line));
    row += Math.max(1, Math.ceil(width / columns));
    start += line.length + 1;
  }
  return { row, column: 0 };
}

// Text as drawn: a tab as spaces (a tab's width depends on where it falls).
function shown(text: string): string {
  return text.replaceAll("\t", "    ");
}

// A pasted text without the control characters a terminal would act on.
function clean(text: string): string {
  // deno-lint-ignore no-control-regex
  return text.replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, "");
}

// The keys typed after Enter, as text again (a paste or a second line typed
// ahead), for the next reader.
function rest(keys: Key[]): string {
  return keys.map((key) =>
    key.type === "text"
      ? key.text
      : key.type === "paste"
      ? `\x1b[200~${key.text}\x1b[201~`
      : key.type === "enter"
      ? "\n"
      : ""
  ).join("");
}
