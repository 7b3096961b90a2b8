// The flags the agent commands (run, acp) share besides the endpoint ones:
// one table for parseArgs and one reader, so both commands accept and word
// them alike.
import type { PermissionMode, SandboxMode } from "../tools/types.ts";
import { MIN_MAP_TOKENS } from "../tools/repo_map/repo_map.ts";
import { ENDPOINT_FLAGS, type EndpointFlagValues } from "./_endpoint.ts";

/** The `node:util` parseArgs options shared by run and acp. */
export const AGENT_FLAGS = {
  ...ENDPOINT_FLAGS,
  "permission-mode": { type: "string" },
  "max-steps": { type: "string" },
  "context-tokens": { type: "string" },
  "map-tokens": { type: "string" },
  "vision-model": { type: "string" },
  sandbox: { type: "string" },
  "sandbox-network": { type: "boolean" },
  cwd: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

/** Parsed flag values, as parseArgs returns them for {@linkcode AGENT_FLAGS}. */
export interface AgentFlagValues extends EndpointFlagValues {
  "permission-mode"?: string;
  "max-steps"?: string;
  "context-tokens"?: string;
  sandbox?: string;
  "sandbox-network"?: boolean;
  "map-tokens"?: string;
}

/** The checked values of the permission, step and context flags. */
export interface AgentFlags {
  permissionMode: PermissionMode;
  maxSteps?: number;
  contextTokens?: number;
  sandbox: SandboxMode;
  sandboxNetwork: boolean;
  /** Tokens of the repo map each conversation starts with; 0 for none. */
  repoMapTokens: number;
}

// In the order the help text lists them.
const MODES: readonly PermissionMode[] = [
  "ask",
  "acceptEdits",
  "allow",
  "readOnly",
];

/** The values of `--sandbox` and of the config key `sandbox`. */
export const SANDBOX_MODES: readonly SandboxMode[] = [
  "auto",
  "off",
  "required",
];

/**
 * Checks --permission-mode (default "ask"), --max-steps, --context-tokens,
 * --map-tokens and --sandbox (default "auto"); throws a usage message.
 */
export function readAgentFlags(values: AgentFlagValues): AgentFlags {
  const mode = values["permission-mode"] ?? "ask";
  if (!MODES.includes(mode as PermissionMode)) {
    throw new TypeError(
      `--permission-mode must be one of ${MODES.join(", ")}, not "${mode}"`,
    );
  }
  const sandbox = values.sandbox ?? "auto";
  if (!SANDBOX_MODES.includes(sandbox as SandboxMode)) {
    throw new TypeError(
      `--sandbox must be one of ${SANDBOX_MODES.join(", ")}, not "${sandbox}"`,
    );
  }
  return {
    permissionMode: mode as PermissionMode,
    maxSteps: wholeNumber(values, "max-steps"),
    contextTokens: wholeNumber(values, "context-tokens"),
    sandbox: sandbox as SandboxMode,
    sandboxNetwork: values["sandbox-network"] ?? false,
    repoMapTokens: mapTokens(values["map-tokens"]),
  };
}

function mapTokens(text: string | undefined): number {
  if (text === undefined) return 0;
  const number = Number(text);
  if (!Number.isInteger(number) || (number !== 0 && number < MIN_MAP_TOKENS)) {
    throw new TypeError(
      `--map-tokens needs 0 (no map) or a whole number of at least ${MIN_MAP_TOKENS}, not "${text}"`,
    );
  }
  return number;
}

function wholeNumber(
  values: AgentFlagValues,
  flag: "max-steps" | "context-tokens",
): number | undefined {
  const text = values[flag];
  if (text === undefined) return undefined;
  const number = Number(text);
  if (!Number.isInteger(number) || number < 1) {
    throw new TypeError(
      `--${flag} needs a whole number of at least 1, not "${text}"`,
    );
  }
  return number;
}
