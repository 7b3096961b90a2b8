// The OS sandbox for Shell on Linux: bubblewrap (bwrap) runs the command with
// the whole filesystem read-only except the writable folders and a private
// /tmp, without network unless allowed, in its own PID namespace (so nothing
// it starts outlives it), and killed with its parent.
import { isError, runtime } from "../../internal/runtime/runtime.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { SandboxSupport, ShellSandbox } from "../types.ts";

/** The bubblewrap executable looked up on PATH by default. */
export const DEFAULT_BWRAP = "bwrap";

/**
 * The bwrap command line that runs `argv` (the program and its arguments) in
 * `cwd` confined by `sandbox`. Later mounts cover earlier ones: the root
 * read-only, then a fresh /dev, /proc and /tmp, then `cwd` and the readable
 * folders read-only and the writable ones writable (a workspace under /tmp
 * stays reachable).
 */
export function sandboxArgs(
  sandbox: ShellSandbox,
  cwd: string,
  argv: string[],
): string[] {
  const args = [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
  ];
  for (const folder of [cwd, ...sandbox.readable ?? []]) {
    args.push("--ro-bind", folder, folder);
  }
  for (const folder of sandbox.writable) args.push("--bind", folder, folder);
  args.push("--unshare-pid", "--die-with-parent");
  if (!sandbox.network) args.push("--unshare-net");
  args.push("--chdir", cwd, "--", ...argv);
  return args;
}

// One probe per bwrap path and process: a working sandbox stays working.
const probes = new Map<string, Promise<SandboxSupport>>();

/**
 * Whether `bwrap` can sandbox a command here: Linux, the program found and
 * allowed to create namespaces. Throws a ToolError when bwrap is installed
 * but Deno does not let it run (a missing `--allow-run=bwrap`), since
 * quietly running unconfined then would hide a fixable setup.
 */
export async function sandboxSupport(bwrap: string): Promise<SandboxSupport> {
  if (runtime.build.os !== "linux") {
    return {
      available: false,
      missing:
        `the sandbox uses bubblewrap, which runs on Linux only (this is ${runtime.build.os})`,
    };
  }
  const status = await runtime.permissions.query({
    name: "run",
    command: bwrap,
  });
  if (status.state !== "granted") {
    if (await onPath(bwrap)) {
      throw new ToolError(
        `Cannot run Shell in the sandbox: Deno denies running "${bwrap}"; run deno again with --allow-run=sh,${bwrap} (or --allow-run), or pass sandbox "off"`,
      );
    }
    return { available: false, missing: notInstalled(bwrap) };
  }
  let probe = probes.get(bwrap);
  if (probe === undefined) {
    probe = probeBwrap(bwrap);
    probes.set(bwrap, probe);
  }
  return await probe;
}

function notInstalled(bwrap: string): string {
  return `"${bwrap}" (bubblewrap) was not found; install it (apt-get install bubblewrap)`;
}

async function probeBwrap(bwrap: string): Promise<SandboxSupport> {
  const args = sandboxArgs({ writable: [], network: false }, "/", ["true"]);
  try {
    const { success, stderr } = await runtime.command(bwrap, {
      args,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    if (success) return { available: true };
    const reason = new TextDecoder().decode(stderr).trim() || "it failed";
    return {
      available: false,
      missing: `"${bwrap}" cannot create a sandbox here (${reason})`,
    };
  } catch (error) {
    if (isError(error, "notFound")) {
      return { available: false, missing: notInstalled(bwrap) };
    }
    return {
      available: false,
      missing: `"${bwrap}" could not be started (${
        error instanceof Error ? error.message : String(error)
      })`,
    };
  }
}

// Whether `program` is on PATH, as far as Deno lets us look without asking.
async function onPath(program: string): Promise<boolean> {
  if (program.includes("/")) return await isFile(program);
  const env = await runtime.permissions.query({
    name: "env",
    variable: "PATH",
  });
  if (env.state !== "granted") return false;
  for (const folder of (runtime.env.get("PATH") ?? "").split(":")) {
    if (folder !== "" && (await isFile(`${folder}/${program}`))) return true;
  }
  return false;
}

async function isFile(path: string): Promise<boolean> {
  const read = await runtime.permissions.query({ name: "read", path });
  if (read.state !== "granted") return false;
  try {
    return (await runtime.stat(path)).isFile;
  } catch {
    return false;
  }
}

// What a command prints when the sandbox stopped it: a write outside the
// writable folders, or a use of the network.
const SANDBOX_FAILURE =
  /read-only file system|EROFS|network is unreachable|ENETUNREACH|could not resolve host|temporary failure in name resolution|EAI_AGAIN|getaddrinfo|name or service not known|dns error|connection refused|ECONNREFUSED|couldn't connect to server|fetch failed/i;

// Output is scanned up to this many characters. Any search copies a string
// that was joined from pieces (V8 flattens it first), and a copy of a huge
// output would double what Shell holds.
const SCANNED_OUTPUT = 1024 * 1024;

/**
 * Whether a failed sandboxed command's output looks like the sandbox stopped
 * it; output longer than 1 MiB is not scanned (false).
 */
export function looksSandboxed(output: string): boolean {
  return output.length <= SCANNED_OUTPUT && SANDBOX_FAILURE.test(output);
}
