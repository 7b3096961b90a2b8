// startThread(): a worker that ends itself (Deno.exit, close()) is reported
// to the thread's owner as an exit code, by both kinds of thread.
import assert from "node:assert/strict";
import { startThread, type ThreadKind } from "./thread.ts";

const ECHO = new URL("../tests/support/echo_thread.ts", import.meta.url);

// The error a thread of `kind` reports once its worker is sent `request`,
// and the messages it reported.
async function reportedEnd(
  kind: ThreadKind,
  request: Record<string, unknown>,
): Promise<{ error: string; messages: unknown[] }> {
  const messages: unknown[] = [];
  const reported = Promise.withResolvers<string>();
  const thread = startThread(ECHO, {
    message: (data) => messages.push(data),
    error: (error) => reported.resolve(error.message),
  }, kind);
  try {
    thread.ref();
    thread.post({ text: "first" }, []);
    thread.post(request, []);
    return { error: await reported.promise, messages };
  } finally {
    await thread.stop();
  }
}

for (const kind of ["web", "node"] as const) {
  Deno.test(`startThread() reports a ${kind} worker that ended itself with Deno.exit()`, async () => {
    const { error, messages } = await reportedEnd(kind, { exit: 3 });
    assert.match(error, /exit code 3/);
    assert.deepEqual(messages, [{ text: "first", bytes: 0 }]);
  });
}

Deno.test("startThread() reports a web worker that closed itself", async () => {
  const { error, messages } = await reportedEnd("web", { close: true });
  assert.match(error, /exit code 0/);
  assert.deepEqual(messages, [{ text: "first", bytes: 0 }]);
});
