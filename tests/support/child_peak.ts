// Runs a module in a child `deno run -A` and reports its peak memory (VmHWM,
// Linux): memory measured in a process of its own, since the test process
// runs other test files in parallel.
import assert from "node:assert/strict";
import { join } from "node:path";

/** The package's entry, as a URL a child's module can import. */
export const MOD: string = new URL("../../mod.ts", import.meta.url).href;
const CONFIG = new URL("../../deno.json", import.meta.url).pathname;

/** One mebibyte. */
export const MB: number = 1024 * 1024;

/**
 * Runs `code` (a module that may import `MOD`) in a child `deno run -A` with
 * `args`; resolves to its last stdout line (JSON) and its peak RSS in bytes.
 */
export async function childPeak(
  code: string,
  args: string[],
  options: {
    /** Writes the child's stdin (else it has none). */
    stdin?: (writer: WritableStreamDefaultWriter<Uint8Array>) => Promise<void>;
    /** More `deno run` flags. */
    flags?: string[];
  } = {},
): Promise<{ result: unknown; peak: number }> {
  const { stdin, flags = [] } = options;
  const dir = await Deno.makeTempDir({ prefix: "fello_child_peak_" });
  try {
    const script = join(dir, "child.ts");
    await Deno.writeTextFile(
      script,
      `${code}
const status = Deno.readTextFileSync("/proc/self/status");
const peak = Number(/VmHWM:\\s+(\\d+)/.exec(status)![1]) * 1024;
console.log(JSON.stringify({ result: globalThis.result, peak }));
`,
    );
    const child = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `--config=${CONFIG}`,
        ...flags,
        script,
        ...args,
      ],
      stdin: stdin ? "piped" : "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(120_000),
    }).spawn();
    if (stdin) {
      const writer = child.stdin.getWriter();
      await stdin(writer).catch(() => {}); // the child may stop reading
      await writer.close().catch(() => {});
    }
    const output = await child.output();
    const stdout = new TextDecoder().decode(output.stdout).trim();
    assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
    return JSON.parse(stdout.split("\n").at(-1)!);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
