// Runs the CLI as a subprocess (deno run -A mod.ts ...), in a clean
// environment so the machine's FELLO_* / OPENAI_* variables do not leak in.

/** The package's entry, as the CLI tests run it. */
export const MOD: string = new URL("../../mod.ts", import.meta.url).pathname;

/** What a finished CLI run printed, and its exit code. */
export interface CliOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI to its end; `stdin` text is piped in, else stdin is empty.
 * Deno's `flags` default to `-A`.
 */
export async function fello(
  args: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    stdin?: string;
    flags?: string[];
  },
): Promise<CliOutput> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...options.flags ?? ["-A"], MOD, ...args],
    cwd: options.cwd,
    env: { ...baseEnv(), ...options.env },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  return decoded(await child.output());
}

/** A finished subprocess's exit code and output, as text. */
export function decoded(output: Deno.CommandOutput): CliOutput {
  const decoder = new TextDecoder();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** The environment the CLI runs with: no color, and what Deno needs to run. */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = { NO_COLOR: "1" };
  for (const name of ["HOME", "PATH", "DENO_DIR", "TMPDIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** Spawns the CLI (`deno run -A mod.ts ...args`) in a clean environment. */
export function spawnFello(
  args: string[],
  options: { cwd: string; env?: Record<string, string>; stdin?: "piped" },
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MOD, ...args],
    cwd: options.cwd,
    env: { ...baseEnv(), ...options.env },
    clearEnv: true,
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
}

/** Waits for a child to end, killing it after `ms` so a hang fails the test. */
export async function outputWithin(
  child: Deno.ChildProcess,
  ms: number,
): Promise<Deno.CommandOutput & { elapsed: number }> {
  const started = performance.now();
  const output = await killedAfter(child, ms, child.output());
  return { ...output, elapsed: performance.now() - started };
}

/** Waits for a child whose streams are in use elsewhere, killing it after `ms`. */
export function statusWithin(
  child: Deno.ChildProcess,
  ms: number,
): Promise<Deno.CommandStatus> {
  return killedAfter(child, ms, child.status);
}

/** Awaits `ending`, killing `child` (SIGKILL) if it takes more than `ms`. */
async function killedAfter<T>(
  child: Deno.ChildProcess,
  ms: number,
  ending: Promise<T>,
): Promise<T> {
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already gone.
    }
  }, ms);
  try {
    return await ending;
  } finally {
    clearTimeout(timer);
  }
}
