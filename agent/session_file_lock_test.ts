// holdSession() and removeSession() across processes: one holder at a time,
// whatever order the others take, remove and re-open the lock file in.
import assert from "node:assert/strict";
import { join } from "node:path";
import { Holder } from "../tests/support/session_holder.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Has `holder` take the session, then save it when `save` is a command. */
async function holding(holder: Holder, save?: string): Promise<void> {
  assert.equal(await holder.send("hold 1"), "held");
  if (save) assert.equal(await holder.send(save), "saved");
}

Deno.test("holdSession() keeps one holder across processes when a holder removes the lock file", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "s.json");
    await using a = new Holder(path);
    await using b = new Holder(path);
    await using c = new Holder(path);
    await holding(a, "save");
    // b opens the lock file a holds and waits on it ...
    const bHeld = b.send("hold 40");
    await sleep(150);
    // ... while a removes it, as removeSession() does under the lock.
    assert.equal(await a.send("unlink-close"), "unlinked");
    assert.equal(await bHeld, "held");
    // b holds the file now at the path: nobody else gets it, nor removes it.
    assert.match(
      await c.send("hold 1"),
      /^error Cannot go on with ".*s\.json": another fello agent is using it/,
    );
    assert.match(await c.send("remove 1"), /another fello agent is using it/);
    assert.ok(await Deno.stat(`${path}.lock`));
    // A delete waiting for b removes both files once b lets go.
    const removed = c.send("remove 40");
    await sleep(100);
    assert.equal(await b.send("close"), "closed");
    assert.equal(await removed, "removed true");
    assert.deepEqual([...Deno.readDirSync(dir)], []);
  });
});

Deno.test("holdSession() takes a lock file left free by a delete on its last attempt", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "s.json");
    await using a = new Holder(path);
    await using b = new Holder(path);
    await holding(a);
    // b's first attempt fails; a lets go before its second (last) one.
    assert.equal(await b.send("hold-gated 2"), "waiting");
    assert.equal(await a.send("unlink-close"), "unlinked");
    assert.equal(await b.send("go"), "held");
  });
});

Deno.test("holdSession() is refused while removeSession() is between its steps", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "s.json");
    await using a = new Holder(path);
    await using c = new Holder(path);
    await holding(a, "save 1");
    // Between the steps (session file gone, lock file held): refused.
    assert.equal(await a.send("drop"), "dropped");
    assert.match(await c.send("hold 1"), /another fello agent is using it/);
    // After them: held, with no conversation left to go on with.
    assert.equal(await a.send("unlink-close"), "unlinked");
    assert.equal(await c.send("hold 1"), "held");
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
  });
});
