import assert from "node:assert/strict";
import { QuestionLine } from "./_question_line.ts";

function screen(): { text: string; line: QuestionLine; out(t: string): void } {
  const state = {
    text: "",
    line: undefined as unknown as QuestionLine,
    out: (t: string) => state.text += t,
  };
  state.line = new QuestionLine(state.out);
  return state;
}

Deno.test("QuestionLine shows a waiting question again after output that follows it", () => {
  const s = screen();
  s.out("\nAllow? [y]: ");
  s.line.waiting("\nAllow? [y]: ");
  s.line.print("  ⎿ a.txt: Created\n", s.out);
  assert.equal(s.text, "\nAllow? [y]: \n  ⎿ a.txt: Created\n\nAllow? [y]: ");
});

Deno.test("QuestionLine waits for a partial line to end before showing the question again", () => {
  const s = screen();
  s.line.waiting("Q? ");
  s.line.print("● Shell ", s.out);
  s.line.print("echo\n", s.out);
  s.line.print("next\n", s.out);
  assert.equal(s.text, "\n● Shell echo\nQ? \nnext\nQ? ");
});

Deno.test("QuestionLine writes output as it is when no question waits", () => {
  const s = screen();
  s.line.waiting("Q? ");
  s.line.waiting(undefined); // answered
  s.line.print("result\n", s.out);
  assert.equal(s.text, "result\n");
});
