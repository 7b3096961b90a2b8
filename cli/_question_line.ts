// While a question waits for its answer on the terminal, it must stay the last
// thing on screen. The approvals of a step run ahead of the transcript: once
// the first question is answered the next is asked at once, and the first
// call's result line is printed only later, after the new prompt, which then
// scrolls away while the cursor waits under a result. So output that arrives
// while a question waits is written below it, and the question is shown again.

/** Keeps a waiting question the last line on the terminal. */
export class QuestionLine {
  #showQuestion: (text: string) => void;
  #question: string | undefined;
  // Output has been written after the question, so it is no longer last.
  #covered = false;

  /** `showQuestion` writes where the questions go (stderr). */
  constructor(showQuestion: (text: string) => void) {
    this.#showQuestion = showQuestion;
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
   * goes on the line below, and the question is shown again once the output
   * ends a line (a partial line is left to finish first).
   */
  print(text: string, write: (text: string) => void): void {
    if (this.#question === undefined || text === "") return write(text);
    if (!this.#covered) {
      this.#covered = true;
      write("\n"); // the question's line ends where the person was to type
    }
    write(text);
    if (!text.endsWith("\n")) return;
    this.#covered = false;
    this.#showQuestion(this.#question);
  }
}
