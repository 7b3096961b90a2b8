// The "acp" command: runs the agent as an Agent Client Protocol agent on
// stdio, for editors such as Zed. Stdout belongs to the protocol, so every
// message here goes to stderr.
import { join } from "node:path";
import { stateFolder } from "../agent/session_file.ts";
import { parseArgs } from "node:util";
import { DEFAULT_CONTEXT_TOKENS, DEFAULT_MAX_STEPS } from "../agent/agent.ts";
import { readAgentFlags } from "./_agent_flags.ts";
import { CONFIG_FLAGS, type EffectiveConfig, loadConfig } from "./_config.ts";
import {
  describeEndpointFailure,
  ENDPOINT_USAGE,
  resolveModel,
} from "./_endpoint.ts";
import { EndpointError } from "../agent/endpoint_error.ts";
import { exitCleanlyOn } from "./_exit_on_signals.ts";
import { keepServingOnStrayErrors } from "./_stray_errors.ts";
import { workspaceFolder } from "./_workspace.ts";
import { runtime } from "../internal/runtime/runtime.ts";
import { importOrExplain } from "./_import_or_explain.ts";

const USAGE = `Usage: fello acp [options]

Runs the agent as an Agent Client Protocol agent over stdio, so an editor
(Zed, for one) can use it as an external agent. The editor gives each session
its folder and MCP servers; files and commands go through the editor when it
offers them. Each session's conversation is saved after each prompt in
acp-sessions in $FELLO_STATE_DIR (else $XDG_STATE_HOME/fello, else
~/.local/state/fello), so the editor can open it again (session/load).

Options:
${ENDPOINT_USAGE}
  --permission-mode MODE  ask (default: the editor asks you), acceptEdits, allow or readOnly
  --sandbox WHEN          auto (default: Shell commands run in bubblewrap except in
                          allow mode), required (always; refuse without it) or off
  --sandbox-network       let sandboxed commands use the network
  --max-steps N           model calls per prompt at most (default ${DEFAULT_MAX_STEPS})
  --context-tokens N      the model's context window less room for its answer:
                          past it, the oldest tool calls are cleared, then the
                          oldest messages summarized (default ${DEFAULT_CONTEXT_TOKENS})
  --vision-model NAME     the model ImageAnalysis asks (default: the --model)
  --cwd DIR               the folder the agent runs in (each session still works
                          in the folder the editor gives it)
  --trust-workspace       use the --cwd folder's allow rules, endpoint, key and
                          MCP servers (.fello/config.json, .mcp.json)
  -h, --help              show this help

Settings also come from .fello/config.json in the --cwd folder (default: the
current one) and config.json in $XDG_CONFIG_HOME/fello (else ~/.config/fello),
as for fello run: the flags and variables win, an untrusted workspace's
powers are skipped (nobody can be asked: stdin is the protocol), and
"fello config" shows them. The MCP servers they name join every session's.`;

/** Runs the "acp" command and resolves to its exit code when the client disconnects. */
export async function main(args: string[]): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args,
      options: CONFIG_FLAGS,
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    return usageError(`${(error as Error).message}; see fello acp --help`);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let sandboxNetwork: boolean;
  let config: EffectiveConfig;
  try {
    ({ sandboxNetwork } = readAgentFlags(values));
    const cwd = await workspaceFolder(values.cwd);
    if (values.cwd !== undefined) runtime.chdir(cwd);
    config = await loadConfig(values, cwd);
  } catch (error) {
    return usageError((error as Error).message);
  }
  if (config.skipped) console.error(config.skipped);
  keepServingOnStrayErrors("acp");
  exitCleanlyOn(["SIGTERM", "SIGHUP", "SIGINT"]);
  // Run by hand, a silent agent looks hung.
  if (runtime.stdin.isTerminal()) {
    console.error(
      "fello acp: waiting for an ACP client on stdin (an editor such as Zed starts this command itself; Ctrl-C quits)",
    );
  }
  const server = await importOrExplain<
    typeof import("../protocols/acp_agent.ts")
  >("acp", new URL("../protocols/acp_agent.ts", import.meta.url));
  if (!server) return 2;
  const { endpoint } = config;
  await server.serveAcp({
    baseURL: endpoint.baseURL,
    apiKey: endpoint.apiKey,
    model: endpoint.model,
    chooseModel: () => resolveModel(endpoint),
    permissionMode: config.permissionMode,
    permissions: config.permissions,
    configuredMcpServers: config.mcpServers,
    sandbox: config.sandbox,
    sandboxNetwork,
    maxSteps: config.maxSteps,
    contextTokens: config.contextTokens,
    visionModel: config.visionModel,
    sessionsDir: acpSessionsDir(),
    // The editor shows the same advice as `fello run`: the fix is the flags
    // or env of the editor's entry for fello.
    describeError: (error) =>
      error instanceof EndpointError
        ? describeEndpointFailure(error)
        : error.message,
  });
  return 0;
}

// Where editors' sessions are saved for session/load; none (and no
// session/load) when no state folder can be found.
function acpSessionsDir(): string | undefined {
  try {
    return join(stateFolder(), "acp-sessions");
  } catch {
    return undefined;
  }
}

function usageError(message: string): number {
  console.error(`fello acp: ${message}`);
  return 2;
}
