// The text of a prompt being typed and the cursor in it, with the editing
// moves of readline and emacs: by character, by word, to either end, and the
// kills (Ctrl-K, Ctrl-U, Ctrl-W, Alt-D). The cursor moves by code points, so
// it never stands inside a surrogate pair. The text may hold line breaks.

/** A prompt's text and cursor. */
export class LineBuffer {
  /** The text so far. */
  text = "";
  /** Where the cursor stands, as an index into `text`. */
  cursor = 0;

  /** Replaces the text, the cursor at its end. */
  set(text: string): void {
    this.text = text;
    this.cursor = text.length;
  }

  /** Inserts `text` at the cursor. */
  insert(text: string): void {
    this.text = this.text.slice(0, this.cursor) + text +
      this.text.slice(this.cursor);
    this.cursor += text.length;
  }

  /** Deletes the character before the cursor. */
  backspace(): void {
    const start = this.#previous(this.cursor);
    this.#remove(start, this.cursor);
  }

  /** Deletes the character under the cursor. */
  delete(): void {
    this.#remove(this.cursor, this.#next(this.cursor));
  }

  left(): void {
    this.cursor = this.#previous(this.cursor);
  }

  right(): void {
    this.cursor = this.#next(this.cursor);
  }

  /** To the start of the cursor's line. */
  home(): void {
    this.cursor = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  /** To the end of the cursor's line. */
  end(): void {
    const newline = this.text.indexOf("\n", this.cursor);
    this.cursor = newline === -1 ? this.text.length : newline;
  }

  /** To the start of this word, or of the one before. */
  wordLeft(): void {
    this.cursor = this.#wordStart(this.cursor);
  }

  /** To the end of this word, or of the one after. */
  wordRight(): void {
    this.cursor = this.#wordEnd(this.cursor);
  }

  /** Deletes from the cursor to the end of its line. */
  killToEnd(): void {
    const newline = this.text.indexOf("\n", this.cursor);
    this.#remove(this.cursor, newline === -1 ? this.text.length : newline);
  }

  /** Deletes from the start of the cursor's line to the cursor. */
  killToStart(): void {
    this.#remove(this.text.lastIndexOf("\n", this.cursor - 1) + 1, this.cursor);
  }

  /** Deletes the word before the cursor (and the spaces after it). */
  killWordBack(): void {
    this.#remove(this.#wordStart(this.cursor), this.cursor);
  }

  /** Deletes the word after the cursor. */
  killWordForward(): void {
    this.#remove(this.cursor, this.#wordEnd(this.cursor));
  }

  /** Whether the cursor is on the first line of the text. */
  get onFirstLine(): boolean {
    return !this.text.slice(0, this.cursor).includes("\n");
  }

  /** Whether the cursor is on the last line of the text. */
  get onLastLine(): boolean {
    return !this.text.slice(this.cursor).includes("\n");
  }

  /** Moves to the line above (up) or below, at the same column as far as it goes. */
  verticalMove(up: boolean): void {
    const lineStart = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    const column = this.cursor - lineStart;
    if (up) {
      if (lineStart === 0) return;
      const previousStart = this.text.lastIndexOf("\n", lineStart - 2) + 1;
      this.cursor = Math.min(previousStart + column, lineStart - 1);
    } else {
      const nextStart = this.text.indexOf("\n", this.cursor) + 1;
      if (nextStart === 0) return;
      const nextEnd = this.text.indexOf("\n", nextStart);
      this.cursor = Math.min(
        nextStart + column,
        nextEnd === -1 ? this.text.length : nextEnd,
      );
    }
    if (isLowSurrogate(this.text.charCodeAt(this.cursor))) this.cursor--;
  }

  #remove(start: number, end: number): void {
    if (end <= start) return;
    this.text = this.text.slice(0, start) + this.text.slice(end);
    this.cursor = start;
  }

  #previous(at: number): number {
    if (at <= 0) return 0;
    return isLowSurrogate(this.text.charCodeAt(at - 1)) && at >= 2
      ? at - 2
      : at - 1;
  }

  #next(at: number): number {
    if (at >= this.text.length) return this.text.length;
    return isHighSurrogate(this.text.charCodeAt(at)) ? at + 2 : at + 1;
  }

  #wordStart(at: number): number {
    let i = at;
    while (i > 0 && !isWordChar(this.text[i - 1])) i--;
    while (i > 0 && isWordChar(this.text[i - 1])) i--;
    return i;
  }

  #wordEnd(at: number): number {
    let i = at;
    while (i < this.text.length && !isWordChar(this.text[i])) i++;
    while (i < this.text.length && isWordChar(this.text[i])) i++;
    return i;
  }
}

// Letters, digits and the rest of a name; surrogates count as letters.
function isWordChar(char: string): boolean {
  return /[\p{L}\p{N}_\ud800-\udfff]/u.test(char);
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
