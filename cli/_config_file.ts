// One settings file of fello (the user's config.json, a workspace's
// .fello/config.json) or a workspace's .mcp.json, read and checked: a file
// that does not parse names its line and column, a wrong key or type names
// the key and what is expected.
import type { McpServerConfig } from "../agent/mcp_tools.ts";
import { isError, runtime } from "../internal/runtime/runtime.ts";
import { PERMISSION_MODES } from "../tools/permission.ts";
import { permissionRuleProblem } from "../tools/permission_rules.ts";
import type { PermissionMode, SandboxMode } from "../tools/types.ts";
import { jsonSyntaxError } from "./_json_error.ts";
import { SANDBOX_MODES } from "./_agent_flags.ts";

/** The settings a config file may hold. */
export interface ConfigValues {
  baseURL?: string;
  model?: string;
  apiKey?: string;
  /** The name of an environment variable that holds the API key. */
  apiKeyEnv?: string;
  visionModel?: string;
  permissionMode?: PermissionMode;
  /** When Shell commands run in the OS sandbox, as `--sandbox` takes it. */
  sandbox?: SandboxMode;
  contextTokens?: number;
  maxSteps?: number;
  permissions?: { allow?: string[]; deny?: string[] };
  /** By name, in the shape of Claude Code's `.mcp.json`. */
  mcpServers?: McpServerConfig[];
}

/** A config file that cannot be used; the message names the file. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

/** The keys of a config file, in the order `fello config` lists them. */
export const CONFIG_KEYS = [
  "baseURL",
  "model",
  "apiKey",
  "apiKeyEnv",
  "visionModel",
  "permissionMode",
  "sandbox",
  "contextTokens",
  "maxSteps",
  "permissions",
  "mcpServers",
] as const;

/**
 * Reads the config file at `path`; undefined when there is none. Throws a
 * ConfigError for a file that does not parse or holds a wrong key or type.
 */
export async function readConfigFile(
  path: string,
): Promise<ConfigValues | undefined> {
  const data = await readJson(path);
  if (data === undefined) return undefined;
  return checkConfig(path, data);
}

/**
 * Reads the servers of a `.mcp.json` (`{ "mcpServers": { ... } }`); an empty
 * list when there is none. Throws a ConfigError as {@linkcode readConfigFile}.
 */
