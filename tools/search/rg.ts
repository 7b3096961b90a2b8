// The `rg` tool of the Search MCP server: runs ripgrep, when it is on PATH,
// with an argument array (no shell), in the workspace, with bounded output.
import { concatBytes } from "../../internal/concat_bytes.ts";
import { displayCommand } from "../../internal/command_line.ts";
import { isAbsolute, parse, sep } from "node:path";
import { exists } from "../../internal/exists.ts";
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define.ts";
import {
  granted,
  requireDenoPermission,
  requireRealGrant,
} from "../../internal/deno_permission.ts";
import { physicalPath } from "../../internal/paths.ts";
import { rgReads } from "./_rg_args.ts";
import { ripgrepUsable } from "./_rg_search.ts";
import { incompleteTail } from "../../internal/utf8.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { Tool } from "../types.ts";
import DESCRIPTION from "./rg.txt" with { type: "text" };
import { isError, runtime } from "../../internal/runtime/runtime.ts";
import type { ChildProcess } from "../../internal/runtime/runtime.ts";

/**
 * Whether ripgrep is on PATH and `--allow-run` grants it, so the `rg` tool
 * can run (and `search` runs on it). Never prompts; PATH is probed once.
 */
export function ripgrepAvailable(): boolean {
  return ripgrepUsable();
}

/** Input of the `rg` tool. */
export interface RgInput {
  /** Arguments for ripgrep, e.g. `["-C", "2", "loadUser", "src"]`. */
  args: string[];
}

/** Result of the `rg` tool. */
export interface RgResult {
  /** The arguments as given. */
  args: string[];
  /** rg's exit code: 0 matches, 1 no match, 2 an error. Null when stopped. */
  exitCode: number | null;
  /** Standard output, cut to the output limit. */
  output: string;
  /** Standard error, cut short. */
  errors: string;
  /** Whether the output was cut (and rg stopped) at the limit. */
  truncated: boolean;
  /** Whether rg ran past the time limit and was stopped. */
  timedOut: boolean;
}

const OUTPUT_LIMIT_BYTES = 50_000;
const ERROR_LIMIT_BYTES = 4_000;
const TIMEOUT_MS = 60_000;
/** Always first: no config file (it could add `--pre`), plain `path:line:text`. */
const DEFAULT_ARGS = [
  "--no-config",
  "--color=never",
  "--line-number",
  "--no-heading",
  "--max-columns=400",
  "--max-columns-preview",
];

const schema = z.object({
  args: z.array(z.string()).min(1, "needs at least a pattern").max(200),
});

/**
 * Creates the `rg` tool for a context: runs ripgrep from PATH in the
 * workspace with an argument array (no shell), bounded output and a timeout.
 *
 * Requires `--allow-run=rg`, and `--allow-read` for the workspace and every
 * path the arguments name, on the real path (symlinks followed, before `..`
 * too): ripgrep runs outside Deno's sandbox, so the read grant is checked
 * before it starts. "Outside the workspace" is judged on that path as well.
 *
 * @example List the TypeScript files that mention a name
 * ```ts
 * import { ToolContext } from "../context.ts";
 * import { createLocalFiles } from "../local_files.ts";
 * import { createLocalProcesses } from "../shell/local_processes.ts";
 * import { createRg } from "./rg.ts";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.ts`, "createTools();\n");
 * await Deno.writeTextFile(`${cwd}/b.md`, "createTools\n");
 * const rg = createRg(
 *   new ToolContext({
 *     workspace: cwd,
 *     permissionMode: "readOnly",
 *     files: createLocalFiles(),
 *     processes: createLocalProcesses(),
 *   }),
 * );
 * const result = await rg.execute({ args: ["-l", "-t", "ts", "createTools"] })
 *   .catch((error) => error); // a ToolError where ripgrep is not installed
 * if (!(result instanceof Error)) assert.equal(rg.toModelText(result).trim(), "a.ts");
 * ```
 *
 * @param context The workspace and permission gate.
 * @returns The tool.
 */
