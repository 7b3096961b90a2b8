// The settings a command runs with, merged from flags > environment >
// workspace file (.fello/config.json, and .mcp.json for servers) > user file
// (config.json in the user's config folder) > defaults, each with where it
// came from. A workspace file gains no power by being opened: its deny rules
// and harmless settings apply at once, the rest only once the workspace is
// trusted.
import { join } from "node:path";
import type { McpServerConfig } from "../agent/mcp_tools.ts";
import { tildePath, userConfigFolder } from "../internal/config_folder.ts";
import { runtime } from "../internal/runtime/runtime.ts";
import { PERMISSION_MODES } from "../tools/permission.ts";
import type { PermissionRules } from "../tools/permission_rules.ts";
import type { PermissionMode, SandboxMode } from "../tools/types.ts";
import {
  AGENT_FLAGS,
  type AgentFlagValues,
  readAgentFlags,
} from "./_agent_flags.ts";
import {
  type ConfigValues,
  readConfigFile,
  readMcpJson,
} from "./_config_file.ts";
import { DEFAULT_BASE_URL } from "../agent/agent.ts";
import type { EndpointSettings } from "./_endpoint.ts";
import { isTrusted, rememberTrust } from "./_workspace_trust.ts";

/** The `node:util` parseArgs options of a command that reads the settings files. */
export const CONFIG_FLAGS = {
  ...AGENT_FLAGS,
  "trust-workspace": { type: "boolean" },
} as const;

/** Flag values the config reads, as parseArgs gives them. */
export interface ConfigFlagValues extends AgentFlagValues {
  "vision-model"?: string;
  "trust-workspace"?: boolean;
}

/** A rule in force, with the file that gave it. */
export interface SourcedRule {
  verdict: "allow" | "deny";
  rule: string;
  source: string;
}

/** The settings in force and where each came from. */
export interface EffectiveConfig {
  endpoint: EndpointSettings;
  permissionMode: PermissionMode;
  visionModel?: string;
  contextTokens?: number;
  maxSteps?: number;
  sandbox: SandboxMode;
  permissions: PermissionRules;
  rules: SourcedRule[];
  mcpServers: (McpServerConfig & { source: string })[];
  /** Setting name -> where its value came from (a flag, a variable, a file, "default"). */
  sources: Record<string, string>;
  /** One line saying what an untrusted workspace's files asked for and did not get. */
  skipped?: string;
}

/** How {@linkcode loadConfig} finds files and asks about trust. */
export interface LoadConfigOptions {
  /** The user's config folder; defaults to userConfigFolder(). Null: none. */
  userFolder?: string | null;
  /** Asks the person whether to trust the workspace; absent when nobody can be asked. */
  askTrust?: (question: string) => Promise<boolean>;
  env?: (name: string) => string | undefined;
}

/** Settings a workspace file may set without being trusted. */
const HARMLESS = ["model", "visionModel", "contextTokens", "maxSteps"] as const;

/**
 * Reads the user's and the workspace's files and merges them with the flags
 * and the environment. Throws a ConfigError for a broken file and a
 * TypeError for a bad flag or URL.
 */
