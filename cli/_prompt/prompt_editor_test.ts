// PromptEditor, KeyReader, LineBuffer and PromptHistory: the interactive
// prompt's keys, edits, history and quitting, on a scripted terminal.
import assert from "node:assert/strict";
import { join } from "node:path";
import { type Key, KeyReader } from "./keys.ts";
import { LineBuffer } from "./line_buffer.ts";
import { MAX_HISTORY_ENTRIES, PromptHistory } from "./history.ts";
import {
  PromptEditor,
  type PromptOutcome,
  QUIT_WINDOW_MS,
} from "./prompt_editor.ts";
import { showOnTerminal } from "../../tests/support/screen.ts";

/** A terminal that sends `chunks` one read at a time and records the rest. */
function scriptedTerminal(
  chunks: string[],
  options: { now?: () => number } = {},
) {
  const state = { written: "", unread: "", raw: [] as boolean[] };
  return {
    state,
    terminal: {
      read: () => Promise.resolve(chunks.shift() ?? null),
      unread: (text: string) => state.unread += text,
      write: (text: string) => state.written += text,
      setRaw: (mode: boolean) => state.raw.push(mode),
      columns: () => 40,
      now: options.now,
    },
  };
}

async function readOnce(
  chunks: string[],
  history?: PromptHistory,
): Promise<{ outcome: PromptOutcome; written: string; unread: string }> {
  const { terminal, state } = scriptedTerminal(chunks);
  const editor = new PromptEditor(
    terminal,
    history ?? await PromptHistory.load(undefined),
  );
  const outcome = await editor.read();
  assert.deepEqual(state.raw, [true, false]);
  return { outcome, written: state.written, unread: state.unread };
}

Deno.test("KeyReader reads text, editing keys and a bracketed paste, across reads", () => {
  const reader = new KeyReader();
  const keys: Key[] = [
    ...reader.feed("ab\x1b[D\x1b"),
    ...reader.feed("[1;5C\x01\x05\x0b\x15\x17\x1bb\x1bf\x1b\r\x7f\x1b[3~"),
    ...reader.feed("\x1b[200~one\r\ntwo"),
    ...reader.feed("\x1b[201~\r"),
  ];
  assert.deepEqual(
    keys.map((k) => "text" in k ? `${k.type}:${k.text}` : k.type),
    [
      "text:ab",
      "left",
      "wordRight",
      "home",
      "end",
      "killToEnd",
      "killToStart",
      "killWordBack",
      "wordLeft",
      "wordRight",
      "newline",
      "backspace",
      "delete",
      "paste:one\ntwo",
      "enter",
    ],
  );
  assert.deepEqual(reader.feed("\x1bOH\x1b[F\x1b[A\x1b[B\x03\x04"), [
    { type: "home" },
    { type: "end" },
    { type: "up" },
    { type: "down" },
    { type: "interrupt" },
    { type: "eof" },
  ]);
});

Deno.test("LineBuffer edits by character, word and line, whole code points", () => {
  const buffer = new LineBuffer();
  buffer.insert("say hello world");
  buffer.wordLeft();
  assert.equal(buffer.cursor, 10);
  buffer.killWordBack();
  assert.equal(buffer.text, "say world");
  buffer.home();
  buffer.wordRight();
  buffer.killToEnd();
  assert.equal(buffer.text, "say");
  buffer.insert(" 😀");
  buffer.left();
  assert.equal(buffer.cursor, 4);
  buffer.delete();
  assert.equal(buffer.text, "say ");
  buffer.insert("x\nsecond line");
  buffer.killToStart();
  assert.equal(buffer.text, "say x\n");
  buffer.insert("ab");
  buffer.verticalMove(true);
  assert.equal(buffer.cursor, 2);
  buffer.verticalMove(false);
  assert.equal(buffer.cursor, 8);
});

Deno.test("PromptEditor edits what is typed and sends it on Enter", async () => {
  const { outcome, written } = await readOnce([
    "hi the",
    "\x1b[D\x1b[D\x1b[DX",
    "\x01A\x05 end",
    "\r",
  ]);
  assert.deepEqual(outcome, { type: "prompt", text: "Ahi Xthe end" });
  const { rows } = showOnTerminal(written, 40);
  assert.equal(rows[0], "› Ahi Xthe end");
});

