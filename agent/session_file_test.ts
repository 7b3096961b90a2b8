// The session file's operations: save, load, hold, list, prune and remove,
// in the process and, under narrow Deno grants, in a child process.
import assert from "node:assert/strict";
import { join } from "node:path";
import { runDeno } from "../tests/support/run_deno.ts";
import { withLinkedDirs, withWorkspace } from "../tests/support/workspace.ts";
import {
  holdSession,
  listSessions,
  loadSession,
  pruneSessions,
  removeSession,
  saveSession,
  sessionTitle,
} from "./session_file.ts";

Deno.test("pruneSessions() removes the oldest saved sessions beyond the newest ones, never one in use", async () => {
  await withWorkspace(async (dir) => {
    const names = ["a", "b", "c", "d", "e"];
    for (const [i, name] of names.entries()) {
      const path = join(dir, `${name}.json`);
      await saveSession(path, { cwd: dir, model: "m", messages: [] });
      // a is the oldest, e the newest.
      await Deno.utime(path, 1_000 + i, 1_000 + i);
    }
    await Deno.writeTextFile(join(dir, "notes.txt"), "not a session");
    // Lock files of sessions never saved: one left by a crash, one open.
    await Deno.writeTextFile(join(dir, "crashed.json.lock"), "");
    // Temporary files of saves: one a crash left an hour ago, one under way.
    await Deno.writeTextFile(join(dir, "d.json.0123abcd.tmp"), "{");
    await Deno.utime(join(dir, "d.json.0123abcd.tmp"), 1_000, 1_000);
    await Deno.writeTextFile(join(dir, "e.json.89abcdef.tmp"), "{");
    const open = await holdSession(join(dir, "open.json"));
    const held = await holdSession(join(dir, "a.json"));
    try {
      assert.equal(await pruneSessions(dir, 2), 2);
    } finally {
      held?.close();
      open?.close();
    }
    const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    // a is in use and stays (with its lock file); b and c go, and so do
    // the crashed session's lock file and the crashed save's temporary file.
    assert.deepEqual(left, [
      "a.json",
      "a.json.lock",
      "d.json",
      "e.json",
      "e.json.89abcdef.tmp",
      "notes.txt",
      "open.json.lock",
    ]);
    assert.equal(await pruneSessions(join(dir, "missing"), 2), 0);
  });
});

Deno.test("listSessions() reads each file's header only, newest first, and skips what is not a session", async () => {
  await withWorkspace(async (dir) => {
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    // Ours, with a header longer than a listing reads: parsed whole.
    const deep = `/work/${"d/".repeat(10_000)}c`;
    await saveSession(join(dir, "deep.json"), {
      cwd: deep,
      model: "m",
      messages: [],
    });
    await pause();
    const big = "x".repeat(100_000);
    const messages = [{ role: "user" as const, content: big }];
    // A title that spells the key the header ends at, escaped in JSON.
    const tricky = 'about ,"messages": in a title';
    await saveSession(join(dir, "old.json"), {
      cwd: "/work/a",
      model: "m",
      title: tricky,
      messages,
    });
    await pause();
    await saveSession(join(dir, "new.json"), {
      cwd: "/work/b",
      model: "m",
      messages: [],
    });
    // Not ours (messages first, a later version, broken, another kind): left out.
    await Deno.writeTextFile(
      join(dir, "odd.json"),
      JSON.stringify({ messages: [], kind: "fello session", version: 1 }),
    );
    await Deno.writeTextFile(
      join(dir, "later.json"),
      JSON.stringify({ kind: "fello session", version: 2, cwd: "/x" }),
    );
    await Deno.writeTextFile(join(dir, "broken.json"), "{ not json");
    await Deno.writeTextFile(join(dir, "other.json"), '{"kind":"other"}');
    await Deno.writeTextFile(join(dir, "notes.txt"), "not a session");
    const listed = await listSessions(dir);
    assert.deepEqual(
      listed.map(({ path, cwd, title }) => ({ path, cwd, title })),
      [
        { path: join(dir, "new.json"), cwd: "/work/b", title: undefined },
        { path: join(dir, "old.json"), cwd: "/work/a", title: tricky },
        { path: join(dir, "deep.json"), cwd: deep, title: undefined },
      ],
    );
    assert.ok(!Number.isNaN(Date.parse(listed[0].updated)));
    assert.ok(listed[0].updated > listed[1].updated);
    // The title goes with the conversation, which loads as before.
    const loaded = await loadSession(join(dir, "old.json"));
    assert.equal(loaded?.title, tricky);
    assert.equal(loaded?.messages[0].content, big);
    assert.deepEqual(await listSessions(join(dir, "missing")), []);
  });
});

