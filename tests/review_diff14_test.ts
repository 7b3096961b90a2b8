// Review of the changes of session 14 since e1da3bf (tools, protocols, CLI,
// outline): each ignored test reproduces a fault one of those changes brought
// in and says what is expected instead. All 8 are fixed; each failed before
// its fix.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as acp from "@agentclientprotocol/sdk";
import { fileOutline, outlineSymbols } from "../mod.ts";
import { ToolContext } from "../tools/context.ts";
import { createLocalFiles } from "../tools/local_files.ts";
import { createLocalProcesses } from "../tools/shell/local_processes.ts";
import { createRg } from "../tools/search/rg.ts";
import type { PermissionRequest } from "../tools/types.ts";
import { connect } from "./support/acp_connect.ts";
import { fello } from "./support/fello_cli.ts";
import { startScriptedServer } from "./support/scripted_server.ts";
import { withDirs, withWorkspace } from "./support/workspace.ts";

// Fixed fault: `rg --files <dir>` lists a folder outside the workspace without
// asking. b66c286 made tools/_rg_args.ts take the first positional argument
// as the pattern unless -e/-f gives one, but with `--files` (and
// `--type-list`) ripgrep takes no pattern: every positional is a path. So
// rgReads(["--files", "/etc"]).paths is [] and authorizeOutsidePaths() asks
// nothing; before b66c286 every argument was checked and this call asked.
// Under `fello mcp --workspace-only` the listing of any folder on the disk
// comes back. Expected: the outside folder is asked about (here refused).
// Fix: in rgReads, treat `--files` and `--type-list` as "pattern given" (every
// positional a path), as -e/-f do.
Deno.test({
  name: "rg --files asks before listing a folder outside the workspace",
  async fn() {
    await withDirs(async ({ ws, out }) => {
      await Deno.writeTextFile(join(out, "secret.txt"), "s\n");
      const asked: PermissionRequest[] = [];
      const rg = createRg(
        new ToolContext({
          workspace: ws,
          permissionMode: "ask",
          approve: (request) => {
            asked.push(request);
            return false;
          },
          files: createLocalFiles(),
          processes: createLocalProcesses(),
        }),
      );
      const result = await rg.execute({ args: ["--files", out] }).catch((
        error: Error,
      ) => error);
      assert.ok(
        asked.some((request) => request.path === out),
        `not asked about ${out}; rg answered ${JSON.stringify(result)}`,
      );
      assert.ok(result instanceof Error, "the refused listing still ran");
    });
  },
});

// Fixed fault: the person asked to approve a Shell command no longer sees all of
// it. 45c260a cut the permission request's `description` to 200 characters
// (`Run "echo xxx…… (330 characters)"`) so errors stay short, but the
// description is the only text `fello run` shows when it asks
// (cli/_ask_permission.ts prints `Allow Shell: ${description}`), and the
// transcript's call line is cut to 120 characters too. A command whose
// dangerous part comes after character 200 (`...; rm -rf ~`, a heredoc
// followed by `&& curl ... | sh`) is approved unseen. tools/types.ts says the
// description is "one line a person can read to decide". Expected: the
// question shows the whole command (or at least its end). Fix: keep the full
// command in the description (clip only in error messages), or have the
// terminal approver print `request.command` in full when it differs.
Deno.test({
  name:
    "fello run shows the whole Shell command when it asks to approve it, however long",
  async fn() {
    await withWorkspace(async (dir) => {
      const command = `echo ${"x".repeat(300)}; touch pwned.txt`;
      await using server = startScriptedServer([{
        match: "run the long one",
        replies: [
          {
            toolCalls: [{
              id: "call_long",
              name: "Shell",
              arguments: { command },
            }],
          },
          { text: "done" },
        ],
      }]);
      const out = await fello(
        ["--base-url", server.baseURL, "--model", "m", "run the long one"],
        { cwd: dir, stdin: "n\n" },
      );
      assert.equal(out.code, 0, out.stderr);
      const question = out.stderr.split("\n").find((line) =>
        line.includes("Allow Shell")
      );
      assert.ok(question, out.stderr);
      assert.ok(
        question.includes("touch pwned.txt"),
        `the question hides the end of the command: ${question}`,
      );
      await assert.rejects(
        Deno.stat(join(dir, "pwned.txt")),
        Deno.errors.NotFound,
      );
    });
  },
});

