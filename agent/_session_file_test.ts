import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../tests/support/workspace.ts";
import { holdSession, pruneSessions, saveSession } from "./_session_file.ts";

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
