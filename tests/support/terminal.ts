// `fello run` on a pseudo-terminal (script(1)), typed at as a person would:
// for what only happens on a terminal (Ctrl-C, the prompt, questions).
import assert from "node:assert/strict";
import { baseEnv, MOD } from "./fello_cli.ts";

/** Whether script(1) is here to give the CLI a pseudo-terminal. */
export const HAS_SCRIPT: boolean = (() => {
  try {
    return new Deno.Command("script", { args: ["--version"] }).outputSync()
      .success;
  } catch {
    return false;
  }
})();

/** The CLI on a pseudo-terminal, as `fn` sees it. */
export interface Terminal {
  /** Types `text` (e.g. `"y\n"`, `"\x03"` for Ctrl-C). */
  type(text: string): Promise<void>;
  /** Waits (at most 20 s) until the screen matches, then asserts it does. */
  waitFor(pattern: RegExp): Promise<void>;
  /**
   * All the CLI has printed so far, without carriage returns and the
   * switches of bracketed paste mode.
   */
  screen(): string;
  /** All the CLI has printed so far, as written (escape sequences and all). */
  output(): string;
  /** Waits (at most 20 s) for the CLI to end; its exit code. */
  exitCode(): Promise<number | undefined>;
}

/** How the pseudo-terminal is set up. */
export interface TerminalOptions {
  /** More arguments for the CLI, after the endpoint and model. */
  args?: string[];
  /**
   * Its width, as `Deno.consoleSize()` reports it to the CLI (by default
   * 0: unknown, as script(1) run without a terminal leaves it).
   */
  columns?: number;
  /**
   * Added to the environment. Without a FELLO_STATE_DIR, the CLI keeps its
   * state (the prompt history) in a temporary folder removed after.
   */
  env?: Record<string, string>;
}

/**
 * Runs `fello` in `dir` against the endpoint at `baseURL` (model "m") on a
 * pseudo-terminal while `fn` types at it; kills it after.
 */
export async function onTerminal(
  dir: string,
  baseURL: string,
  fn: (terminal: Terminal) => Promise<void>,
  options: TerminalOptions = {},
): Promise<void> {
  const size = options.columns === undefined
    ? ""
    : `stty cols ${options.columns} rows 24; `;
  // exec: sh would otherwise take the terminal's SIGINT for itself.
  const command = `${size}exec ${
    [Deno.execPath(), "run", "-A", MOD, "--base-url", baseURL]
      .map((part) => `'${part}'`).join(" ")
  } --model m${(options.args ?? []).map((part) => ` '${part}'`).join("")}`;
  const state = options.env?.FELLO_STATE_DIR === undefined
    ? await Deno.makeTempDir({ prefix: "fello-state-" })
    : undefined;
  const child = new Deno.Command("script", {
    args: ["-qefc", command, "/dev/null"],
    cwd: dir,
    env: {
      ...baseEnv(),
      ...state === undefined ? {} : { FELLO_STATE_DIR: state },
      ...options.env,
    },
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  let output = "";
  const reading = (async () => {
    const text = child.stdout.pipeThrough(new TextDecoderStream());
    for await (const chunk of text) output += chunk;
  })();
  // Bracketed paste switched on and off around each prompt prints nothing.
  const screen = () =>
    output.replaceAll("\r", "").replaceAll("\x1b[?2004h", "")
      .replaceAll("\x1b[?2004l", "");
  const keys = child.stdin.getWriter();
  try {
    await fn({
      type: (text) => keys.write(new TextEncoder().encode(text)),
      waitFor: async (pattern) => {
        for (let i = 0; i < 400 && !pattern.test(screen()); i++) {
          await sleep(50);
        }
        assert.match(screen(), pattern);
      },
      screen,
      output: () => output,
      exitCode: async () =>
        (await Promise.race([
          child.status,
          sleep(20_000).then(() => undefined),
        ]))?.code,
    });
  } finally {
    await keys.close().catch(() => {});
    try {
      child.kill("SIGKILL");
    } catch {
      // Already ended.
    }
    await child.status;
    await reading;
    if (state) await Deno.remove(state, { recursive: true });
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
