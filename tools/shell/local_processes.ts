// The local ProcessBackend: runs a command in its own process group (Deno's
// `detached` spawns through setsid), with stdin closed, bounded output and a
// timeout or abort that takes the whole process tree down.
import {
  grantedSync,
  requireDenoPermission,
} from "../../internal/deno_permission.ts";
import { OutputBuffer, type OutputSource } from "./_output_buffer.ts";
import { displayCommand, shownCommand } from "../../internal/command_line.ts";
import { ToolError } from "../../internal/tool_error.ts";
import { DEFAULT_BWRAP, sandboxArgs, sandboxSupport } from "./_sandbox.ts";
import type { ProcessBackend, ShellRequest, ShellResult } from "../types.ts";
import {
  isError,
  runtime,
  runtimeError,
} from "../../internal/runtime/runtime.ts";
import type {
  ChildProcess,
  Command,
  CommandStatus,
  FileInfo,
  Signal,
} from "../../internal/runtime/runtime.ts";

/** Options for {@linkcode createLocalProcesses}. */
export interface LocalProcessesOptions {
  /**
   * Folder for full-output logs; defaults to the system temp folder. A log
   * outlives its command (the model reads it later); the first log a process
   * writes in a folder removes the Shell logs there older than a day.
   */
  logDir?: string;
  /** Milliseconds between SIGTERM and SIGKILL; at most 2000 (the default). */
  killGraceMs?: number;
  /** Milliseconds to keep reading after the command exits while background children hold its output open. */
  drainMs?: number;
  /** The bubblewrap executable that sandboxes commands; default `bwrap` on PATH. */
  bwrap?: string;
}

/** Variables that stop tools from waiting for a person; the caller's `env` overrides them. */
export const NON_INTERACTIVE_ENV: Readonly<Record<string, string>> = {
  GIT_TERMINAL_PROMPT: "0",
  PAGER: "cat",
  GIT_PAGER: "cat",
};

const MAX_KILL_GRACE_MS = 2000;
const DEFAULT_DRAIN_MS = 500;
const READ_SIZE = 64 * 1024; // a Linux pipe's capacity

/**
 * Local subprocesses, each in its own process group, for
 * `createTools({ backend: { processes } })`.
 *
 * @example Keep full-output logs in a chosen folder
 * ```ts
 * import { createLocalProcesses, createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const logDir = await Deno.makeTempDir();
 * const processes = createLocalProcesses({ logDir });
 * const tools = createTools({ permissionMode: "allow", backend: { processes } });
 * const result = await tools.Shell.execute({ command: "seq 1 100000" });
 * assert.equal(result.truncated, true);
 * assert.ok(result.logPath?.startsWith(logDir));
 * ```
 *
 * Requires `--allow-run` for each command (unrestricted, or including `sh`, to kill whole process
 * groups) and `--allow-write` to the log folder for full-output logs.
 */
export function createLocalProcesses(
  options: LocalProcessesOptions = {},
): ProcessBackend {
  const settings = {
    logDir: options.logDir,
    killGraceMs: Math.min(
      options.killGraceMs ?? MAX_KILL_GRACE_MS,
      MAX_KILL_GRACE_MS,
    ),
    drainMs: options.drainMs ?? DEFAULT_DRAIN_MS,
    bwrap: options.bwrap ?? DEFAULT_BWRAP,
  };
  return {
    run: (request, signal) => runLocal(request, signal, settings),
    sandbox: () => sandboxSupport(settings.bwrap),
  };
}

type Settings = Required<Omit<LocalProcessesOptions, "logDir">> & {
  logDir?: string;
};

async function runLocal(
  request: ShellRequest,
  signal: AbortSignal | undefined,
  settings: Settings,
): Promise<ShellResult> {
  const display = shownCommand(displayCommand(request.command, request.args));
  const executable = request.sandbox !== undefined
    ? settings.bwrap
    : request.args === undefined
    ? "sh"
    : request.command;
  await requireDenoPermission({ name: "run", command: executable });
  if (signal?.aborted) {
    throw new ToolError(
      `Did not run "${display}": the call was aborted before it started`,
    );
  }
  await checkFolder(request.cwd, display);
  const child = spawn(request, display, settings.bwrap);
  track(child);
  let result: ShellResult;
  try {
    result = await supervise(child, request, signal, settings);
  } finally {
    untrack(child);
  }
  const failed = request.sandbox === undefined
    ? undefined
    : execFailure(result);
  if (failed !== undefined) throw spawnError(failed, request.command, display);
  return result;
}

