// The runtime facade: the one module of the package that touches `Deno.*`
// or Node's and Bun's process APIs. It picks its implementation once, as it
// loads: Deno's own namespace under Deno (so Deno's behaviour, permissions
// included, is exactly Deno's), node: modules under Bun and Node (_node.ts).
//
// Its shape (types.ts) is a subset of Deno's namespace, so a call site reads
// as it did (`runtime.stat(path)` for `Deno.stat(path)`); errors are told
// apart by kind ({@linkcode isError}), whatever the runtime threw.
import type { ErrorKind, Runtime } from "./types.ts";

export type * from "./types.ts";
export { SeekMode } from "./types.ts";

/** The runtime the package runs on, picked as this module loads. */
export const runtime: Runtime = "Deno" in globalThis
  ? denoRuntime()
  : await _nodeRuntime();

// Loaded only off Deno: node: modules take a Deno worker milliseconds. Bun
// loads it synchronously: a Bun web Worker drops the messages that arrive
// while its module waits on an import, before it sets its handler.
async function _nodeRuntime(): Promise<Runtime> {
  type NodeModule = typeof import("./_node.ts");
  const { require } = import.meta as { require?: (id: string) => NodeModule };
  const module = require ? require("./_node.ts") : await import("./_node.ts");
  return module.nodeRuntime();
}

/** Whether `error` is of `kind`, whichever runtime raised it. */
export function isError(error: unknown, kind: ErrorKind): boolean {
  return runtime.errorKind(error) === kind;
}

/** A new error of `kind`, as the runtime would throw it. */
export function runtimeError(
  kind: ErrorKind,
  message: string,
  options?: ErrorOptions,
): Error {
  return runtime.newError(kind, message, options);
}

const CLASSES: Record<ErrorKind, keyof typeof Deno.errors> = {
  notFound: "NotFound",
  alreadyExists: "AlreadyExists",
  permissionDenied: "PermissionDenied",
  notCapable: "NotCapable",
  isADirectory: "IsADirectory",
  notADirectory: "NotADirectory",
  brokenPipe: "BrokenPipe",
};

const KINDS = Object.entries(CLASSES) as [
  ErrorKind,
  keyof typeof Deno.errors,
][];

// The facade over `Deno`: Deno's own functions and objects.
function denoRuntime(): Runtime {
  const deno = Deno;
  return {
    name: "deno",
    build: deno.build,
    pid: deno.pid,
    get exitCode() {
      return deno.exitCode;
    },
    args: deno.args,
    env: deno.env,
    permissions: deno.permissions,
    stdin: deno.stdin,
    stdout: deno.stdout,
    stderr: deno.stderr,
    SeekMode: { Start: 0, Current: 1, End: 2 },
    cwd: deno.cwd,
    chdir: deno.chdir,
    exit: deno.exit,
    consoleSize: deno.consoleSize,
    addSignalListener: deno.addSignalListener,
    removeSignalListener: deno.removeSignalListener,
    kill: deno.kill,
    unrefTimer: deno.unrefTimer,
    cpuTimeMs: denoCpuTimeMs,
    stat: deno.stat,
    statSync: deno.statSync,
    lstat: deno.lstat,
    lstatSync: deno.lstatSync,
    readLinkSync: deno.readLinkSync,
    realPath: deno.realPath,
    readDir: deno.readDir,
    readDirSync: deno.readDirSync,
    readFile: deno.readFile,
    readTextFile: deno.readTextFile,
    writeTextFile: deno.writeTextFile,
    mkdir: deno.mkdir,
    remove: deno.remove,
    removeSync: deno.removeSync,
    rename: deno.rename,
    renameSync: deno.renameSync,
    chmod: deno.chmod,
    open: deno.open,
    openSync: deno.openSync,
    makeTempDir: deno.makeTempDir,
    makeTempFileSync: deno.makeTempFileSync,
    command: (command, options) => new deno.Command(command, options),
    errorKind(error) {
      for (const [kind, name] of KINDS) {
        if (error instanceof deno.errors[name]) return kind;
      }
      return undefined;
    },
    newError: (kind, message, options) =>
      new deno.errors[CLASSES[kind]](message, options),
  };
}

// Deno's `process` global (no import of node:process, which costs a worker
// milliseconds; no permission needed).
function denoCpuTimeMs(): number | undefined {
  const usage = (globalThis as {
    process?: { cpuUsage?(): { user: number; system: number } };
  }).process?.cpuUsage?.();
  return usage === undefined ? undefined : (usage.user + usage.system) / 1000;
}
