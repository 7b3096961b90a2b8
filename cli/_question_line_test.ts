import assert from "node:assert/strict";
import { erasing, QuestionLine } from "./_question_line.ts";
import { showOnTerminal } from "../tests/support/screen.ts";

/** A terminal whose width `columns` gives, and what was written to it. */
function screen(columns: () => number | undefined) {
  const state = {
    text: "",
    line: undefined as unknown as QuestionLine,
    out: (t: string) => state.text += t,
  };
  state.line = new QuestionLine(state.out, { columns });
  return state;
}

/** Writes `question` as the approver does and marks it waiting. */
function ask(s: ReturnType<typeof screen>, question: string): void {
  s.out(question);
  s.line.waiting(question);
}

Deno.test("QuestionLine shows a waiting question again below output that comes, in its place", () => {
  const s = screen(() => 80);
  ask(s, "\nAllow? [y]: ");
  s.line.print("  ⎿ a.txt: Created\n", s.out);
  assert.equal(
    s.text,
    "\nAllow? [y]: \r\x1b[J  ⎿ a.txt: Created\n\nAllow? [y]: ",
  );
  assert.deepEqual(showOnTerminal(s.text, 80).rows, [
    "",
    "  ⎿ a.txt: Created",
    "",
    "Allow? [y]:",
  ]);
});

Deno.test("QuestionLine erases every row of a question that wraps", () => {
  const s = screen(() => 10);
  s.out("● Shell\n");
  const question = "\nAllow Shell: echo 你好? [y]: "; // 28 columns: 3 rows
  ask(s, question);
  s.line.print("  ⎿ done\n", s.out);
  assert.ok(s.text.includes("\x1b[2A\r\x1b[J  ⎿ done\n"), s.text);
  const { rows } = showOnTerminal(s.text, 10);
  assert.deepEqual(rows, [
    "● Shell",
    "",
    "  ⎿ done",
    "",
    "Allow Shel",
    "l: echo 你",
    "好? [y]:",
  ]);
});

Deno.test("QuestionLine measures the terminal again at each erase", () => {
  let columns = 40;
  const s = screen(() => columns);
  const question = `\n${"q".repeat(30)}? `; // 32 columns
  ask(s, question);
  s.line.print("one\n", s.out); // one row at 40
  columns = 16; // resized: the question shown again takes two rows of 16
  s.line.print("two\n", s.out);
  assert.equal(
    s.text,
    `${question}\r\x1b[Jone\n${question}\x1b[1A\r\x1b[Jtwo\n${question}`,
  );
});

Deno.test("QuestionLine waits for a partial line to end before showing the question again", () => {
  const s = screen(() => 80);
  s.line.waiting("\nQ? ");
  s.line.print("● Shell ", s.out);
  s.line.print("echo\n", s.out);
  s.line.print("next\n", s.out);
  assert.equal(
    s.text,
    "\r\x1b[J● Shell echo\n\nQ? \r\x1b[Jnext\n\nQ? ",
  );
});

Deno.test("QuestionLine erases nothing when the terminal's width is unknown", () => {
  const s = screen(() => undefined);
  ask(s, "\nAllow? [y]: ");
  s.line.print("  ⎿ a.txt: Created\n", s.out);
  // Shown twice, but no row of earlier output is erased by a wrong guess.
  assert.equal(
    s.text,
    "\nAllow? [y]: \n  ⎿ a.txt: Created\n\nAllow? [y]: ",
  );
});

Deno.test("QuestionLine writes output as it is when no question waits", () => {
  const s = screen(() => 80);
  s.line.waiting("\nQ? ");
  s.line.waiting(undefined); // answered
  s.line.print("result\n", s.out);
  assert.equal(s.text, "result\n");
});

Deno.test("erasing() goes up to the first full row of the question", () => {
  assert.equal(erasing("\nAllow? ", 80), "\r\x1b[J");
  assert.equal(erasing(`\n${"a".repeat(81)}`, 80), "\x1b[1A\r\x1b[J");
  assert.equal(erasing(`\n${"a".repeat(80)}`, 80), "\r\x1b[J"); // no wrap yet
  assert.equal(erasing("\nline one\nline two ", 80), "\x1b[1A\r\x1b[J");
});

Deno.test("erasing() only ends the line when the question's start is unknown", () => {
  // No newline: the question shares its first row with earlier output.
  assert.equal(erasing("Allow? ", 80), "\n");
  assert.equal(erasing("\nAllow? ", undefined), "\n");
  assert.equal(erasing("\nAllow? ", 0), "\n");
});