// In the sandbox bwrap starts the program: one it cannot start is an exit
// code and bwrap's message, which become the error a spawn would give.
function execFailure(result: ShellResult): Error | undefined {
  // (Longer output is not bwrap's message; a search would copy it.)
  if (result.output.length > 1024) return undefined;
  const match =
    /^bwrap: execvp [^\n]*: (No such file or directory|Permission denied)\n?$/
      .exec(result.output);
  if (match === null || result.exitCode !== 1) return undefined;
  return match[1] === "Permission denied"
    ? runtimeError("permissionDenied", match[1])
    : runtimeError("notFound", match[1]);
}

// Commands still running when Deno exits. Their own process groups do not get
// the terminal's signals, so they are killed on the way out: on a normal exit
// or Deno.exit ("unload"), and on an uncaught error or unhandled rejection,
// which end Deno without an unload event. (A default SIGINT ends Deno without
// any event.)
const running = new Set<ChildProcess>();

function track(child: ChildProcess): void {
  if (running.size === 0) {
    globalThis.addEventListener("unload", killRunning);
    // Only while commands run: a listener must not outlive them.
    globalThis.addEventListener("error", killRunningIfFatal);
    globalThis.addEventListener("unhandledrejection", killRunningIfFatal);
  }
  running.add(child);
}

function untrack(child: ChildProcess): void {
  running.delete(child);
  if (running.size > 0) return;
  globalThis.removeEventListener("unload", killRunning);
  globalThis.removeEventListener("error", killRunningIfFatal);
  globalThis.removeEventListener("unhandledrejection", killRunningIfFatal);
}

// Never calls preventDefault: the error still ends the process, as it would
// without us. Whether it does is known only once every listener has run, a
// script's added after this one included: Deno then reads the event's
// defaultPrevented (eventPhase back to NONE) and exits at once if it is
// false, before any task or microtask. So this listener puts a getter on the
// event that kills the commands at that read. node:process listeners for
// unhandledRejection come after that first read and handle the rejection.
function killRunningIfFatal(event: Event): void {
  const prevented = DEFAULT_PREVENTED.get!;
  Object.defineProperty(event, "defaultPrevented", {
    configurable: true,
    get(): boolean {
      const value = prevented.call(event);
      const handledByNode = event.type === "unhandledrejection" &&
        nodeRejectionListeners() > 0;
      if (!value && event.eventPhase === Event.NONE && !handledByNode) {
        killRunning();
      }
      return value;
    },
  });
}

const DEFAULT_PREVENTED = Object.getOwnPropertyDescriptor(
  Event.prototype,
  "defaultPrevented",
)!;

// Deno's `process` global, if a script uses it: no import, so no cost.
function nodeRejectionListeners(): number {
  const node = (globalThis as {
    process?: { listenerCount?(name: string): number };
  }).process;
  return node?.listenerCount?.("unhandledRejection") ?? 0;
}

// Synchronous: Deno exits as soon as the event's listeners return.
function killRunning(): void {
  const groups = [...running];
  running.clear();
  if (groups.length === 0) return;
  if (grantedSync({ name: "run" })) {
    for (const child of groups) {
      killSync(() => runtime.kill(-child.pid, "SIGKILL"));
    }
  } else if (!(shGranted() && killGroupsWithSh(groups))) {
    for (const child of groups) killSync(() => child.kill("SIGKILL"));
  }
}

// Whether sh ran (see shKill).
function killGroupsWithSh(groups: ChildProcess[]): boolean {
  const pids = groups.map((child) => child.pid);
  return killSync(() => shKill("KILL", pids).outputSync());
}

