// The CLI as a subprocess against the scripted OpenAI-compatible server, and
// on a pseudo-terminal: `fello run`, its flags and environment, sessions
// (--session, --continue), permission questions, Ctrl-C.
import assert from "node:assert/strict";
import { join } from "node:path";
import type { AgentMessage } from "../mod.ts";
import {
  callsTool,
  type ChatMessage,
  contentText,
  type RecordedRequest,
  type ScriptedReply,
  startEchoServer,
  startScriptedServer,
  toolMessages,
  unusedBaseURL,
} from "./support/scripted_server.ts";
import { waitForPid, waitUntilGone } from "./support/processes.ts";
import {
  type LinkedDirs,
  withDirs,
  withLinkedDirs,
  withWorkspace,
} from "./support/workspace.ts";
import { HAS_SCRIPT, onTerminal } from "./support/terminal.ts";
import { showOnTerminal } from "./support/screen.ts";
import { isSummarizer } from "./support/summary_script.ts";
import {
  baseEnv,
  type CliOutput,
  endpointArgs,
  fello,
  felloAt,
  felloCommandLine,
  spawnFello,
} from "./support/fello_cli.ts";
import {
  answerText,
  event,
  sse,
  startRawServer,
} from "./support/raw_endpoint.ts";
import { assertAllValid } from "./support/log_tool.ts";

function readScript(match: string) {
  return {
    match,
    replies: [
      {
        text: "Let me look.",
        toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }],
      },
      { text: "The notes say 42." },
    ],
  };
}

Deno.test('fello run "prompt" streams the answer and shows each tool call with its outcome', async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    await using server = startScriptedServer([readScript("read the notes")]);
    const out = await fello([
      "run",
      ...endpointArgs(server.baseURL),
      "--cwd",
      dir,
      "read the notes",
    ], { cwd: Deno.cwd() }); // the workspace comes from --cwd
    assert.equal(out.code, 0, out.stderr);
    assert.equal(
      out.stdout,
      "Let me look.\n● ReadFile notes.txt\n  ⎿ read 1 line (1-1)\nThe notes say 42.\n",
    );
    assert.equal(out.stderr, "");
    assert.equal(server.requests[0].body.model, "m");
    assert.match(
      contentText(server.requests[0].body.messages[0].content),
      new RegExp(`Workspace.*: ${dir}`),
    );
  });
});

Deno.test('fello "prompt" --json prints one JSON event per line, ending with finish', async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    await using server = startScriptedServer([readScript("json please")]);
    const out = await fello(
      ["--json", "--base-url", server.baseURL, "--model", "m", "json please"],
      { cwd: dir },
    );
    assert.equal(out.code, 0, out.stderr);
    const events = out.stdout.trim().split("\n").map((line) =>
      JSON.parse(line)
    );
    const types = events.map((e) => e.type);
    assert.ok(types.includes("text-delta"));
    const call = events.find((e) => e.type === "tool-call");
    assert.equal(call.toolName, "ReadFile");
    assert.equal(call.kind, "read");
    assert.deepEqual(call.input, { path: "notes.txt" });
    const result = events.find((e) => e.type === "tool-result");
    assert.equal(result.toolCallId, call.toolCallId);
    assert.match(result.modelText, /the answer is 42/);
    assert.equal(types.at(-1), "finish");
    assert.equal(events.at(-1).result.text, "The notes say 42.");
  });
});

Deno.test("fello run reads the endpoint from FELLO_* and OPENAI_* variables and finds a model", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([
      { match: "env one", replies: [{ text: "one" }] },
      { match: "env two", replies: [{ text: "two" }] },
    ]);
    const first = await fello(["env one"], {
      cwd: dir,
      env: {
        FELLO_BASE_URL: server.baseURL,
        FELLO_MODEL: "from-env",
        FELLO_API_KEY: "sk-fello",
      },
    });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, "one\n");
    assert.equal(server.requests[0].body.model, "from-env");
    assert.equal(
      server.requests[0].headers.get("authorization"),
      "Bearer sk-fello",
    );
    // OPENAI_* as the fallback; no model configured: the endpoint's first one.
    const second = await fello(["env two"], {
      cwd: dir,
      env: { OPENAI_BASE_URL: server.baseURL, OPENAI_API_KEY: "sk-openai" },
    });
    assert.equal(second.code, 0, second.stderr);
    assert.equal(server.requests[1].body.model, "scripted-model");
    assert.equal(
      server.requests[1].headers.get("authorization"),
      "Bearer sk-openai",
    );
  });
});