export async function loadConfig(
  flags: ConfigFlagValues,
  workspace: string,
  options: LoadConfigOptions = {},
): Promise<EffectiveConfig> {
  const env = options.env ?? readEnv;
  const checked = readAgentFlags(flags);
  const folder = options.userFolder === undefined
    ? userConfigFolder()
    : options.userFolder ?? undefined;
  const userPath = folder && join(folder, "config.json");
  const workspacePath = join(workspace, ".fello", "config.json");
  const mcpJsonPath = join(workspace, ".mcp.json");
  const [user, project, mcpJson] = await Promise.all([
    userPath ? readConfigFile(userPath) : undefined,
    readConfigFile(workspacePath),
    readMcpJson(mcpJsonPath),
  ]);
  const userSource = userPath ? tildePath(userPath) : "";
  const projectSource = ".fello/config.json";
  const layers: { source: string; values: ConfigValues }[] = [];
  if (user) layers.push({ source: userSource, values: user });
  const trusted = await trustedPart(
    { project, mcpJson, user, workspace, workspacePath, mcpJsonPath },
    flags["trust-workspace"] === true,
    options.askTrust,
  );
  if (trusted.values) {
    layers.push({ source: projectSource, values: trusted.values });
  }
  const sources: Record<string, string> = {};
  const pick = <K extends keyof ConfigValues>(
    key: K,
    ...above: [string, ConfigValues[K] | undefined][]
  ): ConfigValues[K] | undefined => {
    for (const [source, value] of above) {
      if (value !== undefined && value !== "") {
        sources[key] = source;
        return value;
      }
    }
    for (const layer of layers.toReversed()) {
      if (layer.values[key] !== undefined) {
        sources[key] = layer.source;
        return layer.values[key];
      }
    }
    return undefined;
  };
  const baseURL = pick(
    "baseURL",
    ["--base-url", flags["base-url"]?.trim()],
    ["FELLO_BASE_URL", env("FELLO_BASE_URL")?.trim()],
    ["OPENAI_BASE_URL", env("OPENAI_BASE_URL")?.trim()],
  ) ?? DEFAULT_BASE_URL;
  sources.baseURL ??= "default";
  if (!URL.canParse(baseURL) || !/^https?:$/.test(new URL(baseURL).protocol)) {
    throw new TypeError(
      `the base URL "${baseURL}" (from ${sources.baseURL}) is not an http(s) URL; pass --base-url like ${DEFAULT_BASE_URL} (or set FELLO_BASE_URL)`,
    );
  }
  const endpoint: EndpointSettings = { baseURL: baseURL.replace(/\/+$/, "") };
  const apiKey = resolveApiKey(flags, layers, env, sources);
  if (apiKey) endpoint.apiKey = apiKey;
  const model = pick(
    "model",
    ["--model", flags.model?.trim()],
    ["FELLO_MODEL", env("FELLO_MODEL")?.trim()],
  );
  if (model) endpoint.model = model;
  const permissionMode = pick("permissionMode", [
    "--permission-mode",
    flags["permission-mode"] === undefined ? undefined : checked.permissionMode,
  ]) ?? "ask";
  sources.permissionMode ??= "default";
  const sandbox = pick("sandbox", [
    "--sandbox",
    flags.sandbox === undefined ? undefined : checked.sandbox,
  ]) ?? "auto";
  sources.sandbox ??= "default";
  const rules: SourcedRule[] = [];
  for (const layer of layers) {
    for (const verdict of ["deny", "allow"] as const) {
      for (const rule of layer.values.permissions?.[verdict] ?? []) {
        rules.push({ verdict, rule, source: layer.source });
      }
    }
  }
  const servers = new Map<string, McpServerConfig & { source: string }>();
  for (const layer of layers) {
    for (const server of layer.values.mcpServers ?? []) {
      servers.set(server.name, { ...server, source: layer.source });
    }
  }
  for (const server of trusted.mcpJson) {
    servers.set(server.name, { ...server, source: ".mcp.json" });
  }
  return {
    endpoint,
    permissionMode,
    visionModel: pick("visionModel", ["--vision-model", flags["vision-model"]]),
    contextTokens: pick("contextTokens", [
      "--context-tokens",
      checked.contextTokens,
    ]),
    maxSteps: pick("maxSteps", ["--max-steps", checked.maxSteps]),
    sandbox,
    permissions: {
      allow: rules.filter((r) => r.verdict === "allow").map((r) => r.rule),
      deny: rules.filter((r) => r.verdict === "deny").map((r) => r.rule),
    },
    rules,
    mcpServers: [...servers.values()],
    sources,
    skipped: trusted.skipped,
  };
}

function resolveApiKey(
  flags: ConfigFlagValues,
  layers: { source: string; values: ConfigValues }[],
  env: (name: string) => string | undefined,
  sources: Record<string, string>,
): string | undefined {
  for (
    const [source, value] of [
      ["--api-key", flags["api-key"]],
      ["FELLO_API_KEY", env("FELLO_API_KEY")],
      ["OPENAI_API_KEY", env("OPENAI_API_KEY")],
    ] as const
  ) {
    if (value?.trim()) {
      sources.apiKey = source;
      return value.trim();
    }
  }
  for (const { source, values } of layers.toReversed()) {
    if (values.apiKey) {
      sources.apiKey = source;
      return values.apiKey;
    }
    if (values.apiKeyEnv) {
      const key = env(values.apiKeyEnv)?.trim();
      sources.apiKey = `${values.apiKeyEnv} (apiKeyEnv of ${source}${
        key ? "" : ", not set"
      })`;
      return key || undefined;
    }
  }
  return undefined;
}

/**
 * The part of the workspace's files in force: all of it when trusted;
 * otherwise the harmless settings, a mode no more permissive than the
 * user's, and no servers, with the notice line of what was left out.
 */