export function createRg(context: ToolContext): Tool<RgInput, RgResult> {
  return defineTool({
    name: "rg",
    kind: "search",
    description: DESCRIPTION,
    schema,
    run: (input, options) => runRg(context, input, options.signal),
    toModelText: renderRg,
  });
}

async function runRg(
  context: ToolContext,
  input: RgInput,
  signal?: AbortSignal,
): Promise<RgResult> {
  refuseUnsafe(input.args);
  refuseAborted(input.args, signal);
  await context.authorize({
    tool: "rg",
    action: "read",
    path: context.workspace,
    // Quoted as a shell would: an argument with a space must not read as two.
    description: `Run ${displayCommand("rg", input.args)}`,
  }, { signal });
  await authorizeOutsidePaths(context, input.args, signal);
  await requireDenoPermission({ name: "run", command: "rg" });
  await requireDenoReads(context, input.args);
  // Checked again after the awaits: an MCP cancel may have come meanwhile,
  // and the listener spawnRg adds would never fire for it.
  refuseAborted(input.args, signal);
  return await spawnRg(context.workspace, input.args, signal);
}

function refuseAborted(args: string[], signal?: AbortSignal): void {
  if (!signal?.aborted) return;
  throw new ToolError(
    `Did not run ${displayCommand("rg", args)}: the call was cancelled`,
  );
}

/**
 * Deno's read gate, for what rg will read: ripgrep is a subprocess that
 * Deno's --allow-read does not confine, so the grant is checked here, on the
 * real path of the workspace and of every path the arguments name (a symlink
 * in the workspace may lead out of the grant) and, with -L, everywhere a
 * symlink may lead.
 */
async function requireDenoReads(
  context: ToolContext,
  args: string[],
): Promise<void> {
  const { follows } = rgReads(args);
  if (follows && !(await granted({ name: "read" }))) {
    throw new ToolError(
      `Cannot run rg with -L: symlinks may lead anywhere, and Deno grants reading only some paths; search without -L, or run deno with --allow-read`,
    );
  }
  await requireRealGrant("read", context.workspace);
  for (const value of pathArguments(args)) {
    await requireRealGrant("read", openedPath(context.workspace, value));
  }
}

/** The path arguments rg opens: not "-" (standard input) nor impossible ones. */
function pathArguments(args: string[]): string[] {
  return rgReads(args).paths.filter((value) =>
    value !== "" && value !== "-" && !value.includes("\0")
  );
}

/**
 * A path argument as ripgrep opens it: from the workspace, as written. It
 * expands no `~`, takes no `file://` URI, and on `..` after a symlink goes up
 * from the link's target, so the path is not normalized here (`link/..` is
 * not the workspace); {@linkcode physicalPath} finds where it leads.
 */
function openedPath(workspace: string, value: string): string {
  return isAbsolute(value) ? value : `${workspace}${sep}${value}`;
}

/** Options that make ripgrep run another program. */
const PROGRAM_OPTIONS = ["--pre", "--hostname-bin"];

function refuseUnsafe(args: string[]): void {
  const end = args.indexOf("--");
  const options = end === -1 ? args : args.slice(0, end);
  for (const arg of options) {
    const name = PROGRAM_OPTIONS.find((o) =>
      arg === o || arg.startsWith(`${o}=`)
    );
    if (name !== undefined) {
      throw new ToolError(
        `Cannot run rg with "${arg}": ${name} runs an arbitrary program; search without it`,
      );
    }
  }
}

/**
 * Asks before rg reads an existing path outside the workspace, or follows
 * symlinks, which may lead out of it. "Outside" is decided on the real path,
 * where rg will really read.
 */
async function authorizeOutsidePaths(
  context: ToolContext,
  args: string[],
  signal?: AbortSignal,
): Promise<void> {
  if (rgReads(args).follows) {
    await context.authorize({
      tool: "rg",
      action: "read",
      path: parse(context.workspace).root,
      description:
        "Let rg follow symlinks (-L), which may lead out of the workspace",
    }, { signal });
  }
  for (const value of pathArguments(args)) {
    const path = await physicalPath(openedPath(context.workspace, value));
    if (!(await mayExist(path)) || !(await context.isOutside(path))) continue;
    await context.authorize({
      tool: "rg",
      action: "read",
      path,
      description: path === value
        ? `Let rg read "${path}"`
        : `Let rg read "${value}", which is "${path}"`,
    }, { signal });
  }
}

