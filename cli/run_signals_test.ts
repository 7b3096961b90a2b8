// `fello run` stopped by a signal or Ctrl-C while a Shell process tree runs:
// what it kills, how it exits, and what goes on. The CLI runs as a subprocess
// against the scripted server; process trees are checked through /proc.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  endpointArgs,
  outputWithin,
  spawnFello,
} from "../tests/support/fello_cli.ts";
import {
  killLeftovers,
  readPidFiles,
  survivors,
  TREE_SIZE,
  treeCommand,
  waitForPids,
} from "../tests/support/processes.ts";
import { startScriptedServer } from "../tests/support/scripted_server.ts";
import { HAS_SCRIPT, onTerminal } from "../tests/support/terminal.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

Deno.test("fello run stopped with SIGTERM or SIGHUP mid-Shell kills the command's children and grandchildren and exits 143 / 129", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      {
        match: "tree for SIGTERM",
        replies: [{
          toolCalls: [{
            name: "Shell",
            arguments: { command: treeCommand("term.pids") },
          }],
        }],
      },
      {
        match: "tree for SIGHUP",
        replies: [{
          toolCalls: [{
            name: "Shell",
            arguments: { command: treeCommand("hup.pids") },
          }],
        }],
      },
    ]);
    try {
      for (
        const [signal, prompt, file, code] of [
          ["SIGTERM", "tree for SIGTERM", "term.pids", 143],
          ["SIGHUP", "tree for SIGHUP", "hup.pids", 129],
        ] as const
      ) {
        const child = spawnFello([
          ...endpointArgs(server.baseURL),
          "--permission-mode",
          "allow",
          prompt,
        ], { cwd: dir });
        // Stopped in any case: a failure below leaves no CLI running.
        const output = outputWithin(child, 30_000);
        await waitForPids(join(dir, file), TREE_SIZE).finally(() =>
          child.kill(signal)
        );
        const pids = await readPidFiles([join(dir, file)]);
        const { code: exitCode } = await output;
        assert.equal(exitCode, code, `${signal}: exit code`);
        assert.deepEqual(
          await survivors(pids),
          [],
          `${signal}: the tree (${pids}) was killed`,
        );
      }
    } finally {
      killLeftovers(
        await readPidFiles([join(dir, "term.pids"), join(dir, "hup.pids")]),
      );
    }
  });
});

Deno.test({
  name:
    "fello run on a terminal: Ctrl-C during a Shell tree or a permission question cancels that prompt only, and the session goes on",
  ignore: !HAS_SCRIPT, // script(1) gives the CLI a pseudo-terminal
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([
        {
          // Each cancelled prompt stays in the conversation, marked: the
          // next prompt is its next turn.
          match: "start the tree",
          replies: [
            {
              toolCalls: [{
                name: "Shell",
                arguments: { command: treeCommand("pids") },
              }],
            },
            {
              toolCalls: [{
                name: "WriteFile",
                arguments: { path: "w.txt", content: "x" },
              }],
            },
            { text: "still here" },
          ],
        },
      ]);
      try {
        await onTerminal(dir, server.baseURL, async (terminal) => {
          const { type, waitFor } = terminal;
          await waitFor(/› $/);
          await type("start the tree\n");
          await waitFor(/Allow Shell: .*\[a\]lways: $/);
          await type("y\n");
          const pids = await waitForPids(join(dir, "pids"), TREE_SIZE);
          await type("\x03");
          await waitFor(/fello: cancelled\n\n› $/);
          assert.deepEqual(await survivors(pids), [], `tree ${pids} killed`);
          await type("write a file\n");
          await waitFor(/"w\.txt"\? \[y\]es \/ \[n\]o \/ \[a\]lways: $/);
          await type("\x03");
          await waitFor(/fello: cancelled\n\n› $/);
          await type("are you there?\n");
          await waitFor(
            /still here\n\d+ in, \d+ out · context \d+% full .*\n\n› $/,
          );
          await type("/exit\n");
          assert.equal(await terminal.exitCode(), 0);
        }, { args: ["--sandbox", "off"] }); // the pid files need host pids
        await assert.rejects(
          Deno.stat(join(dir, "w.txt")),
          Deno.errors.NotFound,
        );
      } finally {
        killLeftovers(await readPidFiles([join(dir, "pids")]));
      }
    });
  },
});