export async function readMcpJson(path: string): Promise<McpServerConfig[]> {
  const data = await readJson(path);
  if (data === undefined) return [];
  const object = objectAt(path, "", data);
  for (const key of Object.keys(object)) {
    if (key !== "mcpServers") unknownKey(path, key, ["mcpServers"]);
  }
  return object.mcpServers === undefined
    ? []
    : mcpServersAt(path, object.mcpServers);
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await runtime.readTextFile(path);
  } catch (error) {
    // A file Deno's grants leave out counts as absent: the run asked for
    // less, not for an error.
    if (
      isError(error, "notFound") || isError(error, "notADirectory") ||
      isError(error, "notCapable")
    ) {
      return undefined;
    }
    throw new ConfigError(
      `${path}: cannot be read: ${(error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    const at = jsonSyntaxError(text);
    if (at === undefined) {
      throw new ConfigError(`${path}: ${(error as Error).message}`);
    }
    throw new ConfigError(
      `${path}:${at.line}:${at.column}: not valid JSON: expected ${at.expected}`,
    );
  }
}

function checkConfig(path: string, data: unknown): ConfigValues {
  const object = objectAt(path, "", data);
  const values: ConfigValues = {};
  for (const [key, value] of Object.entries(object)) {
    switch (key) {
      case "$schema":
        break;
      case "baseURL":
        values.baseURL = stringAt(path, key, value);
        if (
          !/^https?:\/\//.test(values.baseURL) || !URL.canParse(values.baseURL)
        ) {
          wrongType(path, key, "an http(s) URL", value);
        }
        break;
      case "model":
      case "apiKey":
      case "apiKeyEnv":
      case "visionModel":
        values[key] = stringAt(path, key, value);
        break;
      case "permissionMode":
        values.permissionMode = oneOf(path, key, value, PERMISSION_MODES);
        break;
      case "sandbox":
        values.sandbox = oneOf(path, key, value, SANDBOX_MODES);
        break;
      case "contextTokens":
      case "maxSteps":
        if (!Number.isInteger(value) || (value as number) < 1) {
          wrongType(path, key, "a whole number of at least 1", value);
        }
        values[key] = value as number;
        break;
      case "permissions":
        values.permissions = permissionsAt(path, value);
        break;
      case "mcpServers":
        values.mcpServers = mcpServersAt(path, value);
        break;
      default:
        unknownKey(path, key, ["$schema", ...CONFIG_KEYS]);
    }
  }
  return values;
}

function permissionsAt(
  path: string,
  value: unknown,
): { allow?: string[]; deny?: string[] } {
  const object = objectAt(path, "permissions", value);
  const rules: { allow?: string[]; deny?: string[] } = {};
  for (const [key, list] of Object.entries(object)) {
    if (key !== "allow" && key !== "deny") {
      unknownKey(path, `permissions.${key}`, ["allow", "deny"]);
    }
    const where = `permissions.${key}`;
    if (!Array.isArray(list)) {
      wrongType(path, where, 'a list of rules like ["Shell(git *)"]', list);
    }
    list.forEach((rule, index) => {
      const problem = permissionRuleProblem(rule);
      if (problem) fail(path, `${where}[${index}]`, problem);
    });
    rules[key] = list.map((rule: string) => rule.trim());
  }
  return rules;
}

function mcpServersAt(path: string, value: unknown): McpServerConfig[] {
  const object = objectAt(path, "mcpServers", value);
  return Object.entries(object).map(([name, entry]) => {
    const where = `mcpServers.${name}`;
    const server = objectAt(path, where, entry);
    const type = server.type ?? "stdio";
    if (type === "http" || type === "sse") {
      allowOnly(path, where, server, ["type", "url", "headers"]);
      const url = stringAt(path, `${where}.url`, server.url);
      if (!URL.canParse(url)) {
        wrongType(path, `${where}.url`, "a URL", url);
      }
      return {
        name,
        type,
        url,
        headers: stringMapAt(path, `${where}.headers`, server.headers),
      };
    }
    if (type !== "stdio") {
      wrongType(path, `${where}.type`, '"stdio", "http" or "sse"', type);
    }
    allowOnly(path, where, server, ["type", "command", "args", "env"]);
    const args = server.args ?? [];
    if (
      !Array.isArray(args) || !args.every((arg) => typeof arg === "string")
    ) {
      wrongType(path, `${where}.args`, "a list of strings", args);
    }
    return {
      name,
      command: stringAt(path, `${where}.command`, server.command),
      args,
      env: stringMapAt(path, `${where}.env`, server.env),
    };
  });
}

function allowOnly(
  path: string,
  where: string,
  object: Record<string, unknown>,
  keys: string[],
): void {
  for (const key of Object.keys(object)) {
    if (!keys.includes(key)) unknownKey(path, `${where}.${key}`, keys);
  }
}

function objectAt(
  path: string,
  key: string,
  value: unknown,
): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    if (key === "") {
      throw new ConfigError(
        `${path}: expected an object ({ ... }) at the top, not ${
          kindOf(value)
        }`,
      );
    }
    wrongType(path, key, "an object", value);
  }
  return value as Record<string, unknown>;
}

function oneOf<T extends string>(
  path: string,
  key: string,
  value: unknown,
  choices: readonly T[],
): T {
  if (!choices.includes(value as T)) {
    wrongType(
      path,
      key,
      `one of ${choices.map((c) => `"${c}"`).join(", ")}`,
      value,
    );
  }
  return value as T;
}

function stringAt(path: string, key: string, value: unknown): string {
  if (typeof value !== "string" || value.trim() === "") {
    wrongType(path, key, "a non-empty string", value);
  }
  return value;
}

function stringMapAt(
  path: string,
  key: string,
  value: unknown,
): Record<string, string> {
  if (value === undefined) return {};
  const object = objectAt(path, key, value);
  for (const [name, each] of Object.entries(object)) {
    if (typeof each !== "string") {
      wrongType(path, `${key}.${name}`, "a string", each);
    }
  }
  return object as Record<string, string>;
}

function wrongType(
  path: string,
  key: string,
  expected: string,
  value: unknown,
): never {
  fail(path, key, `expected ${expected}, not ${kindOf(value)}`);
}

function unknownKey(
  path: string,
  key: string,
  known: readonly string[],
): never {
  fail(path, key, `unknown key; expected one of ${known.join(", ")}`);
}

function fail(path: string, key: string, problem: string): never {
  throw new ConfigError(`${path}: "${key}": ${problem}`);
}

function kindOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "string") return JSON.stringify(value.slice(0, 60));
  if (typeof value === "object") return "an object";
  return String(value);
}
