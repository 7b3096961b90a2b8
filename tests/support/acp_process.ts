// `fello acp` as a child process that speaks ACP over its stdio, as an editor
// starts it, and a test client connected to it.
import * as acp from "@agentclientprotocol/sdk";
import { spawnFello } from "./fello_cli.ts";
import { type AcpRequests, sessionRequests } from "./acp_connect.ts";

/** A running `fello acp`. */
export interface AcpProcess extends AsyncDisposable {
  child: Deno.ChildProcess;
  /**
   * Closes its stdin, as an editor that quits does, and waits for it to end
   * (killed after 10 s); resolves to how it ended.
   */
  stop(): Promise<Deno.CommandStatus>;
}

/**
 * Starts `fello acp ...args` in `cwd` with `env` added to a clean
 * environment; dispose of it (or `stop()` it) when done.
 */
export function spawnAcp(
  args: string[],
  options: {
    cwd: string;
    env?: Record<string, string>;
    stderr?: "inherit" | "null";
  },
): AcpProcess {
  const child = spawnFello(["acp", ...args], {
    ...options,
    stdin: "piped",
    stderr: options.stderr ?? "null",
  });
  let stopped: Promise<Deno.CommandStatus> | undefined;
  const stop = () =>
    stopped ??= (async () => {
      await child.stdin.close().catch(() => {});
      const timer = setTimeout(() => {
        try {
          child.kill("SIGKILL");
        } catch {
          // Already gone.
        }
      }, 10_000);
      try {
        return await child.status;
      } finally {
        clearTimeout(timer);
      }
    })();
  return {
    child,
    stop,
    [Symbol.asyncDispose]: async () => {
      await stop();
    },
  };
}

/** A client connection over a child's stdio, with the session shorthands. */
export interface AcpStdioConnection extends AcpRequests {
  connection: acp.ClientConnection;
  init: acp.InitializeResponse;
}

/** Connects `app` to `agent` over its stdio and initializes with `capabilities`. */
export async function connectStdio(
  app: acp.ClientApp,
  agent: AcpProcess,
  capabilities: acp.ClientCapabilities = {},
): Promise<AcpStdioConnection> {
  const connection = app.connect(
    acp.ndJsonStream(agent.child.stdin, agent.child.stdout),
  );
  const init = await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: capabilities,
  });
  return { connection, init, ...sessionRequests(connection) };
}