Deno.test("removeSession() removes a session and its lock, not one another process holds", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "s.json");
    await saveSession(path, { cwd: dir, model: "m", messages: [] });
    const held = await holdSession(path);
    try {
      await assert.rejects(
        removeSession(path, { hint: "close it there first", attempts: 1 }),
        /another fello agent is using it; close it there first/,
      );
    } finally {
      held?.close();
    }
    assert.equal(await removeSession(path), true);
    assert.deepEqual([...Deno.readDirSync(dir)], []);
    assert.equal(await removeSession(path), false);
  });
});

Deno.test("sessionTitle() takes the first line that says something, cut to 80 characters", () => {
  assert.equal(
    sessionTitle("\n  Fix   the\tbuild \nthen test"),
    "Fix the build",
  );
  assert.equal(sessionTitle(" \n\t"), undefined);
  const long = sessionTitle("a".repeat(200));
  assert.equal(long, `${"a".repeat(79)}…`);
  // An emoji across the cut goes whole, not halved.
  const emoji = sessionTitle(`${"a".repeat(78)}😀${"b".repeat(20)}`);
  assert.equal(emoji, `${"a".repeat(78)}…`);
});

Deno.test({
  name:
    "holdSession() waiting on a session that is removed meanwhile locks the new file, never the old",
  // Windows neither removes an open file nor reports inode numbers.
  ignore: Deno.build.os === "windows",
  fn: () => waitOnRemovedSession(),
});

async function waitOnRemovedSession(): Promise<void> {
  await withWorkspace(async (dir) => {
    const path = join(dir, "s.json");
    await saveSession(path, { cwd: dir, model: "m", messages: [] });
    const first = await holdSession(path);
    assert.ok(first);
    // A waiter opens the lock file, then the holder removes the session
    // (lock file first) and lets go.
    const waiting = holdSession(path, { attempts: 20 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    await Deno.remove(`${path}.lock`);
    await Deno.remove(path);
    first.close();
    const second = await waiting;
    assert.ok(second);
    try {
      // The waiter holds the file now at the path: a third process is kept out.
      const info = await Deno.stat(`${path}.lock`);
      assert.equal((await second.stat()).ino, info.ino);
      await assert.rejects(
        holdSession(path, { attempts: 1 }),
        /another fello agent is using it/,
      );
    } finally {
      second.close();
    }
  });
}

Deno.test("loadSession() refuses a big file that is not a session from its start, and loads a reformatted one", async () => {
  await withWorkspace(async (dir) => {
    const log = join(dir, "big.log");
    await Deno.writeTextFile(log, "log line\n".repeat(5_000));
    await assert.rejects(
      loadSession(log),
      /Cannot go on with ".*big\.log": it is not a fello session file/,
    );
    const path = join(dir, "s.json");
    const messages = [{ role: "user" as const, content: "x".repeat(20_000) }];
    await saveSession(path, { cwd: dir, model: "m", messages });
    const pretty = join(dir, "pretty.json");
    const saved = JSON.parse(await Deno.readTextFile(path));
    await Deno.writeTextFile(pretty, JSON.stringify(saved, null, 2));
    assert.deepEqual((await loadSession(pretty))?.messages, messages);
    assert.deepEqual((await loadSession(path))?.messages, messages);
  });
});

const SESSION_FILE = new URL("./session_file.ts", import.meta.url).href;

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

/** Runs the steps script under `flags` on the folder `dir`; each step's outcome. */
async function sessionSteps(
  flags: string[],
  script: string,
  dir: string,
): Promise<Record<string, unknown>> {
  return JSON.parse((await runDeno(flags, script, [dir])).stdout);
}

Deno.test("holdSession(), saveSession(), listSessions() and removeSession() work in a folder granted through a symlink", async () => {
  await withLinkedDirs(async (dirs) => {
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
