// Which workspaces the user trusts with the settings of their own files
// (allow rules, endpoints, keys, MCP servers): remembered in the state folder,
// one real path a line in trusted_workspaces.json.
import { dirname, join } from "node:path";
import { stateFolder } from "../agent/session_file.ts";
import { runtime } from "../internal/runtime/runtime.ts";

function storePath(): string {
  return join(stateFolder(), "trusted_workspaces.json");
}

async function realOr(path: string): Promise<string> {
  return await runtime.realPath(path).catch(() => path);
}

async function trustedList(): Promise<string[]> {
  try {
    const data = JSON.parse(await runtime.readTextFile(storePath()));
    return Array.isArray(data?.trusted)
      ? data.trusted.filter((p: unknown) => typeof p === "string")
      : [];
  } catch {
    return [];
  }
}

/** Whether the user said to trust `workspace` before. */
export async function isTrusted(workspace: string): Promise<boolean> {
  const real = await realOr(workspace);
  return (await trustedList()).includes(real);
}

/** Remembers that the user trusts `workspace`. */
export async function rememberTrust(workspace: string): Promise<void> {
  const real = await realOr(workspace);
  const list = await trustedList();
  if (list.includes(real)) return;
  const path = storePath();
  await runtime.mkdir(dirname(path), { recursive: true });
  await runtime.writeTextFile(
    path,
    `${JSON.stringify({ trusted: [...list, real] }, null, 2)}\n`,
  );
}
