// Runs a script in a child `deno run` with this package's config: for tests
// that need a process of their own (its permissions, its exit).
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

const CONFIG = fileURLToPath(new URL("../../deno.json", import.meta.url));

/**
 * Runs `script` with `flags` and `args`; fails the test unless it exits 0.
 * Resolves to its stdout and how long it took, exit included.
 */
export async function runDeno(
  flags: string[],
  script: string,
  args: string[] = [],
): Promise<{ stdout: string; ms: number }> {
  const started = performance.now();
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", `--config=${CONFIG}`, ...flags, script, ...args],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  const ms = performance.now() - started;
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  return { stdout: new TextDecoder().decode(output.stdout), ms };
}