Deno.test("fello run in ask mode without a terminal refuses, tells the model and goes on", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "make a file",
      replies: [
        callsTool("WriteFile", { path: "new.txt", content: "x" }),
        { text: "I could not write it." },
      ],
    }]);
    const out = await felloAt(server.baseURL, ["make a file"], { cwd: dir });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /● WriteFile new\.txt\n {2}⎿ error: Refused/);
    assert.match(
      out.stderr,
      /no one to ask .*; pass --permission-mode acceptEdits or allow/,
    );
    // The model is told that nobody could be asked, not that the user refused.
    const told = contentText(toolMessages(server.requests[1])[0].content);
    assert.match(told, /Refused/);
    assert.match(told, /nobody could be asked/);
    assert.doesNotMatch(told, /by the user/);
    await assert.rejects(Deno.stat(join(dir, "new.txt")), Deno.errors.NotFound);
  });
});

Deno.test("fello run stopped by --max-steps exits 3 and says so", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    await using server = startScriptedServer([readScript("read the notes")]);
    const out = await felloAt(
      server.baseURL,
      ["--max-steps", "1", "read the notes"],
      { cwd: dir },
    );
    assert.equal(out.code, 3, out.stderr);
    assert.match(out.stdout, /\(stopped after 1 step, the step limit;/);
    assert.equal(
      out.stderr,
      "fello: stopped at the step limit (1 model call, --max-steps); the answer may be unfinished\n",
    );
  });
});

Deno.test("fello run --json reports a usage error as a JSON event too", async () => {
  await withWorkspace(async (dir) => {
    const out = await fello(
      ["--json", "--cwd", join(dir, "missing"), "hi"],
      { cwd: dir },
    );
    assert.equal(out.code, 2);
    const event = JSON.parse(out.stdout);
    assert.equal(event.type, "error");
    assert.match(event.message, /^fello run: .*missing/);
    assert.match(out.stderr, /^fello run: .*missing/);
  });
});

Deno.test("fello run with an unreachable endpoint prints one line and exits with 2", async () => {
  await withWorkspace(async (dir) => {
    const baseURL = unusedBaseURL();
    // Without a model, the model lookup fails at once; with one, after the retries.
    for (const extra of [[], ["--model", "m"]]) {
      const out = await fello(["--base-url", baseURL, ...extra, "hello"], {
        cwd: dir,
      });
      assert.equal(out.code, 2);
      assert.equal(out.stdout, "");
      const lines = out.stderr.trimEnd().split("\n");
      assert.equal(lines.length, 1, out.stderr);
      assert.match(
        lines[0],
        new RegExp(`^fello: Cannot reach the model endpoint ${baseURL}/`),
      );
      assert.match(lines[0], /--base-url \(or FELLO_BASE_URL\)/);
      assert.doesNotMatch(out.stderr, /\n\s+at /);
    }
    // With --json, scripts also get the failure as an event on stdout.
    const json = await fello(["--json", "--base-url", baseURL, "hello"], {
      cwd: dir,
    });
    assert.equal(json.code, 2);
    const event = JSON.parse(json.stdout);
    assert.equal(event.type, "error");
    assert.match(event.message, /Cannot reach the model endpoint/);
  });
});

Deno.test("fello run rejects bad options with exit code 2", async () => {
  await withWorkspace(async (dir) => {
    const mode = await fello(["--permission-mode", "sometimes", "hi"], {
      cwd: dir,
    });
    assert.equal(mode.code, 2);
    assert.match(
      mode.stderr,
      /--permission-mode must be one of ask, acceptEdits, allow, readOnly/,
    );
    const steps = await fello(["--max-steps", "0", "hi"], { cwd: dir });
    assert.equal(steps.code, 2);
    const context = await fello(["--context-tokens", "lots", "hi"], {
      cwd: dir,
    });
    assert.equal(context.code, 2);
    assert.match(context.stderr, /--context-tokens needs a whole number/);
    const empty = await fello(["run"], { cwd: dir });
    assert.equal(empty.code, 2);
    assert.match(empty.stderr, /no prompt/);
  });
});

Deno.test("fello run cancels on Ctrl-C, killing the running Shell command", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "run forever",
      replies: [
        callsTool("Shell", { command: "echo $$ > pid.txt; exec sleep 30" }),
      ],
    }]);
    const child = spawnFello([
      ...endpointArgs(server.baseURL),
      "--permission-mode",
      "allow",
      "run forever",
    ], { cwd: dir });
    const pid = await waitForPid(join(dir, "pid.txt"));
    child.kill("SIGINT");
    const output = await child.output();
    assert.equal(output.code, 130);
    assert.match(new TextDecoder().decode(output.stderr), /cancelled/);
    assert.ok(await waitUntilGone(pid), "the Shell command was killed");
  });
});