// Fixed fault: a Doxygen comment whose `@brief` follows a structural command
// (`@fn`, `@file`, `@class`, `@struct`, `@def`...) loses its summary. 0100424
// made firstMeaningfulLine() (outline/languages/_nodes.ts) stop at the first
// `@tag` line, a JSDoc rule ("a block tag's description runs on to the next
// tag"), but the function serves every language and strips `@brief` as the
// summary: `/** @fn int add(int a, int b)\n * @brief Adds two numbers. */`
// gave "Adds two numbers." before 0100424 and gives nothing now. Issue 4: the
// comment is the first meaningful line of the doc comment. Expected:
// `function add (line 5)  // Adds two numbers.` Fix: let a `@brief`/`\brief`
// line win wherever it stands (look for it before giving up at a tag), or
// skip Doxygen's structural commands (`@fn`, `@file`, `@class`, `@struct`,
// `@def`, `@var`, `@typedef`) as before.
Deno.test({
  name:
    "fileOutline() takes a Doxygen @brief that follows @fn as the function's comment",
  async fn() {
    await withWorkspace(async (ws) => {
      await Deno.writeTextFile(
        join(ws, "add.c"),
        [
          "/**",
          " * @fn int add(int a, int b)",
          " * @brief Adds two numbers.",
          " */",
          "int add(int a, int b) { return a + b; }",
          "",
        ].join("\n"),
      );
      const text = await fileOutline("add.c", { cwd: ws });
      assert.match(text, /function add \(line 5\) {2}\/\/ Adds two numbers\./);
    });
  },
});

// Fixed fault: any top-level block statement of a JS/TS file is listed as
// `namespace global`. bf3eb9a added "statement_block" to the top-level
// symbol types in outline/languages/_ecmascript.ts for `declare global { }`
// (which the grammar gives as ambient_declaration > statement_block), but
// _statement() names every statement_block "global", including a plain
// scoping block `{ ... }` in a script. Expected: a bare block is no symbol
// (its function may be listed at the top level, as before). Fix: handle
// statement_block only when _unwrap() reached it through an
// ambient_declaration that starts with `declare global` (e.g. return a
// distinct type such as "global_block" from _unwrap), not in SYMBOL_TYPES.
Deno.test({
  name: "outlineSymbols() lists no namespace for a bare top-level block",
  async fn() {
    await withWorkspace(async (ws) => {
      await Deno.writeTextFile(
        join(ws, "script.js"),
        "{\n  const local = 1;\n}\nfunction g() {}\n",
      );
      const { symbols } = await outlineSymbols("script.js", { cwd: ws });
      assert.deepEqual(
        symbols.map((s) => `${s.kind} ${s.name}`),
        ["function g"],
      );
    });
  },
});

// Fixed fault: a Subagent child's tool call is sent to the editor under the id the
// model gave it (d95cdc6, _acp_session.ts #forward), but ids are unique only
// within one conversation: each child is a conversation of its own, so a
// server that numbers tool calls per answer (`call_0`, `call_1`...) makes a
// child's call reuse the parent's Subagent id. The editor then gets a second
// `tool_call` for `call_0` (ACP: a toolCallId is unique within the session),
// the child's WriteFile replaces the Subagent call and its `completed`
// update ends it. Expected: every `tool_call` of a session has its own id.
// Fix: forward a child's events under an id derived from the Subagent call
// and the task (`${toolCallId}/${task}/${childId}`), as the review of 14
// suggested, and use the same id for its permission requests and terminals.
Deno.test({
  name:
    "acp agent gives a Subagent child's tool call an id of its own in the session",
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([
        {
          match: "delegate",
          replies: [
            {
              toolCalls: [{
                id: "call_0",
                name: "Subagent",
                arguments: {
                  tasks: [{ description: "write c", prompt: "child: write c" }],
                },
              }],
            },
            { text: "Delegated." },
          ],
        },
        {
          match: "child: write c",
          replies: [
            {
              toolCalls: [{
                id: "call_0",
                name: "WriteFile",
                arguments: { path: "c.txt", content: "child\n" },
              }],
            },
            { text: "Written." },
          ],
        },
      ]);
      const { client, connection } = await connect(server, undefined, {
        permissionMode: "acceptEdits",
      });
      try {
        const { sessionId } = await connection.agent.request(
          acp.methods.agent.session.new,
          { cwd: dir, mcpServers: [] },
        );
        const response = await connection.agent.request(
          acp.methods.agent.session.prompt,
          { sessionId, prompt: [{ type: "text", text: "delegate" }] },
        );
        assert.equal(response.stopReason, "end_turn");
        assert.equal(await Deno.readTextFile(join(dir, "c.txt")), "child\n");
        const ids = client.updatesOf("tool_call").map((u) => u.toolCallId);
        assert.equal(ids.length, 2, JSON.stringify(ids));
        assert.equal(new Set(ids).size, ids.length, JSON.stringify(ids));
      } finally {
        connection.close();
      }
    });
  },
});

