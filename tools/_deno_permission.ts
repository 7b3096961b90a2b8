// The second gate: Deno's own permissions, checked before every operation so a
// missing grant becomes a clear ToolError instead of a NotCapable crash.
import { ToolError } from "./tool_error.ts";

/** A Deno permission a tool needs. */
export type DenoGrant =
  | { name: "read" | "write"; path: string }
  | { name: "run"; command: string };

/**
 * Resolves when Deno grants `grant`. Prompts only when stdin is a terminal;
 * otherwise a grant in the "prompt" state counts as denied, so nothing hangs.
 */
export async function requireDenoPermission(grant: DenoGrant): Promise<void> {
  const descriptor: Deno.PermissionDescriptor = grant;
  let status = await Deno.permissions.query(descriptor);
  if (status.state === "prompt" && Deno.stdin.isTerminal()) {
    status = await Deno.permissions.request(descriptor);
  }
  if (status.state === "granted") return;
  throw new ToolError(denialMessage(grant));
}

function denialMessage(grant: DenoGrant): string {
  if (grant.name === "run") {
    return `Deno denies running "${grant.command}": run deno again with --allow-run=${grant.command} (or --allow-run)`;
  }
  const verb = grant.name === "read" ? "reading" : "writing";
  return `Deno denies ${verb} "${grant.path}": run deno again with --allow-${grant.name}=${grant.path} (or a parent folder)`;
}
