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
  const child = spawnFello(args, {
    ...options,
    stdin: options.stdin === undefined ? "null" : "piped",
  });
  return await finished(child, options.stdin);
}

/**
 * Runs the CLI on Bun (`bun run mod.ts ...`) to its end, as {@linkcode fello}
 * does on Deno; `script` runs another file instead of mod.ts.
 */
export async function bunFello(
  args: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    stdin?: string;
    script?: string;
  },
): Promise<CliOutput> {
  const child = new Deno.Command("bun", {
    args: ["run", options.script ?? MOD, ...args],
    cwd: options.cwd,
    env: { ...baseEnv(), ...options.env },
    clearEnv: true,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  return await finished(child, options.stdin);
}

/** Writes `stdin` (if any) to `child`, then waits for its output. */
async function finished(
  child: Deno.ChildProcess,
  stdin: string | undefined,
): Promise<CliOutput> {
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
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

/**
 * The environment the CLI runs with: no color, what Deno needs to run, and a
 * user config folder that does not exist (the machine's own config.json and
 * AGENTS.md stay out of the tests).
 */
export function baseEnv(): Record<string, string> {
  const env: Record<string, string> = {
    NO_COLOR: "1",
    XDG_CONFIG_HOME: `${
      Deno.env.get("TMPDIR") ?? "/tmp"
    }/fello-tests-no-config`,
  };
  for (const name of ["HOME", "PATH", "DENO_DIR", "TMPDIR"]) {
    const value = Deno.env.get(name);
    if (value !== undefined) env[name] = value;
  }
  return env;
}

/** How {@linkcode spawnFello} starts the CLI. */
export interface SpawnOptions {
  cwd: string;
  /** Added to {@linkcode baseEnv}. */
  env?: Record<string, string>;
  /** Deno's flags; `-A` by default. */
  flags?: string[];
  /** Piped for the test to write to, or empty (the default). */
  stdin?: "piped" | "null";
  /** stderr piped (the default), dropped, or passed through. */
  stderr?: "piped" | "null" | "inherit";
}

/**
 * Starts the CLI with stdout piped, for a test that talks to it or signals it
 * while it runs; the test waits for it (`output()` or `status`).
 */
export function spawnFello(
  args: string[],
  options: SpawnOptions,
): Deno.ChildProcess {
  return new Deno.Command(Deno.execPath(), {
    args: ["run", ...options.flags ?? ["-A"], MOD, ...args],
    cwd: options.cwd,
    env: { ...baseEnv(), ...options.env },
    clearEnv: true,
    stdin: options.stdin ?? "null",
    stdout: "piped",
    stderr: options.stderr ?? "piped",
  }).spawn();
}

/** The shell command line that runs the CLI with `-A`, each word quoted. */
export function felloCommandLine(args: string[]): string {
  return [Deno.execPath(), "run", "-A", MOD, ...args]
    .map((word) => `'${word.replaceAll("'", `'\\''`)}'`).join(" ");
}

/** The words that point the CLI at the endpoint `baseURL`, with `model`. */
export function endpointArgs(baseURL: string, model = "m"): string[] {
  return ["--base-url", baseURL, "--model", model];
}

/** Runs `fello` against the endpoint at `baseURL` with model "m", then `args`. */
export function felloAt(
  baseURL: string,
  args: string[],
  options: Parameters<typeof fello>[1],
): Promise<CliOutput> {
  return fello(["--base-url", baseURL, "--model", "m", ...args], options);
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
