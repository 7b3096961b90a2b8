import assert from "node:assert/strict";
import { join } from "node:path";
import { lockRealFile, queuedFileCount, queueForFile } from "./_file_lock.ts";

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

Deno.test("queueForFile() runs the calls on one path in the order they started, and another path at once", async () => {
  const events: string[] = [];
  const call = async (path: string, name: string, ms: number) => {
    using turn = queueForFile(path);
    await turn.wait();
    events.push(`${name} start`);
    await delay(ms);
    events.push(`${name} end`);
  };
  await Promise.all([
    call("/ws/a.txt", "a1", 30),
    call("/ws/a.txt", "a2", 0),
    call("/ws/b.txt", "b", 0),
  ]);
  assert.deepEqual(events, [
    "a1 start",
    "b start",
    "b end",
    "a1 end",
    "a2 start",
    "a2 end",
  ]);
  assert.equal(queuedFileCount(), 0);
});

Deno.test("queueForFile() is shared by every caller in the process", async () => {
  const first = queueForFile("/ws/shared.txt");
  const second = queueForFile("/ws/shared.txt");
  let granted = false;
  const waiting = second.wait().then(() => granted = true);
  await delay(5);
  assert.equal(granted, false);
  first.release();
  await waiting;
  second.release();
  assert.equal(queuedFileCount(), 0);
});

Deno.test("lockRealFile() runs one task at a time for a file reached through a symlinked folder", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.mkdir(join(dir, "pkg"));
    await Deno.symlink(join(dir, "pkg"), join(dir, "link"));
    let running = 0;
    let most = 0;
    const task = async () => {
      most = Math.max(most, ++running);
      await delay(5);
      running--;
    };
    await Promise.all(
      Array.from(
        { length: 6 },
        (_, i) =>
          lockRealFile(join(dir, i % 2 ? "link" : "pkg", "a.txt"), task),
      ),
    );
    assert.equal(most, 1);
    assert.equal(queuedFileCount(), 0);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("lockRealFile() lets the next task run after one throws", async () => {
  const path = "/nonexistent-fello-dir/a.txt";
  await assert.rejects(
    lockRealFile(path, () => Promise.reject(new Error("boom"))),
    /boom/,
  );
  assert.equal(await lockRealFile(path, () => Promise.resolve(7)), 7);
  assert.equal(queuedFileCount(), 0);
});
