// `fello run`'s interactive session in a pseudo-terminal against the scripted
// server: the diff shown in an approval, the prompt's history across runs,
// paste, Ctrl-C and Ctrl-D at the idle prompt, /model and /compact.
import assert from "node:assert/strict";
import { join } from "node:path";
import { HAS_SCRIPT, onTerminal } from "./support/terminal.ts";
import {
  callsTool,
  contentText,
  type RecordedRequest,
  startScriptedServer,
} from "./support/scripted_server.ts";
import { isSummarizer, SUMMARIZER_MATCH } from "./support/summary_script.ts";
import { withWorkspace } from "./support/workspace.ts";

/** The user messages of a request, as text. */
function userMessages(request: RecordedRequest): string[] {
  return request.body.messages.filter((m) => m.role === "user")
    .map((m) => contentText(m.content));
}

Deno.test({
  name: "fello run on a terminal shows the diff of an edit before asking",
  ignore: !HAS_SCRIPT,
  async fn() {
    await withWorkspace(async (dir) => {
      await Deno.writeTextFile(join(dir, "hello.txt"), "one\ntwo\nthree\n");
      await using server = startScriptedServer([{
        match: "shout two",
        replies: [
          callsTool("EditFile", {
            path: "hello.txt",
            oldText: "two",
            newText: "TWO",
          }),
          { text: "shouted" },
        ],
      }]);
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("shout two\n");
        await terminal.waitFor(
          /--- hello\.txt\n\+\+\+ hello\.txt\n@@ -1,3 \+1,3 @@\n one\n-two\n\+TWO\n three\nAllow EditFile: Edit "hello\.txt"\? \[y\]es \/ \[n\]o \/ \[a\]lways: $/,
        );
        await terminal.type("y\n");
        await terminal.waitFor(/shouted\n[^]*› $/);
        await terminal.type("/exit\n");
        assert.equal(await terminal.exitCode(), 0);
      });
      assert.equal(
        await Deno.readTextFile(join(dir, "hello.txt")),
        "one\nTWO\nthree\n",
      );
    });
  },
});

Deno.test({
  name: "fello run on a terminal keeps the prompts typed for the next run (Up)",
  ignore: !HAS_SCRIPT,
  async fn() {
    await withWorkspace(async (dir) => {
      const state = await Deno.makeTempDir();
      try {
        await using first = startScriptedServer([
          { match: "remember me", replies: [{ text: "first run" }] },
        ]);
        await using second = startScriptedServer([
          { match: "remember me", replies: [{ text: "second run" }] },
        ]);
        const env = { FELLO_STATE_DIR: state };
        await onTerminal(dir, first.baseURL, async (terminal) => {
          await terminal.waitFor(/› $/);
          await terminal.type("remember me\n");
          await terminal.waitFor(/first run\n[^]*› $/);
          await terminal.type("\x04"); // Ctrl-D
          assert.equal(await terminal.exitCode(), 0);
        }, { env });
        await onTerminal(dir, second.baseURL, async (terminal) => {
          await terminal.waitFor(/› $/);
          await terminal.type("\x1b[A"); // Up
          await terminal.waitFor(/› remember me$/);
          await terminal.type("\n");
          await terminal.waitFor(/second run\n[^]*› $/);
          await terminal.type("/exit\n");
          assert.equal(await terminal.exitCode(), 0);
        }, { env });
        assert.equal(second.requests.length, 1);
        assert.deepEqual(userMessages(second.requests[0]), ["remember me"]);
      } finally {
        await Deno.remove(state, { recursive: true });
      }
    });
  },
});

Deno.test({
  name: "fello run on a terminal sends a pasted two-line prompt once",
  ignore: !HAS_SCRIPT,
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([
        { match: "line one", replies: [{ text: "got both" }] },
      ]);
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        // A bracketed paste, as a terminal sends it, then Enter.
        await terminal.type("\x1b[200~line one\nline two\x1b[201~");
        await terminal.waitFor(/› line one\n {2}line two$/);
        await terminal.type("\r");
        await terminal.waitFor(/got both\n[^]*› $/);
        await terminal.type("/exit\n");
        assert.equal(await terminal.exitCode(), 0);
      });
      assert.equal(server.requests.length, 1);
      assert.deepEqual(userMessages(server.requests[0]), [
        "line one\nline two",
      ]);
    });
  },
});

Deno.test({
  name:
    "fello run on a terminal: Ctrl-C at the idle prompt clears the line and says how to quit, then Ctrl-D quits",
  ignore: !HAS_SCRIPT,
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([]);
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("half a thought");
        await terminal.waitFor(/› half a thought$/);
        await terminal.type("\x03");
        await terminal.waitFor(
          /half a thought\n\(Ctrl-C again or Ctrl-D to quit; \/help lists commands\)\n› $/,
        );
        await terminal.type("\x04");
        assert.equal(await terminal.exitCode(), 0);
      });
      assert.equal(server.requests.length, 0);
    });
  },
});

Deno.test({
  name:
    "fello run on a terminal: /model shows and switches the model, /compact summarizes the conversation",
  ignore: !HAS_SCRIPT,
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([
        { match: SUMMARIZER_MATCH, replies: [{ text: "SUMMARY: a greeting" }] },
        { match: "hello", replies: [{ text: "hi" }] },
        // After the summary, its text opens the conversation; turn 1 (the
        // summary's acknowledgement is turn 0's answer).
        {
          match: "SUMMARY: a greeting",
          replies: [{ text: "unused" }, { text: "again" }],
        },
      ]);
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("/model\n");
        await terminal.waitFor(/model: m\n\n› $/);
        await terminal.type("/model other-model\n");
        await terminal.waitFor(
          /\(model: other-model, from the next prompt on\)\n\n› $/,
        );
        await terminal.type("hello\n");
        await terminal.waitFor(/hi\n[^]*› $/);
        await terminal.type("/compact\n");
        await terminal.waitFor(
          /\(summarized 2 messages: about [\d.]+k? → [\d.]+k? tokens\)\n\n› $/,
        );
        await terminal.type("and now\n");
        await terminal.waitFor(/again\n[^]*› $/);
        await terminal.type("/exit\n");
        assert.equal(await terminal.exitCode(), 0);
      });
      const main = server.requests.filter((r) => !isSummarizer(r));
      assert.deepEqual(main.map((r) => r.body.model), [
        "other-model",
        "other-model",
      ]);
      assert.equal(server.requests.filter(isSummarizer).length, 1);
      // After the summary, the conversation is the summary and the new prompt.
      const last = userMessages(main.at(-1)!);
      assert.equal(last.length, 2);
      assert.match(last[0], /SUMMARY: a greeting/);
      assert.doesNotMatch(last[0], /^hello$/m);
      assert.equal(last[1], "and now");
    });
  },
});
