// Shell with the default output limit against the same command redirected to
// /dev/null: the cost of streaming 256 MB through the tool (reads, newline
// counting, the log file, head/tail). A bare Deno read loop of the same pipe
// (no counting, no log) shows the floor any Deno consumer pays. Peak RSS
// growth is printed at the end.
//
// Figures: bench/README.md.
import { createTools } from "../mod.ts";
import { createLocalProcesses } from "../tools/shell/local_processes.ts";

const SIZE = 256 * 1024 * 1024;
const PRODUCERS = {
  // A fast producer: the tool's own overhead dominates.
  yes:
    `yes 'a line of build output that goes on for a while' | head -c ${SIZE}`,
  // A producer doing some work per line, like a real build or test run.
  seq: `seq 1 40000000 | head -c ${SIZE}`,
};

const logDir = await Deno.makeTempDir({ prefix: "shell_bench_" });
const tools = createTools({
  permissionMode: "allow",
  backend: { processes: createLocalProcesses({ logDir }) },
});
const peakGrowth: Record<string, number> = {};

async function run(
  b: Deno.BenchContext,
  name: string,
  command: string,
): Promise<void> {
  const before = Deno.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(
    () => peak = Math.max(peak, Deno.memoryUsage().rss),
    10,
  );
  b.start();
  const result = await tools.Shell.execute({ command });
  b.end();
  clearInterval(sampler);
  peakGrowth[name] = Math.max(peakGrowth[name] ?? 0, (peak - before) / 2 ** 20);
  if (result.exitCode !== 0) {
    throw new Error(`${command} failed: ${result.output}`);
  }
  if (result.logPath) await Deno.remove(result.logPath);
}

// Reads both pipes as Shell does (BYOB, one reused 64 KiB buffer each) and
// drops the bytes.
async function readAll(command: string): Promise<void> {
  const child = new Deno.Command("sh", {
    args: ["-c", command],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const drop = async (stream: ReadableStream<Uint8Array>) => {
    const reader = stream.getReader({ mode: "byob" });
    let buffer = new Uint8Array(64 * 1024);
    while (true) {
      const { done, value } = await reader.read(buffer);
      if (done || value === undefined) break;
      buffer = new Uint8Array(value.buffer);
    }
  };
  await Promise.all([drop(child.stdout), drop(child.stderr)]);
  await child.status;
}

for (const [group, command] of Object.entries(PRODUCERS)) {
  Deno.bench({
    group,
    name: `${group} > /dev/null`,
    baseline: true,
    n: 5,
    warmup: 1,
    // An async function: Deno times a plain arrow only until it returns its promise.
    async fn(b) {
      await run(b, `${group} baseline`, `${command} > /dev/null`);
    },
  });
  Deno.bench({
    group,
    name: `${group}: bare Deno read loop of the pipe (the floor)`,
    n: 5,
    warmup: 1,
    async fn(b) {
      b.start();
      await readAll(command);
      b.end();
    },
  });
  Deno.bench({
    group,
    name: `${group}: 256 MB through Shell (default limit)`,
    n: 5,
    warmup: 1,
    async fn(b) {
      await run(b, `${group} through Shell`, command);
    },
  });
}

globalThis.addEventListener("unload", () => {
  for (const [name, mb] of Object.entries(peakGrowth)) {
    console.error(`peak RSS growth, ${name}: ${mb.toFixed(1)} MB`);
  }
  Deno.removeSync(logDir, { recursive: true });
});
