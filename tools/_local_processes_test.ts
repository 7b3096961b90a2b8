import assert from "node:assert/strict";
import { createLocalProcesses } from "./_local_processes.ts";

Deno.test("createLocalProcesses() keeps memory bounded for 128 MB of output", async () => {
  const logDir = await Deno.makeTempDir({ prefix: "local_processes_test_" });
  try {
    const processes = createLocalProcesses({ logDir });
    const before = Deno.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, Deno.memoryUsage().rss);
    }, 5);
    let result;
    try {
      result = await processes.run({
        command:
          "yes 'a line of build output that goes on for a while' | head -c 134217728",
        cwd: logDir,
        outputByteLimit: 65536,
      });
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, Deno.memoryUsage().rss);
    assert.equal(result.truncated, true);
    assert.equal((await Deno.stat(result.logPath!)).size, 134217728);
    const growth = (peak - before) / 2 ** 20;
    // Buffering the output would grow RSS by at least 128 MB.
    assert.ok(growth < 48, `peak RSS grew by ${growth.toFixed(1)} MB`);
  } finally {
    await Deno.remove(logDir, { recursive: true });
  }
});

Deno.test("createLocalProcesses() rejects a call aborted before it starts", async () => {
  const processes = createLocalProcesses();
  await assert.rejects(
    processes.run(
      { command: "echo hi", cwd: Deno.cwd(), outputByteLimit: 100 },
      AbortSignal.abort(),
    ),
    /Did not run "echo hi": the call was aborted before it started/,
  );
});

Deno.test("createLocalProcesses() reports a cwd that is a file", async () => {
  const file = await Deno.makeTempFile();
  try {
    await assert.rejects(
      createLocalProcesses().run({
        command: "pwd",
        args: [],
        cwd: file,
        outputByteLimit: 100,
      }),
      /Cannot run "pwd": ".*" is not a folder/,
    );
  } finally {
    await Deno.remove(file);
  }
});
