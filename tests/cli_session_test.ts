// `fello run --session FILE` and `--continue`: a conversation that goes on
// across CLI invocations, run as subprocesses against the scripted server.
import assert from "node:assert/strict";
import { join } from "node:path";
import { contentText, startScriptedServer } from "./support/scripted_server.ts";
import { baseEnv, fello, MOD } from "./support/fello_cli.ts";
import { withDirs, withWorkspace } from "./support/workspace.ts";

/** A server that answers each prompt with the prompts it was sent so far. */
function echoServer() {
  return startScriptedServer([{
    match: "",
    replies: Array.from({ length: 10 }, () => ({
      compute: (request) => ({
        text: `heard: ${
          request.body.messages.filter((m) => m.role === "user")
            .map((m) => contentText(m.content) || String(m.content)).join(" | ")
        }`,
      }),
    })),
  }]);
}

Deno.test("fello run --session FILE saves the conversation and goes on with it next time", async () => {
  await withWorkspace(async (dir) => {
    await using server = echoServer();
    const run = (prompt: string) =>
      fello(
        [
          "--base-url",
          server.baseURL,
          "--model",
          "m",
          "--session",
          "s.json",
          prompt,
        ],
        { cwd: dir },
      );
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
      await using server = echoServer();
      const run = (cwd: string, prompt: string) =>
        fello(["--base-url", server.baseURL, "--model", "m", "-c", prompt], {
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
        (await fello(["--base-url", server.baseURL, "--model", "m", "a4"], {
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
    await using server = echoServer();
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
      const out = await fello(
        ["--base-url", server.baseURL, "--model", "m", "--session", name, "hi"],
        { cwd: dir },
      );
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
    await using server = echoServer();
    // Deno refuses the write: the run may write elsewhere only.
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-read",
        "--allow-net",
        "--allow-env",
        "--allow-sys",
        `--allow-write=${join(dir, "elsewhere")}`,
        MOD,
        ...["--base-url", server.baseURL, "--model", "m"],
        ...["--session", "s.json", "hi"],
      ],
      cwd: dir,
      env: baseEnv(),
      clearEnv: true,
      stdin: "null",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr);
    assert.equal(output.code, 0, stderr);
    assert.equal(new TextDecoder().decode(output.stdout), "heard: hi\n");
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
    while (server.requests.length === 0) await delay(20);
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

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