const ROOT = fileURLToPath(new URL("../", import.meta.url));

const SYMLINK_WRITE_CHILD = `
import { createTools } from ${JSON.stringify(join(ROOT, "mod.ts"))};
const [ws] = Deno.args;
const tools = createTools({ cwd: ws, permissionMode: "allow" });
let result;
try {
  result = { ok: await tools.WriteFile.execute({ path: "link.txt", content: "new\\n" }) };
} catch (error) {
  result = { error: error.message };
}
console.log(JSON.stringify(result));
`;

/** Runs the child script with `flags`; its stdout is one JSON line. */
async function runWriteChild(
  script: string,
  flags: string[],
  ws: string,
): Promise<{ ok?: unknown; error?: string }> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--no-prompt",
      `--config=${join(ROOT, "deno.json")}`,
      ...flags,
      script,
      ws,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

// Fixed fault: the folder-first denial of 4f2913b (tools/_local_files.ts) does not
// hold for a file symlink leading out of the granted folder. WriteFile
// "link.txt" (-> <out>/real.txt) under --allow-write=<ws> is denied with
// `--allow-write=<out>/real.txt (or a parent folder)` (requireGrant, then
// writeTarget's own check name the file); a user who adds exactly that flag
// gets a second denial, `--allow-write=<out>` for the temp file, the
// two-step the folder-first rule was written to end. Issue 2 (gate two): the
// error names the flag to add; it must be one that makes the call work.
// Fix: in requireGrant's symlink branch and in writeTarget, name the real
// file's folder for a write (or call requireFolderGrant(real) first).
Deno.test({
  name:
    "WriteFile through a symlink to an ungranted folder: the flag its denial names makes the retry succeed",
  async fn() {
    await withDirs(async ({ ws, out }) => {
      const real = join(out, "real.txt");
      await Deno.writeTextFile(real, "old\n");
      await Deno.symlink(real, join(ws, "link.txt"));
      const script = join(ws, "child.js");
      await Deno.writeTextFile(script, SYMLINK_WRITE_CHILD);
      const flags = [
        `--allow-read=${ws},${out},${ROOT}`,
        `--allow-write=${ws}`,
      ];
      const denied = await runWriteChild(script, flags, ws);
      const flag = /--allow-write=\S+/.exec(denied.error ?? "")?.[0];
      assert.ok(flag, JSON.stringify(denied));
      const retried = await runWriteChild(script, [...flags, flag], ws);
      assert.equal(retried.error, undefined, `after ${flag}`);
      assert.equal(await Deno.readTextFile(real), "new\n");
    });
  },
});

/** A parent that delegates one task, and a child that runs `childCalls`. */
function delegatingServer(
  childCalls: { id: string; name: string; arguments: unknown }[],
) {
  return startScriptedServer([
    {
      match: "delegate",
      replies: [
        {
          toolCalls: [{
            id: "call_sub",
            name: "Subagent",
            arguments: {
              tasks: [{ description: "child", prompt: "child: work" }],
            },
          }],
        },
        { text: "Delegated." },
      ],
    },
    {
      match: "child: work",
      replies: [
        ...childCalls.map((call) => ({ toolCalls: [call] })),
        { text: "Done." },
      ],
    },
  ]);
}

