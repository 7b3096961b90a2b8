// Where a JSON text stops being JSON, and what was expected there: the
// engine's JSON.parse message gives neither a line nor a column for most
// errors, and a config file's error must name both.

/** The first syntax error of a JSON text: its line, column and what was expected. */
export interface JsonSyntaxError {
  /** 1-based. */
  line: number;
  /** 1-based, in characters. */
  column: number;
  /** E.g. `"," or "}"`, or `a value`. */
  expected: string;
}

/** Finds the first syntax error of `text`; undefined when it is valid JSON. */
export function jsonSyntaxError(text: string): JsonSyntaxError | undefined {
  const scanner = new Scanner(text);
  try {
    scanner.value();
    scanner.space();
    if (scanner.at < text.length) scanner.fail("the end of the file");
    return undefined;
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
    const before = text.slice(0, error.at);
    const line = before.split("\n").length;
    const column = error.at - (before.lastIndexOf("\n") + 1) + 1;
    return { line, column, expected: error.expected };
  }
}

class Stop {
  constructor(readonly at: number, readonly expected: string) {}
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
// JSON strings may not hold control characters (U+0000 to U+001F) raw.
// deno-lint-ignore no-control-regex
const STRING_PART = /[^"\\\u0000-\u001f]+|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})/y;

class Scanner {
  at = 0;
  #text: string;
  #depth = 0;

  constructor(text: string) {
    this.#text = text;
  }

  fail(expected: string): never {
    throw new Stop(this.at, expected);
  }

  space(): void {
    while (/[ \t\n\r]/.test(this.#text[this.at] ?? "")) this.at++;
  }

  value(): void {
    this.space();
    const char = this.#text[this.at];
    if (char === "{") return this.#container("}", () => this.#member());
    if (char === "[") return this.#container("]", () => this.value());
    if (char === '"') return this.#string();
    for (const word of ["true", "false", "null"]) {
      if (this.#text.startsWith(word, this.at)) {
        this.at += word.length;
        return;
      }
    }
    NUMBER.lastIndex = this.at;
    if (NUMBER.test(this.#text)) {
      this.at = NUMBER.lastIndex;
      return;
    }
    this.fail("a value");
  }

  #member(): void {
    this.space();
    if (this.#text[this.at] !== '"') this.fail("a quoted key");
    this.#string();
    this.space();
    if (this.#text[this.at] !== ":") this.fail('":"');
    this.at++;
    this.value();
  }

  #container(close: string, item: () => void): void {
    if (++this.#depth > 512) this.fail("less nesting");
    this.at++;
    this.space();
    if (this.#text[this.at] === close) {
      this.at++;
      this.#depth--;
      return;
    }
    while (true) {
      item();
      this.space();
      const char = this.#text[this.at];
      if (char === close) break;
      if (char !== ",") this.fail(`"," or "${close}"`);
      this.at++;
      this.space();
      // A trailing comma: the commonest slip in a hand-written config.
      if (this.#text[this.at] === close) {
        this.fail(close === "}" ? "a quoted key" : "a value");
      }
    }
    this.at++;
    this.#depth--;
  }

  #string(): void {
    this.at++;
    while (true) {
      const char = this.#text[this.at];
      if (char === '"') {
        this.at++;
        return;
      }
      STRING_PART.lastIndex = this.at;
      if (!STRING_PART.test(this.#text)) {
        this.fail(
          char === undefined
            ? 'a closing "'
            : "a valid string character or escape",
        );
      }
      this.at = STRING_PART.lastIndex;
    }
  }
}
