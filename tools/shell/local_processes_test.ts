import { isAlive } from "../../tests/support/processes.ts";
import assert from "node:assert/strict";
import { createLocalProcesses } from "./local_processes.ts";

// Measured in a child Deno process: RSS is shared by every test running in
// parallel in this one, and VmHWM gives the true peak without sampling.
const MEMORY_PROBE = String.raw`
import { createLocalProcesses } from ${
  JSON.stringify(import.meta.resolve("./local_processes.ts"))
};
const kb = (field) => Number(Deno.readTextFileSync("/proc/self/status").split("\n").find((line) => line.startsWith(field + ":")).slice(field.length + 1).trim().split(" ")[0]);
const before = kb("VmRSS");
const result = await createLocalProcesses({ logDir: Deno.args[0] }).run({
  command: "yes 'a line of build output that goes on for a while' | head -c 134217728",
  cwd: Deno.args[0],
  outputByteLimit: 65536,
});
const size = (await Deno.stat(result.logPath)).size;
console.log(JSON.stringify({ growthMb: (kb("VmHWM") - before) / 1024, truncated: result.truncated, size }));
`;

Deno.test("createLocalProcesses() keeps memory bounded for 128 MB of output", async () => {
  const logDir = await Deno.makeTempDir({ prefix: "local_processes_test_" });
  try {
    const probe = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", MEMORY_PROBE, logDir],
      stdin: "null",
    }).output();
    assert.equal(probe.code, 0, new TextDecoder().decode(probe.stderr));
    const { growthMb, truncated, size } = JSON.parse(
      new TextDecoder().decode(probe.stdout),
    );
    assert.equal(truncated, true);
    assert.equal(size, 134217728);
    // Buffering the output would grow the peak by at least 128 MB.
    assert.ok(growthMb < 48, `peak RSS grew by ${growthMb.toFixed(1)} MB`);
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

Deno.test("createLocalProcesses() kills running commands when Deno exits", async () => {
  const dir = await Deno.makeTempDir({ prefix: "local_processes_test_" });
  let pids: number[] = [];
  try {
    const script = String.raw`
import { createLocalProcesses } from ${
      JSON.stringify(import.meta.resolve("./local_processes.ts"))
    };
createLocalProcesses().run({
  command: "sleep 100 & echo $$ $! > pids.tmp && mv pids.tmp pids; wait",
  cwd: Deno.args[0],
  outputByteLimit: 100,
});
while (true) {
  try { Deno.statSync(Deno.args[0] + "/pids"); break; } catch { await new Promise((r) => setTimeout(r, 20)); }
}
Deno.exit(0);
`;
    const child = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--quiet", script, dir],
      stdin: "null",
    }).output();
    assert.equal(child.code, 0, new TextDecoder().decode(child.stderr));
    pids = (await Deno.readTextFile(`${dir}/pids`)).trim().split(" ").map(
      Number,
    );
    assert.equal(pids.length, 2);
    // SIGKILL is delivered asynchronously: allow it a moment.
    for (let i = 0; i < 40 && pids.some(isAlive); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.deepEqual(pids.filter(isAlive), []);
  } finally {
    for (const pid of pids) {
      try {
        Deno.kill(pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    }
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("createLocalProcesses() hands the output to onOutput as it arrives, and a failing onOutput stops nothing", async () => {
  const seen: string[] = [];
  const result = await createLocalProcesses().run({
    command: "printf 'one\\n\\033[31mtwo\\033[0m\\n'; printf 'ré\\n' >&2",
    cwd: Deno.cwd(),
    outputByteLimit: 1024,
    onOutput: (text) => seen.push(text),
  });
  assert.equal(result.exitCode, 0);
  assert.equal(seen.join("").split("\n").sort().join("\n"), "\none\nré\ntwo");
  const failing = await createLocalProcesses().run({
    command: "echo still",
    cwd: Deno.cwd(),
    outputByteLimit: 1024,
    onOutput: () => {
      throw new Error("view gone");
    },
  });
  assert.equal(failing.output, "still\n");
});

// A script that does `start`, starts `sleep 100` in the background of a
// running command, then does `end` once the pids are written.
function crashScript(start: string, end: string): string {
  return String.raw`
import { createLocalProcesses } from ${
    JSON.stringify(import.meta.resolve("./local_processes.ts"))
  };
${start}
const running = createLocalProcesses().run({
  command: "sleep 100 & echo $$ $! > pids.tmp && mv pids.tmp pids; wait; echo finished",
  cwd: Deno.args[0],
  outputByteLimit: 100,
});
while (true) {
  try { Deno.statSync(Deno.args[0] + "/pids"); break; } catch { await new Promise((r) => setTimeout(r, 20)); }
}
${end}
`;
}

async function runCrashScript(
  dir: string,
  script: { start?: string; end: string; grants: string[] },
): Promise<{ code: number; stdout: string; pids: number[] }> {
  await Deno.writeTextFile(
    `${dir}/script.ts`,
    crashScript(script.start ?? "", script.end),
  );
  const child = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--quiet", ...script.grants, `${dir}/script.ts`, dir],
    stdin: "null",
    stderr: "null",
  }).output();
  const pids = (await Deno.readTextFile(`${dir}/pids`)).trim().split(" ")
    .map(Number);
  return {
    code: child.code,
    stdout: new TextDecoder().decode(child.stdout),
    pids,
  };
}

Deno.test("createLocalProcesses() kills the whole group of a running command when an unhandled rejection ends Deno under --allow-run=sh", async () => {
  const dir = await Deno.makeTempDir({ prefix: "local_processes_test_" });
  let pids: number[] = [];
  try {
    const run = await runCrashScript(dir, {
      end: 'Promise.reject(new Error("unhandled"));',
      grants: ["--allow-run=sh", `--allow-read=${dir}`],
    });
    pids = run.pids;
    assert.equal(run.code, 1, "the rejection still ends the script");
    for (let i = 0; i < 40 && pids.some(isAlive); i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    assert.deepEqual(pids.filter(isAlive), [], "sh and its background sleep");
  } finally {
    killAll(pids);
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("createLocalProcesses() leaves a running command alone when the script's own listener handles the rejection", async () => {
  const dir = await Deno.makeTempDir({ prefix: "local_processes_test_" });
  let pids: number[] = [];
  try {
    const run = await runCrashScript(dir, {
      start:
        'addEventListener("unhandledrejection", (e) => e.preventDefault());',
      end: String.raw`Promise.reject(new Error("handled"));
await new Promise((r) => setTimeout(r, 100));
Deno.kill(Number(Deno.readTextFileSync(Deno.args[0] + "/pids").split(" ")[1]));
console.log((await running).output.trim());`,
      grants: ["-A"],
    });
    pids = run.pids;
    assert.equal(run.code, 0);
    assert.equal(run.stdout.trim(), "finished", "the command ran to its end");
  } finally {
    killAll(pids);
    await Deno.remove(dir, { recursive: true });
  }
});

function killAll(pids: number[]): void {
  for (const pid of pids) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