// Fixed fault: d95cdc6 shows a Subagent child's calls as tool calls of their own
// (`c_write` below), and its comment says their ids are "as in the
// permission requests and terminals they make", but a child's permission
// request still names the Subagent call (`call_sub`): the agent runs a
// child's tools in the scope of the outer call (agent.ts #runChild,
// `outerToolCallId`), and #askClient takes that id. The editor's dialog is
// attached to the Subagent call, with its title replaced by the child's
// description and no diff (proposedDiff of a Subagent call is nothing),
// while the child's own WriteFile call, already shown with its diff, is not
// the one asked about. The parent's own WriteFile gets a dialog with a diff.
// Expected: a child's permission request names the child's call (its diff
// shown). Fix: run each child tool call in its own scope
// (runInToolCall(childId, ...)) so currentToolCallId() is the child's, or map
// the request in #askClient to the child call being run.
Deno.test({
  name:
    "acp agent asks about a Subagent child's edit on the child's own call, with its diff",
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = delegatingServer([{
        id: "c_write",
        name: "WriteFile",
        arguments: { path: "c.txt", content: "child\n" },
      }]);
      const { client, connection } = await connect(server);
      try {
        const { sessionId } = await connection.agent.request(
          acp.methods.agent.session.new,
          { cwd: dir, mcpServers: [] },
        );
        await connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "delegate" }],
        });
        assert.equal(await Deno.readTextFile(join(dir, "c.txt")), "child\n");
        const asked = client.permissionRequests.map((r) => r.toolCall);
        assert.equal(asked.length, 1, JSON.stringify(asked));
        // The id the child's WriteFile was announced under (the model's, or
        // one derived from the Subagent call's).
        const announced = client.updatesOf("tool_call").find((u) =>
          (u.rawInput as { path?: string } | undefined)?.path === "c.txt"
        )?.toolCallId;
        assert.ok(announced, "the child's WriteFile was not announced");
        assert.equal(asked[0].toolCallId, announced);
        assert.ok(
          asked[0].content?.some((c) =>
            c.type === "diff" && c.path === join(dir, "c.txt")
          ),
          JSON.stringify(asked[0]),
        );
      } finally {
        connection.close();
      }
    });
  },
});

// Fixed fault: the live view of a local Shell (3810c47, _acp_live_shell.ts) keys
// its updates on currentToolCallId(), which inside a Subagent child is the
// Subagent call: a child's Shell running past a second sends `in_progress`
// and its output to `call_sub` (re-kinding it `execute` and replacing its
// content), while the child's own Shell call `c_shell`, shown since
// d95cdc6, stays `pending` until it completes (ids as announced: the model's
// or derived ones, see the test above). Expected: the in_progress
// update goes to the child's call and the Subagent call keeps its kind.
// Fix: as above, run a child's tools under their own call id.
Deno.test({
  name:
    "acp agent shows a Subagent child's long Shell in_progress on the child's call",
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = delegatingServer([{
        id: "c_shell",
        name: "Shell",
        arguments: { command: "echo started; sleep 1.6; echo done" },
      }]);
      const { client, connection } = await connect(server, undefined, {
        permissionMode: "allow",
      });
      try {
        const { sessionId } = await connection.agent.request(
          acp.methods.agent.session.new,
          { cwd: dir, mcpServers: [] },
        );
        await connection.agent.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: "text", text: "delegate" }],
        });
        const calls = client.updatesOf("tool_call");
        const shell = calls.find((u) => u.kind === "execute")?.toolCallId;
        const subagent = calls.find((u) => u.kind !== "execute")?.toolCallId;
        assert.ok(shell, "the child's Shell was not announced");
        const updates = client.updatesOf("tool_call_update");
        const running = updates.filter((u) => u.status === "in_progress");
        assert.ok(
          running.some((u) => u.toolCallId === shell),
          JSON.stringify(running),
        );
        assert.ok(
          !updates.some((u) =>
            u.toolCallId === subagent && u.kind === "execute"
          ),
          "the Subagent call was re-kinded execute",
        );
      } finally {
        connection.close();
      }
    });
  },
});
