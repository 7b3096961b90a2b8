import assert from "node:assert/strict";
import {
  cutLongOutputs,
  cutOutput,
  OUTPUT_FLOOR_TOKENS,
  outputTokenCap,
  shareUnansweredOutputs,
} from "./output_cut.ts";
import { estimateTokens } from "./context_budget.ts";

function numbered(lines: number): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++) out.push(`${i}\trow ${i} of the file`);
  return out.join("\n");
}

Deno.test("outputTokenCap() keeps a floor for small budgets", () => {
  assert.equal(outputTokenCap(1, 4_000), OUTPUT_FLOOR_TOKENS);
  assert.equal(outputTokenCap(100_000, 4_000), 83_500);
});

Deno.test("cutOutput() keeps an output within the cap as it is", () => {
  const text = numbered(100);
  assert.equal(cutOutput(text, 10_000), text);
});

Deno.test("cutOutput() keeps head and tail at line ends and says how to read ReadFile's left-out lines", () => {
  const text = numbered(20_000);
  const cut = cutOutput(text, 2_000, {
    toolName: "ReadFile",
    input: { path: "big.txt" },
  });
  assert.ok(estimateTokens(cut) < 2_000, `${estimateTokens(cut)} tokens`);
  assert.ok(cut.startsWith("1\trow 1 of the file\n"));
  assert.ok(cut.endsWith("20000\trow 20000 of the file"));
  const note =
    /\[\.\.\. (\d+) lines .*Lines (\d+)-(\d+) of "big.txt" .*line: (\d+), limit: \d+/
      .exec(cut);
  assert.ok(note, cut.slice(0, 200));
  const [, lines, from, to, line] = note.map(Number);
  assert.equal(to - from + 1, lines);
  assert.equal(line, from);
  // The lines around the note are whole and follow each other.
  assert.ok(cut.includes(`${from - 1}\trow ${from - 1} of the file\n[...`));
  assert.ok(cut.includes(`]\n${to + 1}\trow ${to + 1} of the file`));
});

Deno.test("cutOutput() points at Shell's log and cuts one huge line, CJK counted per character", () => {
  const log = cutOutput("x".repeat(100_000), 1_000, {
    toolName: "Shell",
    output: { logPath: "/tmp/shell-output-1.log" },
  });
  assert.match(log, /1 line .*"\/tmp\/shell-output-1\.log"/);
  assert.ok(log.length < 5_000);
  const cjk = cutOutput("字".repeat(50_000), 1_000);
  assert.ok(estimateTokens(cjk) < 1_000, `${estimateTokens(cjk)} tokens`);
});

Deno.test("cutLongOutputs() cuts an output already in the conversation, leaving the rest as it is", () => {
  const big = numbered(50_000);
  const messages = [
    { role: "user", content: "Read it" },
    {
      role: "assistant",
      content: [{
        type: "tool-call",
        toolCallId: "c1",
        toolName: "ReadFile",
        input: { path: "a.txt", force: true },
      }],
    },
    {
      role: "tool",
      content: [{
        type: "tool-result",
        toolCallId: "c1",
        toolName: "ReadFile",
        output: { type: "text", value: big },
      }],
    },
  ];
  const cut = cutLongOutputs(messages, 5_000);
  assert.notEqual(cut, messages);
  assert.equal(cut[1], messages[1]);
  const value = (cut[2].content as { output: { value: string } }[])[0].output
    .value;
  assert.ok(estimateTokens(value) < 5_000);
  assert.match(value, /of "a\.txt" are left out/);
  assert.equal(
    (messages[2].content as { output: { value: string } }[])[0].output.value,
    big,
  );
  assert.equal(cutLongOutputs(cut, 5_000), cut);
});

Deno.test("shareUnansweredOutputs() cuts parallel outputs that fit alone but not together, down to the floor at most", () => {
  const result = (id: string, value: string) => ({
    type: "tool-result",
    toolCallId: id,
    toolName: "fetch",
    output: { type: "text", value },
  });
  const big = numbered(4_000); // about 23,000 tokens
  const messages = [
    { role: "user", content: "Fetch" },
    { role: "assistant", content: [] as unknown[] },
    { role: "tool", content: ["a", "b", "c"].map((id) => result(id, big)) },
  ];
  const values = (list: typeof messages) =>
    (list[2].content as { output: { value: string } }[]).map((p) =>
      estimateTokens(p.output.value)
    );
  const shared = shareUnansweredOutputs(messages, 30_000);
  assert.equal(shared[0], messages[0]);
  for (const tokens of values(shared)) assert.ok(tokens <= 10_000, `${tokens}`);
  const floor = shareUnansweredOutputs(messages, 3_000);
  for (const tokens of values(floor)) {
    assert.ok(
      tokens > OUTPUT_FLOOR_TOKENS - 200 && tokens <= OUTPUT_FLOOR_TOKENS,
    );
  }
  assert.equal(shareUnansweredOutputs(messages, 100_000), messages);
  // Answered outputs are the budget's to clear, not cut here.
  const answered = [...messages, { role: "assistant", content: "ok" }];
  assert.equal(shareUnansweredOutputs(answered, 3_000), answered);
});
