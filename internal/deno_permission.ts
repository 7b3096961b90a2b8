// The second gate: Deno's own permissions, checked before every operation so a
// missing grant becomes a clear ToolError instead of a NotCapable crash.
import { dirname, resolve } from "node:path";
import { isWithin, physicalPath, realPathOrNearest } from "./paths.ts";
import { ToolError } from "./tool_error.ts";
import { runtime } from "./runtime/runtime.ts";
import type { PermissionDescriptor } from "./runtime/runtime.ts";

/** A Deno permission a tool needs. */
export type DenoGrant =
  | { name: "read" | "write"; path: string }
  | { name: "run"; command: string };

/**
 * Resolves when Deno grants `grant`. Prompts only when stdin is a terminal;
 * otherwise a grant in the "prompt" state counts as denied, so nothing hangs.
 */
export async function requireDenoPermission(grant: DenoGrant): Promise<void> {
  const descriptor: PermissionDescriptor = grant;
  let status = await runtime.permissions.query(descriptor);
  if (status.state === "prompt" && runtime.stdin.isTerminal()) {
    status = await runtime.permissions.request(descriptor);
  }
  if (status.state === "granted") return;
  throw new ToolError(denialMessage(grant));
}

/**
 * Requires Deno's grant for `path` and for where it really leads. Deno checks
 * a path as written (`..` dropped lexically), so a symlink below a granted
 * folder would carry the operation out of the grant, and a subprocess
 * (ripgrep) is not confined by Deno at all: the real path must be granted
 * too, or stay inside the real path of the highest granted folder above
 * `path` (so a grant given through a symlinked path, like macOS's /tmp,
 * keeps working). `path` is absolute and may hold `..`, resolved the OS's
 * way ({@linkcode physicalPath}).
 */
export async function requireRealGrant(
  name: "read" | "write",
  path: string,
): Promise<void> {
  const lexical = resolve(path);
  await requireDenoPermission({ name, path: lexical });
  const real = await physicalPath(path);
  if (real === lexical || (await granted({ name, path: real }))) return;
  let root = lexical;
  while (
    dirname(root) !== root && (await granted({ name, path: dirname(root) }))
  ) {
    root = dirname(root);
  }
  if (isWithin(await realPathOrNearest(root), real)) return;
  try {
    await requireDenoPermission({ name, path: real });
  } catch (error) {
    if (!(error instanceof ToolError)) throw error;
    const verb = name === "read" ? "reading" : "writing";
    throw new ToolError(
      `Deno denies ${verb} "${path}": it leads through a symlink to "${real}", outside the granted "${root}"; run deno again with --allow-${name}=${real} (or a parent folder)`,
    );
  }
}

/** Whether Deno already grants `descriptor`; never prompts. */
export async function granted(
  descriptor: PermissionDescriptor,
): Promise<boolean> {
  return (await runtime.permissions.query(descriptor)).state === "granted";
}

/** {@linkcode granted}, without awaiting (for exit handlers). */
export function grantedSync(descriptor: PermissionDescriptor): boolean {
  return runtime.permissions.querySync(descriptor).state === "granted";
}

function denialMessage(grant: DenoGrant): string {
  if (grant.name === "run") {
    return `Deno denies running "${grant.command}": run deno again with --allow-run=${grant.command} (or --allow-run)`;
  }
  const verb = grant.name === "read" ? "reading" : "writing";
  return `Deno denies ${verb} "${grant.path}": run deno again with --allow-${grant.name}=${grant.path} (or a parent folder)`;
}
