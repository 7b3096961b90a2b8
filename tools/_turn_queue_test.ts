import assert from "node:assert/strict";
import { TurnQueue } from "./_turn_queue.ts";

/** Whether `promise` has settled after the pending microtasks ran. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false;
  promise.then(() => done = true, () => done = true);
  await new Promise((resolve) => setTimeout(resolve, 0));
  return done;
}

Deno.test("TurnQueue grants turns in the order places were taken", async () => {
  const queue = new TurnQueue();
  const turns = [queue.enter(), queue.enter(), queue.enter()];
  const order: number[] = [];
  const runs = turns.map(async (turn, i) => {
    await turn.wait();
    order.push(i);
    // Await something that finishes sooner for later turns: order still holds.
    await new Promise((resolve) => setTimeout(resolve, 30 - 10 * i));
    turn.release();
  });
  await Promise.all(runs);
  assert.deepEqual(order, [0, 1, 2]);
  assert.equal(queue.empty, true);
});

Deno.test("TurnQueue keeps a later place waiting until the earlier one leaves", async () => {
  const queue = new TurnQueue();
  const first = queue.enter();
  const second = queue.enter();
  const waiting = second.wait();
  assert.equal(await settled(waiting), false);
  first.release();
  first.release(); // twice is harmless: it does not let a third place in early
  const third = queue.enter();
  assert.equal(await settled(waiting), true);
  assert.equal(await settled(third.wait()), false);
  second[Symbol.dispose]();
  assert.equal(await settled(third.wait()), true);
  third.release();
  assert.equal(queue.empty, true);
});

Deno.test("Turn.wait() leaves the line when its signal aborts, and the place behind gets the turn", async () => {
  let emptied = 0;
  const queue = new TurnQueue(() => emptied++);
  const first = queue.enter();
  const second = queue.enter();
  const third = queue.enter();
  const controller = new AbortController();
  const secondWaits = second.wait(controller.signal);
  const thirdWaits = third.wait();
  controller.abort();
  await secondWaits; // resolves at once: the caller checks the signal
  first.release();
  assert.equal(await settled(thirdWaits), true);
  third.release();
  assert.equal(queue.empty, true);
  assert.equal(emptied, 1);
});

Deno.test("Turn.wait() with an already aborted signal leaves at once", async () => {
  const queue = new TurnQueue();
  const first = queue.enter();
  const second = queue.enter();
  await second.wait(AbortSignal.abort());
  first.release();
  assert.equal(queue.empty, true);
});