// Deno names a process group only with an unrestricted --allow-run; under
// --allow-run=sh (Shell's documented grant), sh's kill can signal them.
function shKill(signalName: string, pids: number[]): Command {
  return runtime.command("sh", {
    args: [
      "-c",
      'signal=$1; shift; kill -s "$signal" -- "$@"',
      "sh",
      signalName,
      ...pids.map((pid) => `-${pid}`),
    ],
    stdin: "null",
    stdout: "null",
    stderr: "null",
  });
}

function shGranted(): boolean {
  return grantedSync({ name: "run", command: "sh" });
}

function killSync(kill: () => unknown): boolean {
  try {
    kill();
    return true;
  } catch {
    return false; // already gone, or not ours to kill any more
  }
}

async function checkFolder(cwd: string, display: string): Promise<void> {
  let info: FileInfo;
  try {
    info = await runtime.stat(cwd);
  } catch (error) {
    if (isError(error, "notFound")) {
      throw new ToolError(
        `Cannot run "${display}": the working folder "${cwd}" does not exist; pass an existing "cwd"`,
      );
    }
    return; // No read access to check it: let the spawn report problems.
  }
  if (!info.isDirectory) {
    throw new ToolError(
      `Cannot run "${display}": "${cwd}" is not a folder; pass a folder as "cwd"`,
    );
  }
}

