// What `fello run` sets up around its agent from the settings: the project
// instructions (listed on stderr), the MCP servers of the config (their tools
// named mcp__<server>__<tool>, gated as execute with the same mode and rules
// as the built-in tools), and the question about trusting a workspace.
import type { Agent, AgentApprove } from "../agent/types.ts";
import type { McpServerConfig } from "../agent/mcp_tools.ts";
import {
  findProjectInstructions,
  type ProjectInstructionsFile,
} from "../agent/project_instructions.ts";
import { runtime } from "../internal/runtime/runtime.ts";
import { PermissionGate } from "../tools/permission.ts";
import {
  type PermissionRules,
  PermissionRuleSet,
} from "../tools/permission_rules.ts";
import type { PermissionMode, Tool } from "../tools/types.ts";
import { readLine } from "./_stdin_lines.ts";

/** What a run adds to its agent, and how to stop it. */
export interface RunExtras {
  projectInstructions: ProjectInstructionsFile[];
  extraTools: Tool<unknown, unknown>[];
  /** Tells the MCP gate which agent's mode to follow. */
  attach(agent: Agent): void;
  close(): Promise<void>;
}

/**
 * Reads the project instructions and starts the MCP servers; `warn` gets one
 * line for the instructions found and for each server that fails.
 */
export async function prepareRun(options: {
  cwd: string;
  permissionMode: PermissionMode;
  permissions: PermissionRules;
  mcpServers: McpServerConfig[];
  approve: AgentApprove;
  warn(line: string): void;
}): Promise<RunExtras> {
  const projectInstructions = await findProjectInstructions(options.cwd);
  if (projectInstructions.length > 0) {
    options.warn(
      `fello: instructions from ${
        projectInstructions.map((file) => file.shown).join(", ")
      }`,
    );
  }
  let agent: Agent | undefined;
  if (options.mcpServers.length === 0) {
    return {
      projectInstructions,
      extraTools: [],
      attach: () => {},
      close: () => Promise.resolve(),
    };
  }
  const gate = new PermissionGate(
    options.permissionMode,
    options.approve,
    new PermissionRuleSet(options.permissions, options.cwd),
  );
  const { startMcpServers } = await import("../agent/mcp_tools.ts");
  const mcp = await startMcpServers(options.mcpServers, {
    cwd: options.cwd,
    naming: "prefixed",
    warn: (message) => options.warn(`fello: ${message}`),
    gate: (tool, description) => {
      // The mode may be switched during the session; the MCP tools follow it.
      if (agent) gate.mode = agent.permissionMode;
      return gate.check({
        tool,
        action: "execute",
        outsideWorkspace: false,
        description,
        alwaysKey: tool,
      });
    },
  });
  return {
    projectInstructions,
    extraTools: mcp.tools,
    attach: (value) => void (agent = value),
    close: () => mcp.close(),
  };
}

/**
 * Asks on the terminal whether to trust a workspace's settings; undefined
 * when stdin is no terminal (nobody can be asked).
 */
export function terminalTrustQuestion():
  | ((question: string) => Promise<boolean>)
  | undefined {
  if (!runtime.stdin.isTerminal()) return undefined;
  return async (question) => {
    await runtime.stderr.write(new TextEncoder().encode(question));
    const answer = (await readLine({ maxChars: 1024 }))?.trim().toLowerCase();
    return answer === "y" || answer === "yes";
  };
}
