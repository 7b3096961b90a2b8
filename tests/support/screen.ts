// What a terminal would show for the bytes a program wrote to it: a small
// interpreter of the few control sequences CLIs use (carriage return, newline,
// backspace, cursor moves, erase), with automatic wrap at the last column as
// VT100 and xterm do it. Colors and other sequences are skipped.
import { displayWidth } from "../../cli/_display_width.ts";

/** The rows a terminal `columns` wide shows for `output`, down to the cursor's. */
export interface Shown {
  /** Each row's text, trailing spaces trimmed, from the top to the last written row. */
  rows: string[];
  /** The row and column of the cursor (0-based). */
  cursor: { row: number; column: number };
}

/** Replays `output` on an endless terminal `columns` wide. */
export function showOnTerminal(output: string, columns: number): Shown {
  const grid: string[][] = [[]];
  let row = 0;
  let column = 0; // `columns` means "at the end, wrapping at the next character"
  const line = () => (grid[row] ??= []);
  const put = (char: string, width: number) => {
    if (width === 0) { // a combining mark joins the character before it
      if (column > 0) line()[column - 1] = (line()[column - 1] ?? "") + char;
      return;
    }
    if (column + width > columns) [row, column] = [row + 1, 0];
    line()[column] = char;
    for (let i = 1; i < width; i++) line()[column + i] = "";
    column += width;
  };
  const sequence =
    // deno-lint-ignore no-control-regex
    /\x1b\[([0-9;?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b.|[^]/gu;
  for (const [token, params, command] of output.matchAll(sequence)) {
    const n = Math.max(1, Number(params?.split(";")[0] || 1));
    if (command !== undefined) {
      switch (command) {
        case "A":
          [row, column] = [Math.max(0, row - n), Math.min(column, columns - 1)];
          break;
        case "B":
          row += n;
          break;
        case "C":
          column = Math.min(columns - 1, column + n);
          break;
        case "D":
          column = Math.max(0, Math.min(column, columns - 1) - n);
          break;
        case "G":
          column = Math.min(columns - 1, n - 1);
          break;
        case "J": // 0 (below the cursor) only: what CLIs use
          grid.length = row + 1;
          line().length = Math.min(line().length, column);
          break;
        case "K":
          if (params === "2") grid[row] = [];
          else line().length = Math.min(line().length, column);
          break;
      }
    } else if (token === "\r") column = 0;
    else if (token === "\n") [row, column] = [row + 1, 0]; // as a tty (onlcr)
    else if (token === "\b") {
      column = Math.max(0, Math.min(column, columns) - 1);
    } else if (token === "\t") {
      column = Math.min(columns - 1, (column + 8) & ~7);
    } else if (token.startsWith("\x1b") || token < " ") continue;
    else put(token, displayWidth(token));
  }
  const rows = Array.from(
    { length: Math.max(grid.length, row + 1) },
    (_, i) => Array.from(grid[i] ?? [], (c) => c ?? " ").join("").trimEnd(),
  );
  return { rows, cursor: { row, column: Math.min(column, columns) } };
}