Deno.test({
  name: "fello run on a terminal holds a session and asks yes / no / always",
  ignore: !HAS_SCRIPT, // script(1) gives the CLI a pseudo-terminal
  async fn() {
    await withWorkspace(async (dir) => {
      const write = (path: string) => ({
        toolCalls: [{ name: "WriteFile", arguments: { path, content: path } }],
      });
      await using server = startScriptedServer([{
        match: "write files",
        replies: [
          write("yes.txt"),
          write("no.txt"),
          write("always.txt"),
          write("again.txt"),
          { text: "wrote them" },
          { text: "still here" },
        ],
      }]);
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("write files\n");
        await terminal.waitFor(
          /"yes\.txt"\? \[y\]es \/ \[n\]o \/ \[a\]lways: $/,
        );
        await terminal.type("y\n");
        await terminal.waitFor(/"no\.txt"\? .*: $/);
        await terminal.type("n\n");
        await terminal.waitFor(/"always\.txt"\? .*: $/);
        await terminal.type("a\n");
        // "always" covers later writes in the workspace: again.txt is not asked.
        await terminal.waitFor(
          /wrote them\n\d+ in, \d+ out · context .*\n\s+› $/,
        );
        await terminal.type("are you there?\n");
        await terminal.waitFor(
          /still here\n\d+ in, \d+ out · context .*\n\s+› $/,
        );
        await terminal.type("/exit\n");
        assert.equal(await terminal.exitCode(), 0);
        assert.doesNotMatch(terminal.screen(), /again\.txt"\?/);
      });
      assert.deepEqual(
        (await Array.fromAsync(Deno.readDir(dir))).map((e) => e.name).sort(),
        ["again.txt", "always.txt", "yes.txt"],
      );
      // The second prompt continued the same conversation.
      assert.equal(server.requests.at(-1)!.turn, 5);
    });
  },
});

Deno.test("fello run reads the prompt from piped stdin", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "piped question",
      replies: [{ text: "piped answer" }],
    }]);
    const out = await fello(["--base-url", server.baseURL, "--model", "m"], {
      cwd: dir,
      stdin: "a piped question\nover two lines\n",
    });
    assert.equal(out.code, 0, out.stderr);
    assert.equal(out.stdout, "piped answer\n");
    const user = server.requests[0].body.messages.find((m) =>
      m.role === "user"
    )!;
    assert.equal(contentText(user.content), "a piped question\nover two lines");
  });
});

Deno.test("fello run reads permission answers piped on stdin when the prompt is an argument", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "two files",
      replies: [
        {
          toolCalls: [{
            id: "call_a",
            name: "WriteFile",
            arguments: { path: "a.txt", content: "a" },
          }],
        },
        {
          toolCalls: [{
            id: "call_b",
            name: "WriteFile",
            arguments: { path: "b.txt", content: "b" },
          }],
        },
        { text: "done" },
      ],
    }]);
    const out = await felloAt(server.baseURL, ["write two files"], {
      cwd: dir,
      stdin: "y\nn\n",
    });
    const stderr = out.stderr;
    assert.equal(out.code, 0, stderr);
    assert.match(stderr, /Allow WriteFile: .*a\.txt.*\[y\]es/);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "a");
    await assert.rejects(Deno.stat(join(dir, "b.txt")), Deno.errors.NotFound);
  });
});

// ---- Sessions: --session FILE and --continue ----

Deno.test("fello run --session FILE saves the conversation and goes on with it next time", async () => {
  await withWorkspace(async (dir) => {
    await using server = startEchoServer();
    const run = (prompt: string) =>
      felloAt(server.baseURL, ["--session", "s.json", prompt], { cwd: dir });
    const first = await run("one");
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, "heard: one\n");
    const saved = JSON.parse(await Deno.readTextFile(join(dir, "s.json")));
    assert.equal(saved.kind, "fello session");
    assert.equal(saved.cwd, dir);
    assert.equal(saved.model, "m");
    assert.deepEqual(saved.messages.map((m: { role: string }) => m.role), [
      "user",
      "assistant",
    ]);
    // The first request names the conversation, for lists of them.
    assert.equal(saved.title, "one");
    const second = await run("two");
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, "heard: one | two\n");
    const after = JSON.parse(await Deno.readTextFile(join(dir, "s.json")));
    assert.equal(after.title, "one");
    // No temporary file is left beside it, only the lock's.
    const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    assert.deepEqual(names, ["s.json", "s.json.lock"]);
  });
});

