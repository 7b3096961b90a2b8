// While a question waits for its answer on the terminal, it must stay the last
// thing on screen. The approvals of a step run ahead of the transcript: once
// the first question is answered the next is asked at once, and the first
// call's result line is printed only later, after the new prompt, which then
// scrolls away while the cursor waits under a result. So the question is
// erased, the output written in its place, and the question shown again below.
import { rowsFilled } from "./_display_width.ts";
import { runtime } from "../internal/runtime/runtime.ts";

/** How wide the terminal is. */
export interface QuestionLineOptions {
  /**
   * The terminal's width in columns, or undefined when unknown; asked at each
   * erase, so a resized terminal is measured anew. By default the console's.
   */
  columns?: () => number | undefined;
}

/** Keeps a waiting question the last line on the terminal. */
export class QuestionLine {
  #writeQuestion: (text: string) => void;
  #columns: () => number | undefined;
  #question: string | undefined;
  // Output has been written after the question, so it is no longer last.
  #covered = false;

  /** `writeQuestion` writes where the questions go (stderr). */
  constructor(
    writeQuestion: (text: string) => void,
    options: QuestionLineOptions = {},
  ) {
    this.#writeQuestion = writeQuestion;
    this.#columns = options.columns ?? consoleColumns;
  }

  /**
   * Marks `question` (as written, ending at the cursor) as waiting for its
   * answer; undefined once it is answered.
   */
  waiting(question: string | undefined): void {
    this.#question = question;
    this.#covered = false;
  }

  /**
   * Writes `text` with `write`; when it would follow a waiting question, it
   * takes the question's place, and the question is shown again once the
   * output ends a line (a partial line is left to finish first).
   */
  print(text: string, write: (text: string) => void): void {
    if (this.#question === undefined || text === "") return write(text);
    if (!this.#covered) {
      this.#covered = true;
      this.#writeQuestion(erasing(this.#question, this.#columns()));
    }
    write(text);
    if (!text.endsWith("\n")) return;
    this.#covered = false;
    this.#writeQuestion(this.#question);
  }
}

/**
 * What takes the cursor from the end of `question` back to the start of its
 * first full row and clears from there down: the rows after its first newline
 * (what comes before that ends a row the question shares with earlier
 * output). When that cannot be known (no newline, or no width), it only ends
 * the question's line: the question then shows twice, but nothing else is lost.
 */
export function erasing(question: string, columns: number | undefined): string {
  const start = question.indexOf("\n");
  if (start === -1 || columns === undefined || columns < 1) return "\n";
  const rows = question.slice(start + 1).split("\n")
    .reduce((sum, line) => sum + rowsFilled(line, columns), 0);
  return `${rows > 1 ? `\x1b[${rows - 1}A` : ""}\r\x1b[J`;
}

/** The console's width; undefined when it is not a terminal or has none. */
function consoleColumns(): number | undefined {
  try {
    const { columns } = runtime.consoleSize();
    return columns > 0 ? columns : undefined;
  } catch {
    return undefined; // none of stdin, stdout or stderr is a terminal
  }
}
