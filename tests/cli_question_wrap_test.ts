// `fello run` on a narrow terminal: a permission question longer than a row
// wraps over several rows. A result line that arrives while it waits is
// printed above it and the question shown again below; what the terminal then
// shows must hold the question once, not its old rows too.
import assert from "node:assert/strict";
import { HAS_SCRIPT, onTerminal } from "./support/terminal.ts";
import { showOnTerminal } from "./support/screen.ts";
import { startScriptedServer } from "./support/scripted_server.ts";
import { withWorkspace } from "./support/workspace.ts";

const COLUMNS = 40;
// 80 columns wide, yet three rows at 40: "候" would take the 40th and 41st
// columns, so it starts the second row and leaves the 40th empty.
const COMMAND = "echo 你好，世界! > 问候1234567.txt";
const QUESTION = `Allow Shell: Run "${COMMAND}"? [y]es / [n]o / [a]lways:`;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

Deno.test({
  name:
    "fello run on a terminal: a wrapped question shown again below a late result line is on screen once",
  ignore: !HAS_SCRIPT,
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([{
        match: "two calls",
        replies: [{
          toolCalls: [
            { name: "WriteFile", arguments: { path: "a.txt", content: "a" } },
            { name: "Shell", arguments: { command: COMMAND } },
          ],
        }],
      }]);
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("two calls\n");
        await terminal.waitFor(/\[a\]lways: $/);
        await terminal.type("y\n");
        await terminal.waitFor(/Allow Shell: [^]*\[a\]lways: $/);
        await sleep(1_000); // the first call's result has come by now
        const output = terminal.output();
        // The result line came while the question waited (after it on the wire).
        assert.ok(
          output.lastIndexOf("Created") > output.indexOf("Allow Shell"),
          `the result did not come after the question:\n${output}`,
        );
        const { rows, cursor } = showOnTerminal(output, COLUMNS);
        const shown = rows.join("\n");
        const flat = rows.join("");
        assert.equal(flat.split("Allow Shell").length - 1, 1, shown);
        assert.equal(flat.split("a.txt: Created").length - 1, 1, shown);
        // The question fills the last rows, the cursor at its end.
        const last = rows.slice(cursor.row - 2, cursor.row + 1);
        assert.equal(last.join(""), QUESTION, shown);
        assert.match(rows.slice(0, cursor.row - 2).join("\n"), /Created/);
        await terminal.type("\x03");
      }, { columns: COLUMNS });
    });
  },
});

Deno.test({
  name:
    "fello run on a terminal: a reply that is no answer asks the whole question again, and a late line leaves it last",
  ignore: !HAS_SCRIPT,
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([{
        match: "two calls",
        replies: [{
          toolCalls: [
            // Its result line comes a second after it is approved: while the
            // second question, asked again, waits.
            { name: "Shell", arguments: { command: "sleep 1; echo slept" } },
            { name: "WriteFile", arguments: { path: "b.txt", content: "b" } },
          ],
        }],
      }]);
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("two calls\n");
        await terminal.waitFor(/Allow Shell: [^]*\[a\]lways: $/);
        await terminal.type("y\n");
        await terminal.waitFor(/Allow WriteFile: [^]*\[a\]lways: $/);
        await terminal.type("maybe\n");
        await terminal.waitFor(/not an answer\.\s*Allow WriteFile: [^]*$/);
        await sleep(2_000); // the Shell call's result has come by now
        const output = terminal.output();
        assert.ok(
          output.lastIndexOf("slept") > output.indexOf("not an answer"),
          `the result did not come after the question was asked again:\n${output}`,
        );
        const { rows, cursor } = showOnTerminal(output, COLUMNS);
        const shown = rows.join("\n");
        // The first asking (with the reply) stays above; the question asked
        // again is shown once more below the result, as the last thing.
        assert.equal(
          rows.join("").split("Allow WriteFile").length - 1,
          2,
          shown,
        );
        const question = rows.slice(0, cursor.row + 1).join("\n");
        assert.match(
          question,
          /slept[^]*\nAllow WriteFile: [^]*\[a\]lways: ?$/,
        );
        await terminal.type("\x03");
      }, { columns: COLUMNS });
    });
  },
});
