// Shell in the bubblewrap sandbox against the same command unconfined, in one
// run: a bare `true` (the sandbox's fixed cost: namespaces and mounts), a
// `deno eval` of a small script (a runtime start and some work) and a
// `deno task` of a tiny deno.json running that script, where the issue's
// target is under 1.3x. Each bench runs a fixed 20 times after 3 warm-ups.
//
// Figures: bench/README.md.
import { createTools, type ShellResult } from "../mod.ts";

const cwd = await Deno.makeTempDir({ prefix: "shell_sandbox_bench_" });
const SCRIPT =
  "let s = 0; for (let i = 0; i < 1e6; i++) s += i; console.log(s)";
await Deno.writeTextFile(
  `${cwd}/deno.json`,
  JSON.stringify({ tasks: { sum: `deno eval '${SCRIPT}'` } }),
);
const sandboxed = createTools({ cwd, permissionMode: "acceptEdits" });
const unconfined = createTools({
  cwd,
  permissionMode: "acceptEdits",
  sandbox: "off",
  approve: () => true,
});
const COMMANDS = {
  true: { command: "true" },
  "deno eval": { command: Deno.execPath(), args: ["eval", SCRIPT] },
  "deno task": { command: Deno.execPath(), args: ["task", "-q", "sum"] },
};

async function check(run: Promise<ShellResult>, inSandbox: boolean) {
  const result = await run;
  if (result.exitCode !== 0) throw new Error(`failed: ${result.output}`);
  if (result.sandboxed !== inSandbox) {
    throw new Error(`expected sandboxed: ${inSandbox}`);
  }
}

for (const [group, input] of Object.entries(COMMANDS)) {
  Deno.bench({
    group,
    name: "unconfined",
    baseline: true,
    n: 20,
    warmup: 3,
    async fn() {
      await check(unconfined.Shell.execute(input), false);
    },
  });
  Deno.bench({
    group,
    name: "sandboxed",
    n: 20,
    warmup: 3,
    async fn() {
      await check(sandboxed.Shell.execute(input), true);
    },
  });
}
