// Saved conversations in a state folder reached through a symlink, under
// narrow Deno grants: the CLI and the session file's own operations, run as
// subprocesses. Deno checks an open file's stat against the path it really
// leads to, so a grant on the link once made every session fail to open.
import assert from "node:assert/strict";
import { join } from "node:path";
import { contentText, startScriptedServer } from "./support/scripted_server.ts";
import { baseEnv, type CliOutput, MOD } from "./support/fello_cli.ts";
import { withWorkspace } from "./support/workspace.ts";

const SESSION_FILE = new URL("../agent/session_file.ts", import.meta.url).href;

/** A temporary root holding a workspace, a state folder and a link to it. */
interface Layout {
  ws: string;
  real: string;
  link: string;
}

async function withLayout(fn: (dirs: Layout) => Promise<void>): Promise<void> {
  await withWorkspace(async (root) => {
    const dirs = {
      ws: join(root, "ws"),
      real: join(root, "real"),
      link: join(root, "link"),
    };
    await Deno.mkdir(dirs.ws);
    await Deno.mkdir(dirs.real);
    await Deno.symlink(dirs.real, dirs.link);
    await fn(dirs);
  });
}

/** A server that answers each prompt with the prompts it was sent so far. */
function echoServer() {
  return startScriptedServer([{
    match: "",
    replies: Array.from({ length: 6 }, () => ({
      compute: (request) => ({
        text: `heard: ${
          request.body.messages.filter((m) => m.role === "user")
            .map((m) => contentText(m.content) || String(m.content)).join(" | ")
        }`,
      }),
    })),
  }]);
}

/** `fello run --continue` with read and write granted on `granted` only. */
async function continueRun(
  dirs: Layout,
  options: { baseURL: string; granted: string; state: string; prompt: string },
): Promise<CliOutput> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-net=127.0.0.1",
      "--allow-env",
      "--allow-sys=hostname",
      `--allow-read=${dirs.ws},${options.granted}`,
      `--allow-write=${options.granted}`,
      MOD,
      "run",
      "--base-url",
      options.baseURL,
      "--model",
      "m",
      "--continue",
      options.prompt,
    ],
    cwd: dirs.ws,
    env: { ...baseEnv(), FELLO_STATE_DIR: options.state },
    clearEnv: true,
    stdin: "null",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

Deno.test("fello run --continue goes on with a conversation in a state folder granted through a symlink", async () => {
  await withLayout(async (dirs) => {
    await using server = echoServer();
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
  await withLayout(async (dirs) => {
    await using server = echoServer();
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

/** Each step a script takes on the session file in `dir`, and its outcome. */
const SCRIPT = `
import * as s from ${JSON.stringify(SESSION_FILE)};
const [dir] = Deno.args;
const path = dir + "/sessions/a.json";
const steps = {};
async function step(name, fn) {
  try { steps[name] = await fn(); } catch (error) { steps[name] = "error: " + error.message; }
}
let lock;
await step("hold", async () => (lock = await s.holdSession(path)) !== undefined);
await step("save", () => s.saveSession(path, { cwd: "/w", model: "m", title: "t", messages: [{ role: "user", content: "hi" }] }).then(() => true));
await step("load", async () => (await s.loadSession(path))?.title);
await step("list", async () => (await s.listSessions(dir + "/sessions")).map((l) => l.title));
await step("release", () => lock.close() ?? true);
await step("remove", () => s.removeSession(path));
// A waiter on a lock file that its holder removes, and another takes the
// path's place meanwhile, must lock the file at the path, not the old one.
await step("replaced", async () => {
  const first = await s.holdSession(path);
  const waiter = s.holdSession(path, { attempts: 40 });
  await new Promise((resolve) => setTimeout(resolve, 100));
  await Deno.remove(path + ".lock");
  await Deno.writeTextFile(path + ".lock", "");
  first.close();
  const held = await waiter;
  const other = await s.holdSession(path, { attempts: 1 })
    .then(() => "held twice", (error) => error.message.includes("another fello agent"));
  await s.releaseSession(path, held);
  return other;
});
console.log(JSON.stringify(steps));
`;

async function sessionSteps(
  flags: string[],
  script: string,
  dir: string,
): Promise<Record<string, unknown>> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", ...flags, script, dir],
    stdin: "null",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  assert.equal(output.code, 0, stderr);
  return JSON.parse(new TextDecoder().decode(output.stdout));
}

Deno.test("holdSession(), saveSession(), listSessions() and removeSession() work in a folder granted through a symlink", async () => {
  await withLayout(async (dirs) => {
    const script = join(dirs.ws, "steps.js");
    await Deno.writeTextFile(script, SCRIPT);
    const grant = [`--allow-read=${dirs.link}`, `--allow-write=${dirs.link}`];
    assert.deepEqual(await sessionSteps(grant, script, dirs.link), {
      hold: true,
      save: true,
      load: "t",
      list: ["t"],
      release: true,
      remove: true,
      replaced: true,
    });
    assert.deepEqual([...Deno.readDirSync(join(dirs.real, "sessions"))], []);
    // Written but not readable: the lock cannot be checked, and the error
    // says which grant is missing rather than that another agent holds it.
    const folder = join(dirs.real, "sessions");
    const steps = await sessionSteps(
      [`--allow-write=${dirs.real}`],
      script,
      dirs.real,
    );
    assert.equal(
      steps.hold,
      `error: Deno denies reading the session lock file "${folder}/a.json.lock": run deno again with --allow-read=${folder} (or a parent folder)`,
    );
    // Saving and listing name the folder to grant, not a temporary file.
    const advice = (access: string) =>
      `Deno denies ${access} access to "${folder}"; run deno again with --allow-${access}=${folder} (Deno checks the path as written, not where a symlink in it leads)`;
    assert.equal(steps.save, `error: ${advice("read")}`);
    assert.equal(
      steps.list,
      `error: Cannot list the saved sessions: ${advice("read")}`,
    );
    // Readable but not writable: nothing is saved, and the error says why.
    await Deno.remove(folder, { recursive: true });
    const readOnly = await sessionSteps(
      [`--allow-read=${dirs.real}`],
      script,
      dirs.real,
    );
    assert.equal(readOnly.save, `error: ${advice("write")}`);
    assert.deepEqual(readOnly.list, []);
    assert.deepEqual([...Deno.readDirSync(dirs.real)], []);
  });
});
