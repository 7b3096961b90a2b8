// `fello mcp` as a subprocess, driven by the official MCP client over stdio,
// as an editor or another agent would connect to it.
import { dirname } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { MOD } from "./fello_cli.ts";

/** How to start the server. */
export interface McpServerOptions {
  /** The workspace, passed as `--cwd`; without it, the process's folder. */
  workspace?: string;
  /** Deno's flags for the server (default `-A`). */
  denoFlags?: string[];
  /** Flags after `mcp` besides `--cwd` (e.g. `--workspace-only`). */
  serverFlags?: string[];
  /** The server process's folder (default the repository). */
  cwd?: string;
  /** Its environment (default this process's; the transport passes only a few otherwise). */
  env?: Record<string, string>;
  /** Where its stderr goes (default piped, so it does not clutter the test output). */
  stderr?: "pipe" | "ignore" | "inherit";
  /** The client's name, for the server's logs. */
  name?: string;
}

/** Starts `fello mcp` and connects the official client to it; close it when done. */
export async function connectMcp(
  options: McpServerOptions = {},
): Promise<Client> {
  const workspace = options.workspace === undefined
    ? []
    : ["--cwd", options.workspace];
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: [
      "run",
      ...options.denoFlags ?? ["-A"],
      MOD,
      "mcp",
      ...workspace,
      ...options.serverFlags ?? [],
    ],
    cwd: options.cwd ?? dirname(MOD),
    env: options.env ?? Deno.env.toObject(),
    stderr: options.stderr ?? "pipe",
  });
  const client = new Client({
    name: options.name ?? "fello-tests",
    version: "1.0.0",
  });
  // Kept (its last part) to tell why, should the server end mid-test.
  let stderr = "";
  transport.stderr?.on("data", (chunk: Uint8Array) => {
    stderr = (stderr + new TextDecoder().decode(chunk)).slice(-8000);
  });
  serverStderr.set(client, () => stderr);
  await client.connect(transport);
  return client;
}

const serverStderr = new WeakMap<Client, () => string>();

/** A tool call's content parts and error flag, as the server sent them. */
export async function callParts(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ parts: { type: string; text?: string }[]; isError: boolean }> {
  const result = await client.callTool({ name, arguments: args }).catch(
    (error: Error) => {
      const stderr = serverStderr.get(client)?.();
      if (stderr) error.message += `\nthe server's stderr:\n${stderr}`;
      throw error;
    },
  );
  return {
    parts: (result.content ?? []) as { type: string; text?: string }[],
    isError: result.isError === true,
  };
}

/** A tool call's text (its text parts joined by newlines) and error flag. */
export async function callText(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ text: string; isError: boolean }> {
  const { parts, isError } = await callParts(client, name, args);
  return { text: parts.map((part) => part.text ?? "").join("\n"), isError };
}