function spawn(
  request: ShellRequest,
  display: string,
  bwrap: string,
): ChildProcess {
  const shell = request.args === undefined;
  let program = shell ? "sh" : request.command;
  let args = shell ? ["-c", request.command] : request.args ?? [];
  if (request.sandbox !== undefined) {
    args = sandboxArgs(request.sandbox, request.cwd, [program, ...args]);
    program = bwrap;
  }
  try {
    return runtime.command(program, {
      args,
      cwd: request.cwd,
      env: { ...NON_INTERACTIVE_ENV, ...request.env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      detached: true, // setsid: the child leads a new process group
    }).spawn();
  } catch (error) {
    throw spawnError(error, program, display);
  }
}

function spawnError(
  error: unknown,
  executable: string,
  display: string,
): ToolError {
  if (isError(error, "notFound")) {
    return new ToolError(
      `Cannot run "${display}": no executable "${executable}" was found on PATH; check the name, install it, or run it through a shell by leaving out "args"`,
      { cause: error },
    );
  }
  if (isError(error, "permissionDenied")) {
    return new ToolError(
      `Cannot run "${display}": permission denied for "${executable}"; check that it is executable`,
      { cause: error },
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  if (isError(error, "notCapable")) {
    // Deno resolves a relative executable differently from the grant it was given.
    return new ToolError(
      `Deno denies running "${display}" (${message}); grant the executable's absolute path with --allow-run, or run it by name from PATH`,
      { cause: error },
    );
  }
  if (/argument list too long|os error 7\)/i.test(message)) {
    return new ToolError(
      `Cannot run "${display}": the command line is too long for the system (${message}); write long content to a file with WriteFile and run a shorter command that uses it`,
      { cause: error },
    );
  }
  return new ToolError(`Cannot run "${display}": ${message}`, { cause: error });
}

type Stop = "timeout" | "abort";

async function supervise(
  child: ChildProcess,
  request: ShellRequest,
  signal: AbortSignal | undefined,
  settings: Settings,
): Promise<ShellResult> {
  const buffer = new OutputBuffer({
    limit: request.outputByteLimit,
    logDir: settings.logDir,
    onChunk: request.onOutput && liveText(request.onOutput),
  });
  const readers = [
    child.stdout.getReader({ mode: "byob" }),
    child.stderr.getReader({ mode: "byob" }),
  ];
  const pumps = Promise.all(
    readers.map((reader) => pump(reader, buffer.source())),
  );
  const stop = Promise.withResolvers<Stop>();
  const onAbort = (): void => stop.resolve("abort");
  signal?.addEventListener("abort", onAbort, { once: true });
  const timer = request.timeoutSeconds === undefined
    ? undefined
    : setTimeout(() => stop.resolve("timeout"), request.timeoutSeconds * 1000);
  let stopped: Stop | undefined;
  let status: CommandStatus;
  try {
    const first = await Promise.race([child.status, stop.promise]);
    if (typeof first === "string") {
      stopped = first;
      status = await killTree(child, pumps, settings.killGraceMs);
    } else {
      status = first;
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  }
  await drain(pumps, readers, settings.drainMs);
  const rendered = buffer.finish();
  const result: ShellResult = {
    exitCode: status.signal === null ? status.code : null,
    signal: status.signal,
    timedOut: stopped === "timeout",
    truncated: rendered.truncated,
    output: rendered.output,
  };
  if (rendered.logPath !== undefined) result.logPath = rendered.logPath;
  if (rendered.logTruncated) result.logTruncated = true;
  if (stopped === "abort") result.aborted = true;
  return result;
}

// Hands the output to a live view; a failing view must not stop the command.
function liveText(
  onOutput: (text: string) => void,
): (chunk: Uint8Array) => void {
  const decoder = new TextDecoder();
  return (chunk) => {
    try {
      onOutput(decoder.decode(chunk));
    } catch {
      // The view's problem; the command and its result go on.
    }
  };
}

// Reads into one reused buffer (BYOB): the output buffer copies what it
// keeps, so a command printing gigabytes leaves no garbage per chunk.
async function pump(
  reader: ReadableStreamBYOBReader,
  source: OutputSource,
): Promise<void> {
  let buffer = new Uint8Array(READ_SIZE);
  try {
    while (true) {
      const { done, value } = await reader.read(buffer);
      if (done || value === undefined) break;
      source.push(value);
      buffer = new Uint8Array(value.buffer);
    }
  } catch {
    // The stream failed or was cancelled: keep what arrived.
  } finally {
    source.end();
  }
}

// SIGTERM to the group; once the leader is gone and the pipes are closed (or
// the grace is over) SIGKILL to the group, which also catches members that
// ignore SIGTERM or do not hold the pipes.
async function killTree(
  child: ChildProcess,
  pumps: Promise<unknown>,
  graceMs: number,
): Promise<CommandStatus> {
  await signalGroup(child, "SIGTERM");
  await withDeadline(Promise.all([child.status, pumps]), graceMs);
  await signalGroup(child, "SIGKILL");
  const status = await child.status;
  await groupGone(child.pid, GROUP_EXIT_WAIT_MS);
  return status;
}

/** How long to wait for killed group members to finish exiting. */
const GROUP_EXIT_WAIT_MS = 1000;

// A killed process closes its pipes before it has finished exiting; wait
// (bounded) until the group is empty, so callers never see a dying member.
// Deno names a group only with an unrestricted --allow-run.
async function groupGone(pgid: number, waitMs: number): Promise<void> {
  if (!grantedSync({ name: "run" })) return;
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    try {
      runtime.kill(-pgid, "SIGKILL");
    } catch {
      return; // ESRCH: no member left
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function signalGroup(
  child: ChildProcess,
  signal: Signal,
): Promise<void> {
  try {
    // A negative pid names the process group. Deno signals one only with an
    // unrestricted --allow-run; with a list that includes sh, sh's kill does
    // it; otherwise only the command's own process can be signalled.
    if (grantedSync({ name: "run" })) {
      runtime.kill(-child.pid, signal);
    } else if (shGranted()) {
      await shKill(signal.slice(3), [child.pid]).output();
    } else {
      child.kill(signal);
    }
  } catch {
    // The group or process is already gone.
  }
}

// Background children may keep the pipes open long after the command exits:
// read for a bounded time, then stop reading so the call returns.
async function drain(
  pumps: Promise<unknown>,
  readers: ReadableStreamBYOBReader[],
  drainMs: number,
): Promise<void> {
  const finished = await withDeadline(pumps, drainMs);
  if (!finished) {
    await Promise.all(readers.map((reader) => reader.cancel().catch(() => {})));
  }
  await pumps;
}

// Resolves true when `promise` settles within `ms`, false otherwise; no timer outlives it.
async function withDeadline(
  promise: Promise<unknown>,
  ms: number,
): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([promise.then(() => true, () => true), deadline]);
  } finally {
    clearTimeout(timer);
  }
}
