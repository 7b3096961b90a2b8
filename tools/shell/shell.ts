// Shell: runs a command through the context's ProcessBackend after the
// permission gate; the backend does the spawning, killing and output bounding.
import { z } from "zod";
import type { AuthorizeRequest, ToolContext } from "../context.ts";
import { defineTool } from "../define.ts";
import {
  alwaysKeyOf,
  displayCommand,
  displayEnv,
} from "../../internal/command_line.ts";
import { LOG_LIMIT } from "./_output_buffer.ts";
import { looksSandboxed } from "./_sandbox.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type {
  ShellRequest,
  ShellResult,
  ShellSandbox,
  Tool,
} from "../types.ts";
import DESCRIPTION from "./shell.txt" with { type: "text" };

/**
 * The default `outputByteLimit`: 32 KiB, about 8k tokens. Enough for the tail
 * of a failing build or test run (some 400 lines), small enough to leave room
 * in the 32k-token contexts of local models; the rest goes to a log file.
 */
export const DEFAULT_OUTPUT_BYTE_LIMIT: number = 32 * 1024;

/** The largest `outputByteLimit` accepted (64 MiB): what is kept is held in memory. */
export const MAX_OUTPUT_BYTE_LIMIT: number = 64 * 1024 * 1024;

/**
 * Input of the Shell tool.
 *
 * Executing Shell requires `--allow-run` (for `sh`, or for the executable given with `args`).
 *
 * @example Run the tests with a time limit
 * ```ts
 * import { createTools, type ShellInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const input: ShellInput = { command: "echo", args: ["ready"], timeoutSeconds: 60 };
 * const tools = createTools({ cwd: Deno.cwd(), permissionMode: "allow" });
 * const { exitCode, output } = await tools.Shell.execute(input);
 * assert.deepEqual([exitCode, output], [0, "ready\n"]);
 * ```
 */
export interface ShellInput {
  /** A command line for `sh -c`, or with `args` the executable to run directly. */
  command: string;
  /** Arguments; when given, no shell interprets anything. */
  args?: string[];
  /** Working folder, relative to the workspace; defaults to the workspace. */
  cwd?: string;
  /**
   * Variables merged over the inherited environment. An approval request
   * shows them, and "always" for a command covers it only with the same ones.
   */
  env?: Record<string, string>;
  /** Bytes of output kept in `output` (default 32768). */
  outputByteLimit?: number;
  /** Kill the process tree after this many seconds; no timeout when absent. */
  timeoutSeconds?: number;
  /**
   * `false` runs the command outside the OS sandbox where one is in force:
   * asked even in `acceptEdits`, refused in `readOnly` and under sandbox
   * `"required"`.
   */
  sandbox?: boolean;
}

function hasNoNul(value: string): boolean {
  return !value.includes("\0");
}

const schema = z.object({
  command: z.string().trim().min(1, "must not be empty").refine(
    hasNoNul,
    "must not contain a NUL byte",
  ),
  args: z.array(z.string().refine(hasNoNul, "must not contain a NUL byte"))
    .optional(),
  cwd: z.string().min(1, "must not be empty (leave it out for the workspace)")
    .optional(),
  env: z.record(
    z.string().regex(
      /^[^=\0]+$/,
      "variable names must be non-empty without '=' or NUL",
    ),
    z.string().refine(hasNoNul, "must not contain a NUL byte"),
  ).optional(),
  outputByteLimit: z.number().int().min(1).max(MAX_OUTPUT_BYTE_LIMIT)
    .optional(),
  timeoutSeconds: z.number().positive().max(
    86_400,
    "must be at most 86400 (one day)",
  )
    .optional(),
  sandbox: z.boolean().optional(),
});

/**
 * Creates the Shell tool for a context: permission `execute`, then the
 * context's process backend.
 *
 * Requires `--allow-run` for the executable (`sh` without `args`).
 *
 * @example Run a command and read its exit code
 * ```ts
 * import { createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const tools = createTools({ permissionMode: "allow" });
 * const result = await tools.Shell.execute({ command: "echo hi && exit 3" });
 * assert.deepEqual([result.exitCode, result.output], [3, "hi\n"]);
 * ```
 */
export function createShell(
  context: ToolContext,
): Tool<ShellInput, ShellResult> {
  return defineTool({
    name: "Shell",
    kind: "execute",
    description: DESCRIPTION,
    schema,
    async run(input, { signal }): Promise<ShellResult> {
      const cwd = input.cwd === undefined
        ? context.workspace
        : context.resolve(input.cwd, "Shell");
      // Before the first await: the call asks in the order it started.
      using turn = context.queueToAsk();
      const confinement = await chooseConfinement(context, input);
      await context.authorize(
        shellRequest(context, input, cwd, confinement),
        { turn, signal },
      );
      const request = toRequest(input, cwd);
      if (confinement === "sandboxed") {
        request.sandbox = await sandboxFor(context);
      }
      const result = await context.processes.run(request, signal);
      if (result.logPath !== undefined) context.addOwnFile(result.logPath);
      return { ...result, sandboxed: request.sandbox !== undefined };
    },
    toModelText: renderShellResult,
  });
}

/**
 * How a command runs: in the OS sandbox, "unconfined" (outside a sandbox
 * that is in force, as `sandbox: false` asks), or "plain" (no sandbox in
 * force: sandbox "off", mode `allow` under "auto", or none available here).
 */
type Confinement = "sandboxed" | "unconfined" | "plain";

