// TranscriptPrinter and mainArgument(): the lines `fello run` prints for the
// answer, each tool call and its outcome, plans, subagents and summaries.
import assert from "node:assert/strict";
import type { AgentEvent, AgentResult } from "../agent/types.ts";
import { mainArgument, TranscriptPrinter } from "./_render.ts";

function render(events: AgentEvent[]): string {
  let out = "";
  const printer = new TranscriptPrinter((text) => out += text, {
    color: false,
  });
  for (const event of events) printer.handle(event);
  return out;
}

const result = (over: Partial<AgentResult> = {}): AgentResult => ({
  text: "",
  finishReason: "stop",
  steps: 1,
  toolCalls: [],
  usage: {},
  ...over,
});

Deno.test("TranscriptPrinter labels a result that does not follow its own call", () => {
  const base = { kind: "execute" as const };
  const out = render([
    { type: "text-delta", text: "Checking" },
    {
      type: "tool-call",
      toolCallId: "a",
      toolName: "Shell",
      input: { command: "ls", args: ["-la"] },
      ...base,
    },
    {
      type: "tool-call",
      toolCallId: "b",
      toolName: "Shell",
      input: { command: "false" },
      ...base,
    },
    {
      type: "tool-result",
      toolCallId: "b",
      toolName: "Shell",
      input: { command: "false" },
      output: {
        exitCode: 1,
        signal: null,
        timedOut: false,
        truncated: false,
        output: "",
      },
      modelText: "exit code 1",
      ...base,
    },
    {
      type: "tool-result",
      toolCallId: "a",
      toolName: "Shell",
      input: { command: "ls", args: ["-la"] },
      output: {
        exitCode: 0,
        signal: null,
        timedOut: false,
        truncated: false,
        output: "a\nb\n",
      },
      modelText: "a\nb",
      ...base,
    },
    { type: "reasoning-delta", text: "hmm" },
    { type: "reasoning-delta", text: "..." },
    { type: "step-finish", step: 1, finishReason: "tool-calls", usage: {} },
    {
      type: "finish",
      result: result({ finishReason: "tool-calls", steps: 1 }),
    },
  ]);
  assert.equal(
    out,
    [
      "Checking",
      "● Shell ls -la",
      "● Shell false",
      "  ⎿ exit 1",
      "  ⎿ Shell ls -la: exit 0, 2 lines of output",
      "    a",
      "    b",
      "(thinking…)",
      "(stopped after 1 step, the step limit; continue with another prompt or raise --max-steps)",
      "",
    ].join("\n"),
  );
});

Deno.test("TranscriptPrinter shows plans, errors and subagent progress", () => {
  const out = render([
    {
      type: "plan",
      entries: [
        { content: "Read", priority: "high", status: "completed" },
        { content: "Fix", priority: "high", status: "in_progress" },
        { content: "Test", priority: "low", status: "pending" },
      ],
    },
    {
      type: "subagent",
      toolCallId: "s",
      task: 1,
      description: "Look",
      event: {
        type: "tool-call",
        toolCallId: "c",
        toolName: "search",
        kind: "search",
        input: { pattern: "TODO", path: "src" },
      },
    },
    {
      type: "tool-error",
      toolCallId: "e",
      toolName: "EditFile",
      kind: "edit",
      input: { path: "a.ts" },
      error:
        'Cannot edit "a.ts": oldText matches 2 places (lines 4, 19)\nmore detail',
      modelText: "ToolError: ...",
    },
    { type: "text-delta", text: "Done.\n" },
    { type: "finish", result: result() },
  ]);
  assert.equal(
    out,
    [
      "Plan:",
      "  [x] Read",
      "  [~] Fix",
      "  [ ] Test",
      '  ↳ [2] search "TODO" in src',
      '  ⎿ EditFile a.ts: error: Cannot edit "a.ts": oldText matches 2 places (lines 4, 19)',
      "Done.",
      "",
    ].join("\n"),
  );
});

Deno.test("mainArgument() picks what says most about a call", () => {
  assert.equal(
    mainArgument("ReadFile", { path: "src/a.ts", line: 3 }),
    "src/a.ts",
  );
  assert.equal(mainArgument("Plan", { entries: [{}, {}] }), "2 entries");
  assert.equal(
    mainArgument("Subagent", { tasks: [{ description: "one" }] }),
    "1 task: one",
  );
  assert.equal(
    mainArgument("Subagent", {
      tasks: [{ description: "one" }, { description: "two" }],
    }),
    "2 tasks: one, two",
  );
  assert.equal(mainArgument("mcp_tool", { query: "x y" }), "x y");
  assert.equal(
    mainArgument("Shell", { command: "echo\nmulti   line" }),
    "echo multi line",
  );
});

Deno.test("TranscriptPrinter counts a Shell output's lines quickly, final newlines aside", () => {
  const started = performance.now();
  const out = render([{
    type: "tool-result",
    toolCallId: "a",
    toolName: "Shell",
    input: { command: "yes" },
    output: {
      exitCode: 0,
      signal: null,
      timedOut: false,
      truncated: false,
      output: `a${"\n".repeat(100_000)}b\n\n`,
    },
    modelText: "exit code 0",
    kind: "execute",
  }]);
  // A trailing-newline pattern took 8 s here; a generous bound.
  assert.ok(performance.now() - started < 4_000);
  assert.match(out, /exit 0, 100001 lines of output/);
});

