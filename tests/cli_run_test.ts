// The "run" command as a subprocess (deno run -A mod.ts ...) against the
// scripted OpenAI-compatible server.
import assert from "node:assert/strict";
import { join } from "node:path";
import {
  contentText,
  startScriptedServer,
  toolMessages,
  unusedBaseURL,
} from "./support/scripted_server.ts";
import { waitForPid, waitUntilGone } from "./support/processes.ts";
import { withWorkspace } from "./support/workspace.ts";
import { HAS_SCRIPT, onTerminal } from "./support/terminal.ts";
import { fello, MOD } from "./support/fello_cli.ts";

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
    const out = await fello(
      [
        "run",
        "--base-url",
        server.baseURL,
        "--model",
        "m",
        "--cwd",
        dir,
        "read the notes",
      ],
      { cwd: Deno.cwd() }, // the workspace comes from --cwd
    );
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
        {
          toolCalls: [{
            name: "WriteFile",
            arguments: { path: "new.txt", content: "x" },
          }],
        },
        { text: "I could not write it." },
      ],
    }]);
    const out = await fello([
      "--base-url",
      server.baseURL,
      "--model",
      "m",
      "make a file",
    ], { cwd: dir });
    assert.equal(out.code, 0, out.stderr);
    assert.match(out.stdout, /● WriteFile new\.txt\n {2}⎿ error: Refused/);
    assert.match(
      out.stderr,
      /no one to ask .*; pass --permission-mode acceptEdits or allow/,
    );
    assert.match(
      contentText(toolMessages(server.requests[1])[0].content),
      /Refused/,
    );
    await assert.rejects(Deno.stat(join(dir, "new.txt")), Deno.errors.NotFound);
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
      replies: [{
        toolCalls: [{
          name: "Shell",
          arguments: { command: "echo $$ > pid.txt; exec sleep 30" },
        }],
      }],
    }]);
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        MOD,
        "--base-url",
        server.baseURL,
        "--model",
        "m",
        "--permission-mode",
        "allow",
        "run forever",
      ],
      cwd: dir,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
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
        await terminal.waitFor(/wrote them\s+› $/);
        await terminal.type("are you there?\n");
        await terminal.waitFor(/still here\s+› $/);
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
    const out = await fello(
      ["--base-url", server.baseURL, "--model", "m", "write two files"],
      { cwd: dir, stdin: "y\nn\n" },
    );
    const stderr = out.stderr;
    assert.equal(out.code, 0, stderr);
    assert.match(stderr, /Allow WriteFile: .*a\.txt.*\[y\]es/);
    assert.equal(await Deno.readTextFile(join(dir, "a.txt")), "a");
    await assert.rejects(Deno.stat(join(dir, "b.txt")), Deno.errors.NotFound);
  });
});