Deno.test("fello run --continue keeps one conversation per workspace in the state folder", async () => {
  await withDirs(async ({ out: state, ws: a }) => {
    await withWorkspace(async (b) => {
      await using server = startEchoServer();
      const run = (cwd: string, prompt: string) =>
        felloAt(server.baseURL, ["-c", prompt], {
          cwd,
          env: { FELLO_STATE_DIR: state },
        });
      assert.equal((await run(a, "a1")).stdout, "heard: a1\n");
      assert.equal((await run(b, "b1")).stdout, "heard: b1\n");
      assert.equal((await run(a, "a2")).stdout, "heard: a1 | a2\n");
      const files = [...Deno.readDirSync(join(state, "sessions"))]
        .filter((entry) => entry.name.endsWith(".json"));
      assert.equal(files.length, 2);
      // Conversations hold file contents: readable by their user alone.
      const file = join(state, "sessions", files[0].name);
      assert.equal(Deno.statSync(file).mode! & 0o777, 0o600);
      assert.equal(Deno.statSync(join(state, "sessions")).mode! & 0o777, 0o700);
      // The same folder through a symlink goes on with the same conversation.
      const link = join(state, "link");
      await Deno.symlink(a, link);
      assert.equal((await run(link, "a3")).stdout, "heard: a1 | a2 | a3\n");
      // Without the flag nothing is read or saved.
      assert.equal(
        (await felloAt(server.baseURL, ["a4"], {
          cwd: a,
          env: { FELLO_STATE_DIR: state },
        })).stdout,
        "heard: a4\n",
      );
    });
  });
});

Deno.test("fello run --session refuses a file that is not a saved conversation and leaves it alone", async () => {
  await withWorkspace(async (dir) => {
    await using server = startEchoServer();
    const cases = {
      "notes.json": '{"a": 1}',
      "broken.json": "{",
      "damaged.json": JSON.stringify({
        kind: "fello session",
        version: 1,
        cwd: dir,
        model: "m",
        messages: [{ role: "tool", content: [] }, {
          role: "robot",
          content: "",
        }],
      }),
    };
    for (const [name, text] of Object.entries(cases)) {
      await Deno.writeTextFile(join(dir, name), text);
      const out = await felloAt(server.baseURL, ["--session", name, "hi"], {
        cwd: dir,
      });
      assert.equal(out.code, 2, name);
      assert.match(
        out.stderr,
        new RegExp(
          `Cannot go on with "${
            join(dir, name)
          }": .*give another --session file`,
        ),
      );
      assert.equal(await Deno.readTextFile(join(dir, name)), text);
    }
    assert.match(
      (await fello(["--session", "x.json", "-c", "hi"], { cwd: dir })).stderr,
      /give --session FILE or --continue, not both/,
    );
    assert.equal(server.requests.length, 0);
  });
});

Deno.test("fello run --session says so when it cannot save, and still answers", async () => {
  await withWorkspace(async (dir) => {
    await using server = startEchoServer();
    // Deno refuses the write: the run may write elsewhere only.
    const output = await felloAt(
      server.baseURL,
      ["--session", "s.json", "hi"],
      {
        cwd: dir,
        flags: [
          "--allow-read",
          "--allow-net",
          "--allow-env",
          "--allow-sys",
          `--allow-write=${join(dir, "elsewhere")}`,
        ],
      },
    );
    const stderr = output.stderr;
    assert.equal(output.code, 0, stderr);
    assert.equal(output.stdout, "heard: hi\n");
    assert.match(
      stderr,
      /^fello: could not save the conversation to "(.*)\/s\.json": Deno denies write access to "\1"; run deno again with --allow-write=\1 /,
    );
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  });
});

Deno.test("fello run --session refuses a session another fello run is using", async () => {
  await withWorkspace(async (dir) => {
    // The slow run's answer waits for the refused run to end, however long
    // a CLI takes to start on a loaded machine (a fixed delay may not cover it).
    const refusedDone = Promise.withResolvers<void>();
    await using server = startScriptedServer([{
      match: "",
      replies: [
        { text: "slow done", until: refusedDone.promise },
        { text: "fast done" },
      ],
    }]);
    const args = ["--base-url", server.baseURL, "--model", "m", "-c"];
    const env = { FELLO_STATE_DIR: join(dir, ".state") };
    const slow = fello([...args, "slow"], { cwd: dir, env });
    while (server.requests.length === 0) await sleep(20);
    const refused = await fello([...args, "fast"], { cwd: dir, env })
      .finally(() => refusedDone.resolve());
    assert.equal(refused.code, 2);
    assert.match(
      refused.stderr,
      /Cannot go on with ".*\.json": another fello agent is using it; wait for it to end, or give another --session file/,
    );
    assert.equal((await slow).stdout, "slow done\n");
    // Once it ended, the session is free and holds its turn.
    const next = await fello([...args, "fast"], { cwd: dir, env });
    assert.equal(next.code, 0, next.stderr);
    assert.equal(server.requests.at(-1)!.body.messages.length, 4);
  });
});

