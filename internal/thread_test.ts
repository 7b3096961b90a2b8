// Worker threads of both kinds: they answer, report a failure (or a worker
// that ended itself) without ending the process, and keep the process alive
// only while they have work.
import assert from "node:assert/strict";
import {
  DEFAULT_THREAD_KIND,
  startThread,
  type Thread,
  type ThreadKind,
} from "./thread.ts";
import { join } from "node:path";
import { runDeno } from "../tests/support/run_deno.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

const ECHO = new URL("../tests/support/echo_thread.ts", import.meta.url);
const IDLE =
  new URL("../tests/support/idle_thread.ts", import.meta.url).pathname;
const KINDS: ThreadKind[] = ["web", "node"];

Deno.test("a web Worker is the default thread: Deno's ref switch for it is found", () => {
  // Should a Deno release drop the private switch, the pool falls back to
  // node:worker_threads (slower to start): this says so.
  assert.equal(DEFAULT_THREAD_KIND, "web");
});

// A started thread and the events it reported, each awaited in turn.
function start(kind: ThreadKind) {
  const messages: unknown[] = [];
  const errors: Error[] = [];
  let wake = (): void => {};
  const thread: Thread = startThread(ECHO, {
    message: (data) => (messages.push(data), wake()),
    error: (error) => (errors.push(error), wake()),
  }, kind);
  const next = async (list: unknown[]) => {
    while (list.length === 0) await new Promise<void>((r) => (wake = r));
    return list.shift();
  };
  return {
    thread,
    message: () => next(messages),
    error: () => next(errors) as Promise<Error>,
  };
}

for (const kind of KINDS) {
  Deno.test(`a ${kind} thread answers in order and takes transferred buffers`, async () => {
    const { thread, message } = start(kind);
    try {
      thread.ref();
      const buffer = new ArrayBuffer(1024);
      thread.post({ text: "one", buffer }, [buffer]);
      thread.post({ text: "two" }, []);
      assert.equal(buffer.byteLength, 0, "the buffer was moved, not copied");
      assert.deepEqual(await message(), { text: "one", bytes: 1024 });
      assert.deepEqual(await message(), { text: "two", bytes: 0 });
    } finally {
      await thread.stop();
    }
  });

  Deno.test(`a ${kind} thread reports an uncaught error in its worker and the process goes on`, async () => {
    const { thread, error } = start(kind);
    try {
      thread.ref();
      thread.post({ fail: true }, []);
      assert.match((await error()).message, /echo worker failed on request/);
    } finally {
      await thread.stop();
    }
  });

  Deno.test(`an idle ${kind} thread lets the process exit; a referenced one keeps it alive`, async () => {
    const flags = ["--allow-read", "--allow-env"];
    const { stdout } = await runDeno(flags, IDLE, [kind]);
    assert.equal(stdout.trim(), JSON.stringify({ text: "hello", bytes: 0 }));
    // Still running a second after it answered: the thread holds it.
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...flags, IDLE, kind, "ref"],
      stdout: "piped",
      stderr: "null",
    }).spawn();
    const reader = child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
    try {
      assert.match((await reader.read()).value ?? "", /hello/);
      const exited = await Promise.race([
        child.status.then(() => true),
        new Promise<false>((r) => setTimeout(() => r(false), 1000)),
      ]);
      assert.equal(
        exited,
        false,
        "the process exited with a referenced thread",
      );
    } finally {
      child.kill();
      await reader.cancel();
      await child.status;
    }
  });
}

const THREAD_PORT = new URL("./thread_port.ts", import.meta.url).href;

// A worker module that ends itself (Deno.exit) on its first message.
async function exitingWorker(ws: string): Promise<URL> {
  const path = join(ws, "exiting_worker.js");
  await Deno.writeTextFile(
    path,
    `// @ts-nocheck: a worker written by the test
import { threadPort } from ${JSON.stringify(THREAD_PORT)};
const port = await threadPort();
port.onMessage(() => Deno.exit(3));
`,
  );
  return new URL(`file://${path}`);
}

Deno.test("a node thread reports a worker that ended itself", async () => {
  await withWorkspace(async (ws) => {
    const reported = Promise.withResolvers<string>();
    const thread = startThread(await exitingWorker(ws), {
      message: () => {},
      error: (error) => reported.resolve(error.message),
    }, "node");
    // Generous: a worker starting on a loaded machine can take seconds.
    const timer = setTimeout(() => reported.resolve("unreported"), 30_000);
    try {
      thread.ref();
      thread.post({}, []);
      assert.match(await reported.promise, /exit code 3/);
    } finally {
      clearTimeout(timer);
      await thread.stop();
    }
  });
});