async function chooseConfinement(
  context: ToolContext,
  input: ShellInput,
): Promise<Confinement> {
  const { sandbox } = context;
  const inForce = sandbox === "required" ||
    (sandbox === "auto" && context.permissionMode !== "allow");
  if (!inForce) return "plain";
  const display = displayCommand(input.command, input.args);
  if (input.sandbox === false) {
    if (sandbox !== "required") return "unconfined";
    throw new ToolError(
      `Refused: Run "${display}" outside the sandbox: sandbox "required" runs every command in the sandbox; run it without "sandbox": false, or ask the user to run it`,
    );
  }
  const support = await context.processes.sandbox?.() ??
    {
      available: false,
      missing: "the process backend (an editor's terminals) cannot sandbox",
    };
  if (support.available) return "sandboxed";
  if (sandbox === "auto") return "plain";
  throw new ToolError(
    `Cannot run "${display}": sandbox "required" needs the OS sandbox, and ${support.missing}; or ask the user to set sandbox "auto" or "off"`,
  );
}

// Decided after the approval, on the mode in force then: a switch to
// readOnly while the question was open leaves nothing writable.
async function sandboxFor(context: ToolContext): Promise<ShellSandbox> {
  const workspace = [await context.realWorkspace()];
  const network = context.sandboxNetwork;
  return context.permissionMode === "readOnly"
    ? { writable: [], readable: workspace, network }
    : { writable: workspace, network };
}

// The request shows the whole command, its folder and its variables: who
// approves must see all that decides what runs (PATH=<a folder> runs any
// program as "ls").
function shellRequest(
  context: ToolContext,
  input: ShellInput,
  cwd: string,
  confinement: Confinement,
): AuthorizeRequest {
  const display = displayCommand(input.command, input.args);
  const env = input.env !== undefined && Object.keys(input.env).length > 0
    ? input.env
    : undefined;
  const where = cwd === context.workspace ? "" : ` in "${cwd}"`;
  const key = alwaysKeyOf(input.command, input.args, env);
  const unconfined = confinement === "unconfined";
  const request: AuthorizeRequest = {
    tool: "Shell",
    action: "execute",
    command: display,
    path: cwd,
    description: `Run "${display}"${where}${
      env === undefined ? "" : ` with ${displayEnv(env)}`
    }${unconfined ? " outside the sandbox (unconfined)" : ""}`,
    // An "always" for a sandboxed command does not cover it unconfined.
    alwaysKey: unconfined ? JSON.stringify(["unconfined", key]) : key,
  };
  // Said only where a sandbox is in force.
  if (confinement !== "plain") request.sandboxed = confinement === "sandboxed";
  if (env !== undefined) request.env = env;
  return request;
}

function toRequest(input: ShellInput, cwd: string): ShellRequest {
  const request: ShellRequest = {
    command: input.command,
    cwd,
    outputByteLimit: input.outputByteLimit ?? DEFAULT_OUTPUT_BYTE_LIMIT,
  };
  if (input.args !== undefined) request.args = input.args;
  if (input.env !== undefined) request.env = input.env;
  if (input.timeoutSeconds !== undefined) {
    request.timeoutSeconds = input.timeoutSeconds;
  }
  return request;
}

/**
 * Renders a Shell result for the model: how it ended, where the full output
 * is when truncated, then the output.
 */
export function renderShellResult(result: ShellResult): string {
  const lines = [statusLine(result)];
  if (result.truncated) {
    lines.push(
      result.logPath === undefined
        ? "The output was truncated (see the marker) and the full output could not be saved."
        : result.logTruncated
        ? `The output was truncated (see the marker); its first ${
          LOG_LIMIT / (1024 * 1024)
        } MiB are in "${result.logPath}" (the log was cut there; the end of the output is below): read it with ReadFile (line/limit) or search it, and make the command print less (filter it, or redirect it to a file) rather than running it again as is.`
        : `The output was truncated (see the marker); the full output is in "${result.logPath}": read it with ReadFile (line/limit) or search it rather than running the command again.`,
    );
  }
  if (
    result.sandboxed && result.exitCode !== 0 && looksSandboxed(result.output)
  ) {
    lines.push(
      'It ran in the OS sandbox: outside the workspace (and inside it too in readOnly mode) files are read-only, /tmp is private and there is no network. If it failed for that reason, run it again with "sandbox": false to run it outside the sandbox; the user is asked first (it is refused in readOnly mode).',
    );
  }
  // `+`, not join(): V8 then links the output in instead of copying it (up
  // to outputByteLimit bytes) into a new string.
  return lines.join("\n") + "\n" +
    (result.output === "" ? "(no output)" : "Output:\n" + result.output);
}

function statusLine(result: ShellResult): string {
  const ended = result.signal === null
    ? `exit code ${result.exitCode}`
    : `signal ${result.signal}`;
  if (result.timedOut) {
    return `Timed out: the command did not finish within timeoutSeconds, so its whole process tree was killed (${ended}). The output so far is below. Retry with a longer timeoutSeconds if it needs more time, or make the command do less.`;
  }
  if (result.aborted) {
    return `Aborted: the command was cancelled and its whole process tree killed (${ended}).`;
  }
  if (result.signal !== null) return `Killed by signal ${result.signal}.`;
  if (result.exitCode === 127) {
    return "Exit code 127 (the shell could not find the command).";
  }
  if (result.exitCode === 126) {
    return "Exit code 126 (the command is not executable).";
  }
  return `Exit code ${result.exitCode}.`;
}
