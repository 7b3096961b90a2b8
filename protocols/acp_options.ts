/**
 * The options of the ACP agent, apart from the agent so that its helpers can
 * name them without importing it.
 *
 * @module
 */
import type { PermissionMode, SandboxMode } from "../tools/types.ts";
import type { PermissionRules } from "../tools/permission_rules.ts";
import type { McpServerConfig } from "../agent/mcp_tools.ts";

/** Options for `createAcpAgent`: the model endpoint and agent settings. */
export interface AcpAgentOptions {
  /** The model name, e.g. `"qwen3"`; without it, `chooseModel` names one. */
  model?: string;
  /**
   * Names the model when `model` is not set, at the first `session/new` (so
   * the agent starts even while the endpoint is down), e.g. by asking the
   * endpoint for its models.
   */
  chooseModel?: () => Promise<string>;
  /** The model ImageAnalysis asks; defaults to the model. */
  visionModel?: string;
  /** An OpenAI-compatible endpoint; defaults to a local Ollama. */
  baseURL?: string;
  /** Sent as a bearer token when present. */
  apiKey?: string;
  /** What needs approval through `session/request_permission`; defaults to `"ask"`. */
  permissionMode?: PermissionMode;
  /**
   * Rules like `Shell(git status*)` that allow or deny tool calls without
   * asking, in every mode, for the built-in tools and MCP tools alike; deny
   * wins (see `createAgent`'s `permissions`).
   */
  permissions?: PermissionRules;
  /**
   * MCP servers every session connects besides those the editor lists (an
   * editor's server of the same name wins).
   */
  configuredMcpServers?: McpServerConfig[];
  /** When Shell runs commands in the OS sandbox (see `createTools`); defaults to `"auto"`. */
  sandbox?: SandboxMode;
  /** Lets sandboxed commands use the network; default false. */
  sandboxNetwork?: boolean;
  /** Model calls per prompt at most. */
  maxSteps?: number;
  /** The model's context window in tokens (see `AgentOptions.contextTokens`). */
  contextTokens?: number;
  /** Added to the built-in system prompt. */
  instructions?: string;
  /**
   * A folder to save each session's conversation in after each prompt, so
   * that `session/load` can open it again and `session/list` and
   * `session/delete` find it (offered only then); the newest 200 are kept.
   * `fello acp` uses `acp-sessions` in the state folder (`$FELLO_STATE_DIR`,
   * else `$XDG_STATE_HOME/fello`, else `~/.local/state/fello`); by default
   * nothing is saved.
   */
  sessionsDir?: string;
  /**
   * Words a failed `session/new` or prompt turn for the editor, e.g. adding
   * how to configure an unreachable endpoint (`fello acp` adds its flags and
   * variables); defaults to the error's message.
   */
  describeError?: (error: Error) => string;
}