Deno.test("TranscriptPrinter says on a line of its own that the oldest messages were summarized", () => {
  const out = render([
    { type: "text-delta", text: "Going on" },
    {
      type: "context-summarized",
      messages: 14,
      tokensBefore: 101_200,
      tokensAfter: 46_000,
      usage: {},
      summary: "S",
    },
    { type: "text-delta", text: "Done" },
  ]);
  assert.equal(
    out,
    "Going on\n(summarized the oldest 14 messages to stay within the context: about 101200 → 46000 tokens)\nDone",
  );
});

Deno.test("TranscriptPrinter shows a Subagent task's summary under its call", () => {
  const out = render([
    {
      type: "subagent-context-summarized",
      toolCallId: "c1",
      task: 1,
      description: "read the logs",
      messages: 6,
      tokensBefore: 30_000,
      tokensAfter: 12_000,
      usage: {},
      summary: "S",
    },
  ]);
  assert.equal(
    out,
    "  ↳ [2] (summarized the oldest 6 messages to stay within the context: about 30000 → 12000 tokens)\n",
  );
});

/** The lines printed for one result of `toolName`, right after its call. */
function resultLines(
  toolName: string,
  output: unknown,
  modelText = "",
): string[] {
  const call = { toolCallId: "a", toolName, input: {}, kind: "other" } as const;
  return render([
    { type: "tool-call", ...call },
    { type: "tool-result", ...call, output, modelText },
  ]).trimEnd().split("\n").slice(1);
}

const shellOutput = (output: string) => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  truncated: false,
  output,
});

Deno.test("TranscriptPrinter shows the last five lines of a Shell call's output, escaped", () => {
  const output = `${
    Array.from({ length: 8 }, (_, i) => `line ${i + 1}`).join("\n")
  }\n\n`;
  assert.deepEqual(resultLines("Shell", shellOutput(output)), [
    "  ⎿ exit 0, 8 lines of output",
    "    line 4",
    "    line 5",
    "    line 6",
    "    line 7",
    "    line 8",
  ]);
  assert.deepEqual(
    resultLines("Shell", shellOutput("one\r\nred \x1b[31mtext\r\n")),
    [
      "  ⎿ exit 0, 2 lines of output",
      "    one",
      "    red \\x1b[31mtext",
    ],
  );
  assert.deepEqual(resultLines("Shell", shellOutput("")), [
    "  ⎿ exit 0",
  ]);
});

Deno.test("TranscriptPrinter shows the first lines of an ImageAnalysis answer", () => {
  const answer = "A cat.\nIt sits.\n\nOn a mat.\nIn the sun.\nAsleep.";
  assert.deepEqual(
    resultLines(
      "ImageAnalysis",
      { path: "cat.png", answer },
      `Image "cat.png" (png 10x10, sent as is):\n${answer}`,
    ),
    [
      '  ⎿ Image "cat.png" (png 10x10, sent as is): (+6 lines)',
      "    A cat.",
      "    It sits.",
      "    On a mat.",
      "    … 2 more lines",
    ],
  );
});

Deno.test("TranscriptPrinter counts what a search or an outline found, in one line", () => {
  const match = (path: string) => ({ path, line: 1, text: "x" });
  assert.deepEqual(
    resultLines("search", {
      matches: [match("a.ts"), match("a.ts"), match("b.ts")],
      truncated: false,
    }),
    ["  ⎿ 3 matches in 2 files"],
  );
  assert.deepEqual(
    resultLines("search", { matches: [match("a.ts")], truncated: true }),
    ["  ⎿ 1 match in 1 file (more not shown)"],
  );
  assert.deepEqual(
    resultLines("search", { matches: [], truncated: false }),
    ["  ⎿ no match"],
  );
  const outline =
    "File: a.ts\nLanguage: TypeScript\nTotal lines: 30\n─── Symbols ───\nfunction a (lines 1-10)\nclass B (lines 12-30)\n  method c (lines 13-20)\n";
  assert.deepEqual(resultLines("file_outline", outline, outline), [
    "  ⎿ 3 symbols in 30 lines",
  ]);
  assert.deepEqual(
    resultLines("rg", { exitCode: 0, output: "a:1:x\nb:2:y\n" }),
    ["  ⎿ exit 0, 2 lines"],
  );
});

Deno.test("TranscriptPrinter shows an edit's first result line, its diff having been shown", () => {
  assert.deepEqual(
    resultLines(
      "EditFile",
      {},
      'Edited "a.ts": 1 replacement (+1 -1 lines).\n--- a.ts\n+++ a.ts',
    ),
    ['  ⎿ Edited "a.ts": 1 replacement (+1 -1 lines).'],
  );
  assert.deepEqual(
    resultLines(
      "EditSymbol",
      {},
      'Edited "a.ts": method A.run (now lines 3-9).\n--- a.ts\n+++ a.ts',
    ),
    ['  ⎿ Edited "a.ts": method A.run (now lines 3-9).'],
  );
});

Deno.test("TranscriptPrinter counts one more line in the singular", () => {
  assert.deepEqual(resultLines("mcp_tool", "x", "first\nsecond"), [
    "  ⎿ first (+1 line)",
  ]);
});
