// Shell in the bubblewrap sandbox against the same command unconfined, in one
// run: a bare `true` (the sandbox's fixed cost: namespaces and mounts) and a
// `deno eval` of a small script (a `deno task`-sized command: a runtime
// start and some work), where the target is under 1.3x.
//
// Figures: bench/README.md.
import { createTools } from "../mod.ts";

const cwd = await Deno.makeTempDir({ prefix: "shell_sandbox_bench_" });
const sandboxed = createTools({ cwd, permissionMode: "acceptEdits" });
const unconfined = createTools({
  cwd,
  permissionMode: "acceptEdits",
  sandbox: "off",
  approve: () => true,
});
const TASK = {
  command: Deno.execPath(),
  args: [
    "eval",
    "let s = 0; for (let i = 0; i < 1e6; i++) s += i; console.log(s)",
  ],
};

async function check(
  run: Promise<{ exitCode: number | null; output: string }>,
) {
  const result = await run;
  if (result.exitCode !== 0) throw new Error(`failed: ${result.output}`);
}

Deno.bench({
  group: "true",
  name: "unconfined",
  baseline: true,
  async fn() {
    await check(unconfined.Shell.execute({ command: "true" }));
  },
});
Deno.bench({
  group: "true",
  name: "sandboxed",
  async fn() {
    await check(sandboxed.Shell.execute({ command: "true" }));
  },
});
Deno.bench({
  group: "task",
  name: "unconfined",
  baseline: true,
  async fn() {
    await check(unconfined.Shell.execute(TASK));
  },
});
Deno.bench({
  group: "task",
  name: "sandboxed",
  async fn() {
    await check(sandboxed.Shell.execute(TASK));
  },
});