/**
 * Whether `path` may exist: a missing one needs no question (rg only reports
 * it). Where Deno grants no read it cannot be told, and looking would make
 * Deno prompt on a terminal before the user was asked: count it as there.
 */
async function mayExist(path: string): Promise<boolean> {
  return !(await granted({ name: "read", path })) || await exists(path);
}

async function spawnRg(
  cwd: string,
  args: string[],
  signal?: AbortSignal,
): Promise<RgResult> {
  let child: ChildProcess;
  try {
    child = runtime.command("rg", {
      args: [...DEFAULT_ARGS, ...args],
      cwd,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    if (isError(error, "notFound")) {
      throw new ToolError(
        'Cannot run rg: ripgrep is not installed or not on PATH; install it (e.g. "apt-get install ripgrep" or "brew install ripgrep") or use the search tool instead',
      );
    }
    throw error;
  }
  const stop = () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  };
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    stop();
  }, TIMEOUT_MS);
  signal?.addEventListener("abort", stop, { once: true });
  try {
    const [out, err, status] = await Promise.all([
      collect(child.stdout, OUTPUT_LIMIT_BYTES, stop),
      collect(child.stderr, ERROR_LIMIT_BYTES),
      child.status,
    ]);
    refuseAborted(args, signal);
    if (status.code === 2 && out.text === "" && !out.truncated) {
      throw new ToolError(
        `${displayCommand("rg", args)} failed: ${
          err.text.trim() || "exit code 2"
        }; fix the arguments and call again`,
      );
    }
    return {
      args,
      exitCode: out.truncated || timedOut ? null : status.code,
      output: out.text,
      errors: err.text,
      truncated: out.truncated,
      timedOut,
    };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", stop);
  }
}

/**
 * Reads a stream up to `limit` bytes, cut at the last line end (or, when the
 * first line is longer than that, at a character boundary with a note);
 * past the limit it calls `onOverflow` (to stop the process) and drains the
 * rest.
 */
async function collect(
  stream: ReadableStream<Uint8Array>,
  limit: number,
  onOverflow?: () => void,
): Promise<{ text: string; truncated: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for await (const chunk of stream) {
    if (truncated) continue;
    const room = limit - size;
    if (chunk.length > room) {
      chunks.push(chunk.subarray(0, room));
      size = limit;
      truncated = true;
      onOverflow?.();
    } else {
      chunks.push(chunk);
      size += chunk.length;
    }
  }
  const bytes = concatBytes(chunks, size);
  if (!truncated) return { text: new TextDecoder().decode(bytes), truncated };
  const lineEnd = bytes.lastIndexOf(0x0a) + 1;
  if (lineEnd > 0) {
    return {
      text: new TextDecoder().decode(bytes.subarray(0, lineEnd)),
      truncated,
    };
  }
  // One line longer than the limit (a minified file with --max-columns=0):
  // its start still says where the match is.
  const start = bytes.subarray(0, bytes.length - incompleteTail(bytes));
  const text = `${
    new TextDecoder().decode(start)
  }… [line cut: it is longer than the ${limit}-byte output limit]\n`;
  return { text, truncated };
}

/** Renders rg's output for the model, with notes on cuts, errors and no matches. */
export function renderRg(result: RgResult): string {
  const parts: string[] = [];
  if (result.output !== "") parts.push(result.output.trimEnd());
  if (result.truncated) {
    parts.push(
      `(Output cut at ${OUTPUT_LIMIT_BYTES} bytes and rg stopped; narrow the pattern or paths, or add -l, -c or --max-count.)`,
    );
  }
  if (result.timedOut) {
    parts.push(
      `(rg was stopped after ${TIMEOUT_MS / 1000} s; narrow the search.)`,
    );
  }
  if (result.errors.trim() !== "") {
    parts.push(`rg reported:\n${result.errors.trimEnd()}`);
  }
  if (result.exitCode === 1 && result.output === "") {
    parts.push("No matches.");
  }
  return parts.join("\n");
}
