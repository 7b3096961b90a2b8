// Turns what a terminal in raw mode sends into keys: text, the editing keys
// (their VT100, xterm and rxvt spellings), control keys, Alt combinations,
// and a bracketed paste (ESC [200~ ... ESC [201~) as one piece of text. A
// sequence cut between two reads is held until the rest arrives.

/** A key the line editor acts on. */
export type Key =
  | { type: "text"; text: string }
  | { type: "paste"; text: string }
  | {
    type:
      | "enter"
      | "newline" // Alt-Enter: a line break in the prompt
      | "backspace"
      | "delete"
      | "left"
      | "right"
      | "up"
      | "down"
      | "home"
      | "end"
      | "wordLeft"
      | "wordRight"
      | "killToEnd" // Ctrl-K
      | "killToStart" // Ctrl-U
      | "killWordBack" // Ctrl-W, Alt-Backspace
      | "killWordForward" // Alt-D
      | "interrupt" // Ctrl-C
      | "eof" // Ctrl-D
      | "clear"; // Ctrl-L
  };

const PASTE_START = "\x1b[200~";
// deno-lint-ignore no-control-regex
const CSI = /^\x1b[[O][0-9;?]*[@-~]/;
// deno-lint-ignore no-control-regex
const CSI_START = /^\x1b[[O][0-9;?]*$/;
const PASTE_END = "\x1b[201~";

/** Escape sequences (after ESC) and the keys they are. */
const SEQUENCES: Record<string, Key["type"]> = {
  "[A": "up",
  "[B": "down",
  "[C": "right",
  "[D": "left",
  "OA": "up",
  "OB": "down",
  "OC": "right",
  "OD": "left",
  "[H": "home",
  "[F": "end",
  "OH": "home",
  "OF": "end",
  "[1~": "home",
  "[7~": "home",
  "[4~": "end",
  "[8~": "end",
  "[3~": "delete",
  "[1;5D": "wordLeft",
  "[1;3D": "wordLeft",
  "[1;5C": "wordRight",
  "[1;3C": "wordRight",
  "b": "wordLeft",
  "f": "wordRight",
  "d": "killWordForward",
  "\x7f": "killWordBack",
  "\b": "killWordBack",
  "\r": "newline",
  "\n": "newline",
};

const CONTROLS: Record<string, Key["type"]> = {
  "\x01": "home", // Ctrl-A
  "\x02": "left", // Ctrl-B
  "\x03": "interrupt", // Ctrl-C
  "\x04": "eof", // Ctrl-D
  "\x05": "end", // Ctrl-E
  "\x06": "right", // Ctrl-F
  "\b": "backspace", // Ctrl-H
  "\x0b": "killToEnd", // Ctrl-K
  "\x0c": "clear", // Ctrl-L
  "\x0e": "down", // Ctrl-N
  "\x10": "up", // Ctrl-P
  "\x15": "killToStart", // Ctrl-U
  "\x17": "killWordBack", // Ctrl-W
  "\x7f": "backspace",
};

/** Reads keys from chunks of terminal input. */
export class KeyReader {
  #pending = "";

  /** The keys in `chunk` (with what an earlier chunk left unfinished). */
  feed(chunk: string): Key[] {
    const input = this.#pending + chunk;
    this.#pending = "";
    const keys: Key[] = [];
    let text = "";
    const flush = () => {
      if (text !== "") keys.push({ type: "text", text });
      text = "";
    };
    let i = 0;
    while (i < input.length) {
      const char = input[i];
      if (char === "\x1b") {
        flush();
        const read = this.#escape(input, i, keys);
        if (read === undefined) {
          this.#pending = input.slice(i);
          return keys;
        }
        i += read;
      } else if (char === "\r" || char === "\n") {
        flush();
        keys.push({ type: "enter" });
        // CR LF (a paste without brackets, a pipe) is one line end.
        i += char === "\r" && input[i + 1] === "\n" ? 2 : 1;
      } else if (CONTROLS[char] !== undefined) {
        flush();
        keys.push({ type: CONTROLS[char] } as Key);
        i++;
      } else if (char < " " && char !== "\t") {
        i++; // other control characters do nothing
      } else {
        text += char;
        i++;
      }
    }
    flush();
    return keys;
  }

  /**
   * Whether an unfinished sequence waits; a lone ESC is the Esc key once
   * nothing follows it soon ({@linkcode KeyReader.flush}).
   */
  get waiting(): boolean {
    return this.#pending !== "";
  }

  /** Gives up on an unfinished sequence: a paste ends, an Esc does nothing. */
  flush(): Key[] {
    const pending = this.#pending;
    this.#pending = "";
    if (pending.startsWith(PASTE_START)) {
      return [{ type: "paste", text: pending.slice(PASTE_START.length) }];
    }
    return [];
  }

  // Reads the sequence starting with ESC at `at`; how many characters it
  // took, or undefined when it is not complete yet.
  #escape(input: string, at: number, keys: Key[]): number | undefined {
    const rest = input.slice(at);
    if (rest.startsWith(PASTE_START)) {
      const end = rest.indexOf(PASTE_END);
      if (end === -1) return undefined;
      const text = rest.slice(PASTE_START.length, end)
        .replaceAll("\r\n", "\n").replaceAll("\r", "\n");
      keys.push({ type: "paste", text });
      return end + PASTE_END.length;
    }
    if (rest.length === 1) return undefined;
    if (rest[1] === "[" || rest[1] === "O") {
      // CSI: parameters, then one final byte from @ to ~.
      const match = CSI.exec(rest);
      if (!match) return CSI_START.test(rest) ? undefined : 1;
      const type = SEQUENCES[match[0].slice(1)];
      if (type) keys.push({ type } as Key);
      return match[0].length;
    }
    const type = SEQUENCES[rest[1]];
    if (type) keys.push({ type } as Key);
    return 2; // Alt and a key: known ones act, others do nothing
  }
}
