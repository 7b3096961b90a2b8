// The ACP backends: files through the editor's buffers (or the disk), the
// writes a tool made, and commands in the editor's terminals.
import assert from "node:assert/strict";
import { join } from "node:path";
import type * as acp from "@agentclientprotocol/sdk";
import { createLocalFiles } from "../tools/local_files.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import {
  createAcpFiles,
  createAcpProcesses,
  recordWrites,
  type WrittenFile,
} from "./_acp_backend.ts";

/** A client answering fs requests from `buffers`, recording what it is asked. */
function fakeFsClient(buffers: Map<string, string>) {
  const calls: string[] = [];
  const client = {
    request(method: string, params: { path: string; content?: string }) {
      calls.push(`${method} ${params.path}`);
      if (method === "fs/read_text_file") {
        const content = buffers.get(params.path);
        return content === undefined
          ? Promise.reject(new Error("not open in the editor"))
          : Promise.resolve({ content });
      }
      buffers.set(params.path, params.content ?? "");
      return Promise.resolve({});
    },
  } as unknown as acp.AgentContext;
  return { client, calls };
}

async function readAll(
  files: ReturnType<typeof createAcpFiles>,
  path: string,
): Promise<string> {
  const { size } = await files.stat(path);
  const file = await files.open(path);
  const bytes = new Uint8Array(size);
  await file.read(bytes, 0);
  file.close();
  return new TextDecoder().decode(bytes);
}

Deno.test("createAcpFiles() reads and writes through the client, the disk describing the rest", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "a.txt");
    await Deno.writeTextFile(path, "on disk");
    const buffers = new Map([[path, "in the editor ✓"]]);
    const { client, calls } = fakeFsClient(buffers);
    const files = createAcpFiles({
      client,
      sessionId: "s1",
      read: true,
      write: true,
      local: createLocalFiles(),
    });
    const stat = await files.stat(path);
    assert.equal(stat.kind, "file");
    assert.equal(stat.size, new TextEncoder().encode("in the editor ✓").length);
    assert.equal(await readAll(files, path), "in the editor ✓");
    // The folder and a missing file come from the disk.
    assert.equal((await files.stat(dir)).kind, "directory");
    await assert.rejects(
      () => files.stat(join(dir, "nope")),
      Deno.errors.NotFound,
    );
    assert.deepEqual(await files.readDir(dir), ["a.txt"]);
    await files.writeFile(path, new TextEncoder().encode("new text"));
    assert.equal(buffers.get(path), "new text");
    assert.equal(await Deno.readTextFile(path), "on disk");
    assert.ok(calls.includes(`fs/write_text_file ${path}`));
  });
});

Deno.test("createAcpFiles() writes to disk when the client cannot write", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "b.txt");
    const { client, calls } = fakeFsClient(new Map());
    const files = createAcpFiles({
      client,
      sessionId: "s1",
      read: true,
      write: false,
      local: createLocalFiles(),
    });
    await files.writeFile(path, new TextEncoder().encode("local"));
    assert.equal(await Deno.readTextFile(path), "local");
    assert.ok(!calls.some((c) => c.startsWith("fs/write_text_file")));
  });
});

Deno.test("recordWrites() reports each file's text before and after", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "c.txt");
    await Deno.writeTextFile(path, "old");
    const writes: WrittenFile[] = [];
    const files = recordWrites(createLocalFiles(), (w) => writes.push(w));
    await files.writeFile(path, new TextEncoder().encode("new"));
    await files.writeFile(
      join(dir, "d.txt"),
      new TextEncoder().encode("fresh"),
    );
    assert.deepEqual(writes, [
      { path, oldText: "old", newText: "new" },
      { path: join(dir, "d.txt"), oldText: null, newText: "fresh" },
    ]);
  });
});

/** A client whose terminals exit after `exitAfterMs`, recording requests. */
function fakeTerminalClient(exitAfterMs: number) {
  const log: string[] = [];
  const client = {
    createTerminal(params: acp.CreateTerminalRequest) {
      log.push(`create ${params.command} ${JSON.stringify(params.args)}`);
      let finish: (
        exit: { exitCode: number | null; signal: string | null },
      ) => void;
      const exited = new Promise<
        { exitCode: number | null; signal: string | null }
      >(
        (resolve) => (finish = resolve),
      );
      const timer = setTimeout(
        () => finish({ exitCode: 0, signal: null }),
        exitAfterMs,
      );
      let status: { exitCode: number | null; signal: string | null } | null =
        null;
      exited.then((s) => (status = s));
      return Promise.resolve({
        id: "t1",
        waitForExit: () => exited,
        currentOutput: () =>
          Promise.resolve({
            output: "partial output\n",
            truncated: false,
            exitStatus: status,
          }),
        kill: () => {
          log.push("kill");
          clearTimeout(timer);
          finish({ exitCode: null, signal: "SIGTERM" });
          return Promise.resolve({});
        },
        release: () => {
          log.push("release");
          clearTimeout(timer);
          return Promise.resolve({});
        },
      });
    },
  } as unknown as acp.AgentContext;
  return { client, log };
}

Deno.test("createAcpProcesses() runs in a client terminal, killing it on timeout or abort", async () => {
  const terminals: string[] = [];
  const quick = fakeTerminalClient(10);
  const processes = createAcpProcesses({
    client: quick.client,
    sessionId: "s1",
    onTerminal: (_request, id) => terminals.push(id),
  });
  const done = await processes.run({
    command: "echo hi",
    cwd: "/",
    outputByteLimit: 1000,
  });
  assert.deepEqual(done, {
    exitCode: 0,
    signal: null,
    timedOut: false,
    truncated: false,
    output: "partial output\n",
  });
  assert.deepEqual(quick.log, ['create sh ["-c","echo hi"]', "release"]);
  assert.deepEqual(terminals, ["t1"]);

  const slow = fakeTerminalClient(60_000);
  const timed = await createAcpProcesses({
    client: slow.client,
    sessionId: "s1",
  }).run({
    command: "sleep",
    args: ["60"],
    cwd: "/",
    outputByteLimit: 1000,
    timeoutSeconds: 0.05,
  });
  assert.equal(timed.timedOut, true);
  assert.equal(timed.signal, "SIGTERM");
  assert.deepEqual(slow.log, ['create sleep ["60"]', "kill", "release"]);

  const aborted = fakeTerminalClient(60_000);
  const controller = new AbortController();
  const running = createAcpProcesses({
    client: aborted.client,
    sessionId: "s1",
  }).run(
    { command: "sleep", args: ["60"], cwd: "/", outputByteLimit: 1000 },
    controller.signal,
  );
  setTimeout(() => controller.abort(), 20);
  const result = await running;
  assert.equal(result.aborted, true);
  assert.equal(result.timedOut, false);
  assert.deepEqual(aborted.log, ['create sleep ["60"]', "kill", "release"]);
});