Deno.test("fello run --session: a refused file leaves no FILE.lock behind", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.md"), "# Notes\n");
    const out = await fello(
      [
        "--session",
        "notes.md",
        ...endpointArgs(unusedBaseURL()),
        "hi",
      ],
      { cwd: dir },
    );
    assert.equal(out.code, 2);
    assert.match(out.stderr, /notes\.md/);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), [
      "notes.md",
    ]);
  });
});

Deno.test("fello run --session keeps the steps a Ctrl-C'd run completed, and the next run goes on with them", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "notes.txt"), "the answer is 42\n");
    const secondStep = Promise.withResolvers<void>();
    await using server = startScriptedServer([{
      match: "Read the notes",
      replies: [
        callsTool("ReadFile", { path: "notes.txt" }),
        {
          compute: (request) =>
            messageText(request.body.messages.at(-1)) === "And?"
              ? { text: "It said 42." }
              : (secondStep.resolve(), { hang: true }),
        },
      ],
    }]);
    const args = ["--base-url", server.baseURL, "--model", "m"];
    const child = spawnFello(
      [...args, "--session", "s.json", "Read the notes"],
      {
        cwd: dir,
      },
    );
    await secondStep.promise;
    child.kill("SIGINT");
    const output = await child.output();
    assert.equal(output.code, 130);
    const saved = JSON.parse(await Deno.readTextFile(join(dir, "s.json")));
    assert.deepEqual(saved.messages.map((m: AgentMessage) => m.role), [
      "user",
      "assistant",
      "tool",
    ]);
    assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name).sort(), [
      "notes.txt",
      "s.json",
      "s.json.lock",
    ]);

    const next = await fello([...args, "--session", "s.json", "And?"], {
      cwd: dir,
    });
    assert.equal(next.code, 0, next.stderr);
    assert.equal(next.stdout, "It said 42.\n");
    const request = server.requests.at(-1)!;
    assertAllValid([request]);
    assert.match(messageText(request.body.messages[3]), /the answer is 42/);

    // A folder is no session file: refused, nothing asked or written.
    await Deno.mkdir(join(dir, "folder"));
    const asked = server.requests.length;
    const refused = await fello([...args, "--session", "folder", "hi"], {
      cwd: dir,
    });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /Cannot read the session file ".*folder"/);
    assert.equal(server.requests.length, asked);
    assert.deepEqual([...Deno.readDirSync(join(dir, "folder"))], []);
  });
});

/** `fello run --continue` with read and write granted on `granted` only. */
function continueRun(
  dirs: LinkedDirs,
  options: { baseURL: string; granted: string; state: string; prompt: string },
): Promise<CliOutput> {
  return felloAt(options.baseURL, ["--continue", options.prompt], {
    cwd: dirs.ws,
    env: { FELLO_STATE_DIR: options.state },
    flags: [
      "--allow-net=127.0.0.1",
      "--allow-env",
      "--allow-sys=hostname",
      `--allow-read=${dirs.ws},${options.granted}`,
      `--allow-write=${options.granted}`,
    ],
  });
}

Deno.test("fello run --continue goes on with a conversation in a state folder granted through a symlink", async () => {
  await withLinkedDirs(async (dirs) => {
    await using server = startEchoServer(6);
    const run = (prompt: string) =>
      continueRun(dirs, {
        baseURL: server.baseURL,
        granted: dirs.link,
        state: dirs.link,
        prompt,
      });
    const first = await run("one");
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, "heard: one\n");
    // The first run let go of its lock: the second holds it and goes on.
    const second = await run("two");
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, "heard: one | two\n");
    const saved = [...Deno.readDirSync(join(dirs.real, "sessions"))]
      .map((entry) => entry.name).filter((name) => name.endsWith(".json"));
    assert.equal(saved.length, 1);
  });
});

