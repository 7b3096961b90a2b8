import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../tests/support/workspace.ts";
import {
  holdSession,
  listSessions,
  loadSession,
  pruneSessions,
  removeSession,
  saveSession,
  sessionTitle,
} from "./_session_file.ts";

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
    const held = await holdSession(join(dir, "a.json"));
    try {
      assert.equal(await pruneSessions(dir, 2), 2);
    } finally {
      held?.close();
    }
    const left = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    // a is in use and stays (with its lock file); b and c go.
    assert.deepEqual(left, [
      "a.json",
      "a.json.lock",
      "d.json",
      "e.json",
      "notes.txt",
    ]);
    assert.equal(await pruneSessions(join(dir, "missing"), 2), 0);
  });
});

Deno.test("listSessions() reads each file's header only, newest first, and skips what is not a session", async () => {
  await withWorkspace(async (dir) => {
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
    await new Promise((resolve) => setTimeout(resolve, 5));
    await saveSession(join(dir, "new.json"), {
      cwd: "/work/b",
      model: "m",
      messages: [],
    });
    // Written with the messages first, as no version of ours does: read whole.
    await Deno.writeTextFile(
      join(dir, "odd.json"),
      JSON.stringify({
        messages: [],
        kind: "fello session",
        version: 1,
        updated: "2000-01-01T00:00:00.000Z",
        cwd: "/work/c",
        model: "m",
      }),
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
        { path: join(dir, "odd.json"), cwd: "/work/c", title: undefined },
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
        /another fello process is using it; close it there first/,
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
});
