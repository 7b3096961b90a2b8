import assert from "node:assert/strict";
import { join } from "node:path";
import { createLocalProcesses } from "./local_processes.ts";
import { LOG_MAX_AGE_MS } from "./_log_sweep.ts";

Deno.test("a truncated command's log removes the Shell logs older than a day, and nothing else", async () => {
  const logDir = await Deno.makeTempDir({ prefix: "log_sweep_test_" });
  try {
    const old = new Date(Date.now() - LOG_MAX_AGE_MS - 60_000);
    const files = {
      oldLog: "shell-output-old.log",
      recentLog: "shell-output-recent.log",
      oldOther: "notes-old.log",
    };
    for (const name of Object.values(files)) {
      await Deno.writeTextFile(join(logDir, name), "kept?");
    }
    await Deno.utime(join(logDir, files.oldLog), old, old);
    await Deno.utime(join(logDir, files.oldOther), old, old);

    const processes = createLocalProcesses({ logDir });
    const result = await processes.run({
      command: "sh",
      args: ["-c", "seq 1 20000"],
      cwd: logDir,
      outputByteLimit: 1000,
    });
    assert.equal(result.truncated, true);
    assert.ok(result.logPath?.startsWith(logDir));

    const left = [...Deno.readDirSync(logDir)].map((e) => e.name).sort();
    assert.deepEqual(
      left,
      [
        files.oldOther,
        files.recentLog,
        result.logPath!.slice(logDir.length + 1),
      ]
        .sort(),
    );
    const log = await Deno.readTextFile(result.logPath!);
    assert.ok(log.endsWith("19999\n20000\n"));
  } finally {
    await Deno.remove(logDir, { recursive: true });
  }
});