Deno.test("fello run --continue names the path and the flag when the grant is on the other side of the symlink", async () => {
  await withLinkedDirs(async (dirs) => {
    await using server = startEchoServer(6);
    const cases = [
      { granted: dirs.real, state: dirs.link },
      { granted: dirs.link, state: dirs.real },
    ];
    for (const { granted, state } of cases) {
      const out = await continueRun(dirs, {
        baseURL: server.baseURL,
        granted,
        state,
        prompt: "one",
      });
      assert.equal(out.code, 2, out.stderr);
      assert.equal(out.stdout, "");
      const folder = join(state, "sessions");
      assert.match(
        out.stderr,
        new RegExp(
          `fello run: Cannot read the session file "${folder}/[0-9a-f]{16}\\.json": Deno denies reading it; run deno again with --allow-read=${folder} `,
        ),
      );
      assert.doesNotMatch(out.stderr, /\n\s+at /);
    }
    // Refused before anything was written.
    assert.deepEqual([...Deno.readDirSync(dirs.real)], []);
    assert.equal(server.requests.length, 0);
  });
});

// ---- Questions on a narrow terminal ----
// A permission question longer than a row wraps over several rows. A result
// line that arrives while it waits is printed above it and the question shown
// again below; the terminal then shows the question once, not its old rows.

const COLUMNS = 40;
// 80 columns wide, yet three rows at 40: "候" would take the 40th and 41st
// columns, so it starts the second row and leaves the 40th empty.
const COMMAND = "echo 你好，世界! > 问候1234567.txt";
const QUESTION = `Allow Shell: Run "${COMMAND}"? [y]es / [n]o / [a]lways:`;

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

// ---- Questions on a terminal ----

/** One step of three calls, each asked about. */
const THREE_CALLS = {
  match: "three calls",
  replies: [{
    toolCalls: [
      writeCall("a.txt", "a"),
      { name: "Shell", arguments: { command: "echo hi > s.txt" } },
      writeCall("b.txt", "b"),
    ],
  }],
};

Deno.test({
  name:
    "fello run on a terminal: Ctrl-C at the second question of a step asks no more of it, writes nothing more, and the session goes on",
  ignore: !HAS_SCRIPT,
  async fn() {
    await withWorkspace(async (dir) => {
      // The cancelled prompt stays in the conversation, so the next one
      // goes on in it (turn 1, after the mark of the cancel).
      await using server = startScriptedServer([{
        match: THREE_CALLS.match,
        replies: [...THREE_CALLS.replies, { text: "still here" }],
      }]);
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("three calls\n");
        await terminal.waitFor(/"a\.txt"\? \[y\]es \/ \[n\]o \/ \[a\]lways: $/);
        await terminal.type("y\n");
        await terminal.waitFor(/Allow Shell: .*\[a\]lways: /);
        await sleep(300);
        await terminal.type("\x03");
        await terminal.waitFor(/fello: cancelled\n\n› $/);
        await terminal.type("are you there?\n");
        await terminal.waitFor(
          /still here\n\d+ in, \d+ out · context \d+% full .*\n\n› $/,
        );
        await terminal.type("/exit\n");
        assert.equal(await terminal.exitCode(), 0);
        const screen = terminal.screen();
        assert.doesNotMatch(screen, /b\.txt"\?/, "asked after the cancel");
      });
      // The model sees what was asked and that it was cancelled.
      const roles = server.requests.at(-1)!.body.messages.map((m) =>
        `${m.role}: ${contentText(m.content)}`
      );
      assert.deepEqual(roles.slice(1, 3), [
        "user: three calls",
        "assistant: [The user cancelled this request before it was finished.]",
      ]);
      assert.equal(roles.at(-1), "user: are you there?");
      assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "a");
      for (const name of ["s.txt", "b.txt"]) {
        await assert.rejects(Deno.stat(join(dir, name)), Deno.errors.NotFound);
      }
    });
  },
});

Deno.test({
  name:
    "fello run on a terminal: a question waiting for its answer stays the last line, not followed by an earlier call's result",
  ignore: !HAS_SCRIPT,
  async fn() {
    await withWorkspace(async (dir) => {
      await using server = startScriptedServer([THREE_CALLS]);
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("three calls\n");
        await terminal.waitFor(/"a\.txt"\? \[y\]es \/ \[n\]o \/ \[a\]lways: $/);
        await terminal.type("y\n");
        await terminal.waitFor(/Allow Shell: .*\[a\]lways: /);
        await sleep(1_000); // the first call's result has come by now
        assert.match(
          terminal.screen(),
          /Allow Shell: Run "echo hi > s\.txt"\? \[y\]es \/ \[n\]o \/ \[a\]lways: $/,
        );
        await terminal.type("\x03");
      });
    });
  },
});

