// The "config" command: prints the settings `fello run` would use here, each
// with where it came from (a flag, a variable, a file or the default), the
// permission rules, the MCP servers and what an untrusted workspace lost.
import { parseArgs } from "node:util";
import { runtime } from "../internal/runtime/runtime.ts";
import { CONFIG_FLAGS, type EffectiveConfig, loadConfig } from "./_config.ts";
import { writeAll } from "./_render.ts";
import { workspaceFolder } from "./_workspace.ts";

const USAGE = `Usage: fello config [options]

Prints the settings fello run would use in the workspace, each with where it
came from: a flag, an environment variable, the workspace's .fello/config.json
(and .mcp.json), the user's config.json ($XDG_CONFIG_HOME/fello, else
~/.config/fello) or the default. Takes the options of fello run (--cwd,
--model, --trust-workspace, ...), so it shows what they change.

Exit codes: 0 shown, 2 a broken settings file or bad usage.`;

/** Runs the "config" command and resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  let values;
  try {
    values = parseArgs({ args, options: CONFIG_FLAGS, strict: true }).values;
  } catch (error) {
    return failed(`${(error as Error).message}; see fello config --help`);
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  let config: EffectiveConfig;
  let cwd: string;
  try {
    cwd = await workspaceFolder(values.cwd);
    config = await loadConfig(values, cwd);
  } catch (error) {
    return failed((error as Error).message);
  }
  writeAll(runtime.stdout, `${describeConfig(config, cwd)}\n`);
  return 0;
}

/** The lines `fello config` prints. */
export function describeConfig(config: EffectiveConfig, cwd: string): string {
  const { endpoint, sources } = config;
  const rows: [string, string, string][] = [
    ["workspace", cwd, ""],
    ["baseURL", endpoint.baseURL, sources.baseURL],
    [
      "model",
      endpoint.model ?? "(the endpoint's first model)",
      sources.model ?? "default",
    ],
    [
      "apiKey",
      endpoint.apiKey
        ? `(set, ${endpoint.apiKey.length} characters)`
        : "(none)",
      sources.apiKey ?? "default",
    ],
    ["permissionMode", config.permissionMode, sources.permissionMode],
    ...optional(config, "visionModel", "(the model)"),
    ...optional(config, "contextTokens", "100000"),
    ...optional(config, "maxSteps", "50"),
    ["sandbox", config.sandbox, sources.sandbox],
  ];
  for (const rule of config.rules) {
    rows.push([`permissions.${rule.verdict}`, rule.rule, rule.source]);
  }
  for (const server of config.mcpServers) {
    const where = "url" in server
      ? `${server.type} ${server.url}`
      : `stdio ${[server.command, ...server.args ?? []].join(" ")}`;
    rows.push([`mcpServers.${server.name}`, where, server.source]);
  }
  const width = Math.max(...rows.map(([key]) => key.length));
  const valueWidth = Math.min(
    48,
    Math.max(...rows.map(([, value]) => value.length)),
  );
  const lines = rows.map(([key, value, source]) =>
    `${key.padEnd(width)}  ${value.padEnd(valueWidth)}${
      source ? `  (${source})` : ""
    }`.trimEnd()
  );
  if (config.skipped) lines.push(config.skipped);
  return lines.join("\n");
}

function optional(
  config: EffectiveConfig,
  key: "visionModel" | "contextTokens" | "maxSteps",
  fallback: string,
): [string, string, string][] {
  const value = config[key];
  return [[
    key,
    value === undefined ? fallback : String(value),
    config.sources[key] ?? "default",
  ]];
}

function failed(message: string): number {
  writeAll(runtime.stderr, `fello config: ${message}\n`);
  return 2;
}