Deno.test("PromptEditor sends a two-line paste and an Alt-Enter or `\\` line break as one prompt", async () => {
  assert.deepEqual(
    (await readOnce(["\x1b[200~first\nsecond\x1b[201~", "\r"])).outcome,
    { type: "prompt", text: "first\nsecond" },
  );
  const { outcome, written } = await readOnce([
    "one\x1b\rtwo\\",
    "\r",
    "three\r",
  ]);
  assert.deepEqual(outcome, { type: "prompt", text: "one\ntwo\nthree" });
  assert.deepEqual(showOnTerminal(written, 40).rows.slice(0, 3), [
    "› one",
    "  two",
    "  three",
  ]);
});

Deno.test("PromptEditor gives back what was typed after Enter", async () => {
  const { outcome, unread } = await readOnce(["first\rsecond\r"]);
  assert.deepEqual(outcome, { type: "prompt", text: "first" });
  assert.equal(unread, "second\n");
});

Deno.test("PromptEditor: Ctrl-C clears the line and says how to quit; a second within 2 s quits", async () => {
  let now = 0;
  const { terminal, state } = scriptedTerminal(
    ["typed", "\x03", "\x03"],
    { now: () => now },
  );
  const editor = new PromptEditor(
    terminal,
    await PromptHistory.load(undefined),
  );
  const reading = editor.read();
  assert.deepEqual(await reading, { type: "quit" });
  assert.match(state.written, /Ctrl-C again or Ctrl-D to quit/);
  // Later than 2 s, a Ctrl-C clears again; Ctrl-D on the empty line quits.
  const later = scriptedTerminal(["\x03", "x", "\x03", "\x04"], {
    now: () => (now += QUIT_WINDOW_MS + 1),
  });
  const again = new PromptEditor(
    later.terminal,
    await PromptHistory.load(undefined),
  );
  assert.deepEqual(await again.read(), { type: "eof" });
  assert.equal(later.state.written.split("Ctrl-C again").length - 1, 2);
});

Deno.test("PromptEditor: Ctrl-D deletes under the cursor on a line that is not empty", async () => {
  const { outcome } = await readOnce(["abc\x01\x04\r"]);
  assert.deepEqual(outcome, { type: "prompt", text: "bc" });
});

Deno.test("PromptHistory keeps prompts across loads, Up and Down walk them back to the draft", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "state", "history.jsonl");
    const first = await PromptHistory.load(path);
    await first.add("one");
    await first.add("two\nlines");
    await first.add("two\nlines"); // a repeat of the newest is not kept
    const second = await PromptHistory.load(path);
    assert.deepEqual(second.entries, ["one", "two\nlines"]);
    assert.equal(second.previous("draft"), "two\nlines");
    assert.equal(second.previous("ignored"), "one");
    assert.equal(second.previous("ignored"), undefined);
    assert.equal(second.next(), "two\nlines");
    assert.equal(second.next(), "draft");
    assert.equal(second.next(), undefined);
    // Through the editor: Up brings the last prompt back.
    const { outcome } = await readOnce(["\x1b[A", "\r"], second);
    assert.deepEqual(outcome, { type: "prompt", text: "two\nlines" });
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("PromptHistory keeps the newest entries of a long file and skips broken lines", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = join(dir, "history.jsonl");
    const lines = Array.from(
      { length: 2 * MAX_HISTORY_ENTRIES + 5 },
      (_, i) => JSON.stringify(`p${i}`),
    );
    await Deno.writeTextFile(path, `${lines.join("\n")}\n{"cut`);
    const history = await PromptHistory.load(path);
    assert.equal(history.entries.length, MAX_HISTORY_ENTRIES);
    assert.equal(history.entries.at(-1), `p${lines.length - 1}`);
    const rewritten = (await Deno.readTextFile(path)).trimEnd().split("\n");
    assert.equal(rewritten.length, MAX_HISTORY_ENTRIES);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