Deno.test({
  name:
    "fello run (interactive): /help is a command, not a prompt for the model",
  ignore: !HAS_SCRIPT,
  async fn() {
    await using server = startScriptedServer([
      { match: "", replies: [{ text: "model answer" }] },
    ]);
    await withWorkspace(async (dir) => {
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("/help\n");
        await terminal.waitFor(/\/reset[^]*› $/);
        await terminal.type("/exit\n");
        assert.equal(await terminal.exitCode(), 0, terminal.screen());
      });
      const prompts = server.requests.flatMap((r) =>
        r.body.messages.filter((m) => m.role === "user")
          .map((m) => contentText(m.content))
      );
      assert.deepEqual(prompts, []);
    });
  },
});

Deno.test({
  name: "fello run: an unrecognised answer to a permission question asks again",
  ignore: !HAS_SCRIPT,
  async fn() {
    await using server = startScriptedServer([{
      match: "write it",
      replies: [
        callsTool("WriteFile", { path: "w.txt", content: "x\n" }),
        { text: "done" },
      ],
    }]);
    await withWorkspace(async (dir) => {
      await onTerminal(dir, server.baseURL, async (terminal) => {
        await terminal.waitFor(/› $/);
        await terminal.type("write it\n");
        await terminal.waitFor(/\[a\]lways: $/);
        await terminal.type("maybe\n");
        await terminal.waitFor(/not an answer\.[^]*\[a\]lways: $/);
        await terminal.type("y\n");
        await terminal.waitFor(
          /done\n\d+ in, \d+ out · context \d+% full .*\n\n› $/,
        );
        await terminal.type("/exit\n");
        await terminal.exitCode();
      });
      assert.equal(await Deno.readTextFile(join(dir, "w.txt")), "x\n");
    });
  },
});

Deno.test("fello run with piped answers asks a step's calls in order and shows CJK paths plainly, a tab escaped", async () => {
  await withWorkspace(async (dir) => {
    await using server = startScriptedServer([{
      match: "three calls",
      replies: [{
        toolCalls: [
          writeCall("a.txt", "a"),
          { name: "Shell", arguments: { command: "printf 'x\ty' > t.txt" } },
          writeCall("日本語.txt", "b"),
        ],
      }, { text: "done" }],
    }]);
    const out = await felloAt(server.baseURL, ["three calls"], {
      cwd: dir,
      stdin: "y\nn\ny\n",
    });
    assert.equal(out.code, 0, out.stderr);
    const asked = [...out.stderr.matchAll(/Allow (\w+): (.*?)\?/g)]
      .map((m) => `${m[1]}: ${m[2]}`);
    assert.deepEqual(asked, [
      'WriteFile: Write 1 bytes to "a.txt"',
      "Shell: Run \"printf 'x\\ty' > t.txt\"",
      'WriteFile: Write 1 bytes to "日本語.txt"',
    ]);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "a");
    assert.equal(await Deno.readTextFile(join(dir, "日本語.txt")), "b");
    await assert.rejects(Deno.stat(join(dir, "t.txt")), Deno.errors.NotFound);
  });
});

// ---- Endpoint failures, typos and pipes ----

Deno.test("fello run: an HTML error page from the endpoint is reported on one line", async () => {
  const page = "<!DOCTYPE html>\n<html>\n<head><title>404 Not Found</title>" +
    "</head>\n<body>\n<h1>Not Found</h1>\n</body>\n</html>\n";
  await using server = startRawServer(() =>
    new Response(page, {
      status: 404,
      headers: { "content-type": "text/html" },
    })
  );
  await withWorkspace(async (dir) => {
    const out = await felloAt(server.baseURL, ["hello"], { cwd: dir });
    assert.equal(out.code, 2);
    assert.match(out.stderr, /404/);
    assert.doesNotMatch(out.stderr, /<html|<!DOCTYPE/i);
    assert.equal(out.stderr.trim().split("\n").length, 1, out.stderr);
  });
});

Deno.test("fello: a mistyped subcommand is refused with a suggestion, not sent to the model", async () => {
  await withWorkspace(async (dir) => {
    for (const [typo, command] of [["outlin", "outline"], ["mpc", "mcp"]]) {
      const out = await fello(
        [typo, "README.md", "--base-url", unusedBaseURL(), "--model", "m"],
        { cwd: dir },
      );
      assert.equal(out.code, 2, typo);
      assert.doesNotMatch(out.stderr, /Cannot reach the model endpoint/);
      assert.match(out.stderr, new RegExp(`"?${command}"?`));
    }
  });
});