async function trustedPart(
  files: {
    project: ConfigValues | undefined;
    mcpJson: McpServerConfig[];
    user: ConfigValues | undefined;
    workspace: string;
    workspacePath: string;
    mcpJsonPath: string;
  },
  trustFlag: boolean,
  askTrust: ((question: string) => Promise<boolean>) | undefined,
): Promise<{
  values?: ConfigValues;
  mcpJson: McpServerConfig[];
  skipped?: string;
}> {
  const { project, mcpJson } = files;
  const wanted = powers(files);
  if (wanted.length === 0 || trustFlag) {
    return { values: project, mcpJson };
  }
  if (await isTrusted(files.workspace)) return { values: project, mcpJson };
  const asking = wanted.join("; ");
  if (askTrust) {
    const yes = await askTrust(
      `fello: this workspace's settings ask for more power: ${asking}. Trust ${files.workspace} (remembered)? [y]es / [n]o: `,
    );
    if (yes) {
      await rememberTrust(files.workspace);
      return { values: project, mcpJson };
    }
  }
  const safe: ConfigValues = {};
  for (const key of HARMLESS) {
    if (project?.[key] !== undefined) {
      (safe as Record<string, unknown>)[key] = project[key];
    }
  }
  const userMode = files.user?.permissionMode ?? "ask";
  if (
    project?.permissionMode && !morePermissive(project.permissionMode, userMode)
  ) {
    safe.permissionMode = project.permissionMode;
  }
  const userSandbox = files.user?.sandbox ?? "auto";
  if (project?.sandbox && !looserSandbox(project.sandbox, userSandbox)) {
    safe.sandbox = project.sandbox;
  }
  if (project?.permissions?.deny) {
    safe.permissions = { deny: project.permissions.deny };
  }
  return {
    values: Object.keys(safe).length > 0 ? safe : undefined,
    mcpJson: [],
    skipped:
      `fello: the workspace is not trusted, so these of its settings were skipped: ${asking}; pass --trust-workspace to use them`,
  };
}

/** What the workspace's files ask for that needs trust, one phrase each. */
function powers(files: {
  project: ConfigValues | undefined;
  mcpJson: McpServerConfig[];
  user: ConfigValues | undefined;
  workspacePath: string;
  mcpJsonPath: string;
}): string[] {
  const { project, mcpJson } = files;
  const phrases: string[] = [];
  const fromProject: string[] = [];
  if (project?.permissions?.allow?.length) {
    fromProject.push(`allow rules ${project.permissions.allow.join(", ")}`);
  }
  const userMode = files.user?.permissionMode ?? "ask";
  if (
    project?.permissionMode && morePermissive(project.permissionMode, userMode)
  ) {
    fromProject.push(`permissionMode "${project.permissionMode}"`);
  }
  if (project?.baseURL) fromProject.push(`baseURL ${project.baseURL}`);
  if (project?.apiKey) fromProject.push("apiKey");
  if (project?.apiKeyEnv) fromProject.push(`apiKeyEnv ${project.apiKeyEnv}`);
  const userSandbox = files.user?.sandbox ?? "auto";
  if (project?.sandbox && looserSandbox(project.sandbox, userSandbox)) {
    fromProject.push(`sandbox "${project.sandbox}"`);
  }
  if (project?.mcpServers?.length) {
    fromProject.push(
      `MCP servers ${project.mcpServers.map((s) => s.name).join(", ")}`,
    );
  }
  if (fromProject.length > 0) {
    phrases.push(`${files.workspacePath}: ${fromProject.join(", ")}`);
  }
  if (mcpJson.length > 0) {
    phrases.push(
      `${files.mcpJsonPath}: MCP servers ${
        mcpJson.map((s) => s.name).join(", ")
      }`,
    );
  }
  return phrases;
}

function morePermissive(mode: PermissionMode, than: PermissionMode): boolean {
  return PERMISSION_MODES.indexOf(mode) > PERMISSION_MODES.indexOf(than);
}

/** Sandbox modes from the least confining to the most. */
const CONFINEMENT: readonly SandboxMode[] = ["off", "auto", "required"];

function looserSandbox(mode: SandboxMode, than: SandboxMode): boolean {
  return CONFINEMENT.indexOf(mode) < CONFINEMENT.indexOf(than);
}

function readEnv(name: string): string | undefined {
  try {
    return runtime.env.get(name);
  } catch {
    return undefined;
  }
}