Deno.test("fello run on a 429 with a long Retry-After says how long to wait, not to start the server", async () => {
  await withWorkspace(async (dir) => {
    await using server = startRawServer(() =>
      Response.json(
        { error: { message: "Rate limit reached for requests" } },
        { status: 429, headers: { "retry-after": "120" } },
      )
    );
    const out = await felloAt(server.baseURL, ["hello"], { cwd: dir });
    assert.equal(out.code, 2, out.stderr);
    assert.match(out.stderr, /429/);
    assert.match(out.stderr, /120 ?s/, "the requested wait is named");
    assert.doesNotMatch(
      out.stderr,
      /start the server/,
      "the server is up: the hint fits a rate limit",
    );
  });
});

Deno.test("fello run --json whose reader closes the pipe exits without a stack trace", async () => {
  await withWorkspace(async (dir) => {
    await using server = startRawServer((n) =>
      n === 0
        ? sse(
          event({ role: "assistant", content: "" }) +
            event({
              tool_calls: [{
                index: 0,
                id: "call_1",
                type: "function",
                function: {
                  name: "Shell",
                  arguments: JSON.stringify({ command: "sleep 0.3; echo" }),
                },
              }],
            }) + event({}, "tool_calls") + "data: [DONE]\n\n",
        )
        : sse(answerText("done ".repeat(200)))
    );
    const fello = felloCommandLine([
      ...endpointArgs(server.baseURL),
      "--permission-mode",
      "allow",
      "--json",
      "talk",
    ]);
    const output = await new Deno.Command("bash", {
      args: ["-c", `${fello} | head -c 50 >/dev/null`],
      cwd: dir,
      env: baseEnv(),
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.doesNotMatch(stderr, /Uncaught|\n\s+at /, stderr);
  });
});

Deno.test("fello run on a context-length 400 points at --context-tokens, not at starting the server", async () => {
  await withWorkspace(async (dir) => {
    await using server = startRawServer(() =>
      Response.json({
        object: "error",
        message:
          "This model's maximum context length is 4096 tokens. However, you requested 9120 tokens (8096 in the messages, 1024 in the completion). Please reduce the length of the messages or completion.",
        type: "BadRequestError",
        code: 400,
      }, { status: 400 })
    );
    const out = await felloAt(server.baseURL, ["hello"], { cwd: dir });
    assert.equal(out.code, 2, out.stderr);
    assert.match(out.stderr, /maximum context length is 4096/);
    assert.match(out.stderr, /--context-tokens/);
    assert.doesNotMatch(out.stderr, /start the server/);
  });
});

// ---- What a run reports ----

const BUDGET = 20_000; // tokens

Deno.test("fello run prints a line when the conversation is summarized in the middle of a run", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(`${dir}/notes.txt`, "note\n");
    const step = (r: RecordedRequest): ScriptedReply => {
      const said = [...JSON.stringify(r.body.messages).matchAll(/Step (\d+)/g)]
        .map((m) => Number(m[1]));
      const index = said.length === 0 ? 0 : Math.max(...said) + 1;
      return index < 14
        ? {
          text: `Step ${index}: ${"thinking aloud ".repeat(400)}`,
          toolCalls: [{ name: "ReadFile", arguments: { path: "notes.txt" } }],
        }
        : { text: "all read" };
    };
    await using server = startScriptedServer([
      { match: "## User", replies: [{ text: "SUMMARY: notes read" }] },
      {
        match: "",
        replies: Array.from({ length: 20 }, () => ({ compute: step })),
      },
    ]);
    const out = await fello([
      "run",
      ...endpointArgs(server.baseURL),
      "--cwd",
      dir,
      "--permission-mode",
      "readOnly",
      "--context-tokens",
      String(BUDGET),
      "--max-steps",
      "20",
      "Read the notes again and again",
    ], { cwd: dir });
    assert.equal(out.code, 0, out.stderr);
    assert.match(
      out.stdout,
      /\n\(summarized the oldest \d+ messages to stay within the context: about \d+ → \d+ tokens\)\n/,
    );
    assert.match(out.stdout, /all read\n$/);
    assert.equal(server.requests.filter(isSummarizer).length, 1);
  });
});

function messageText(message: ChatMessage | undefined): string {
  return contentText(message?.content) || String(message?.content ?? "");
}

function writeCall(path: string, content: string) {
  return { name: "WriteFile", arguments: { path, content } };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
