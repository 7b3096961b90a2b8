// MCP servers (an editor's session/new list, or the mcpServers of fello's
// config): each is connected with the official MCP client and its tools
// become tools the model can call. Closing stops the servers.
import type { Client, Transport } from "@modelcontextprotocol/client";
import { importPackage } from "../internal/lazy_import.ts";
import denoJson from "../deno.json" with { type: "json" };
import { ToolError } from "../internal/tool_error.ts";
import { withLinearReads } from "./_mcp_read_buffer.ts";
import type { JsonSchema, Tool } from "../tools/types.ts";

// Loaded by a computed specifier: a first run that starts no MCP server
// never fetches the SDK (see internal/lazy_import.ts).
const sdk = await importPackage<typeof import("@modelcontextprotocol/client")>(
  "@modelcontextprotocol/client",
);
const stdioSdk = await importPackage<
  typeof import("@modelcontextprotocol/client/stdio")
>("@modelcontextprotocol/client/stdio");

/** Asks before a tool that is not read-only runs; throws a ToolError when refused. */
export type McpGate = (tool: string, description: string) => Promise<void>;

/** A server started as a subprocess that speaks MCP on its stdin and stdout. */
export interface McpStdioServer {
  name: string;
  type?: "stdio";
  command: string;
  args?: string[];
  /** Added to the few variables the child gets (HOME, PATH, SHELL, TERM). */
  env?: Record<string, string>;
}

/** A server reached over Streamable HTTP (`http`) or the older SSE transport. */
export interface McpRemoteServer {
  name: string;
  type: "http" | "sse";
  url: string;
  headers?: Record<string, string>;
}

/** An MCP server to connect. */
export type McpServerConfig = McpStdioServer | McpRemoteServer;

/** How {@linkcode startMcpServers} names tools, starts servers and warns. */
export interface McpStartOptions {
  /** Where stdio servers start. */
  cwd: string;
  gate: McpGate;
  /**
   * `"prefixed"`: every tool is `mcp__<server>__<tool>`. `"short"` (the
   * default): a tool keeps its own name unless a `reserved` one or another
   * server's tool has it; then it is `<server>__<tool>`.
   */
  naming?: "prefixed" | "short";
  reserved?: ReadonlySet<string>;
  /**
   * Whether a tool the server marks read-only (`readOnlyHint`) runs without
   * the gate; by default every call goes through it (a server's hint is its
   * own word, and deny rules must reach every tool).
   */
  trustReadOnlyHint?: boolean;
  /** Told one line for each server that fails to start. */
  warn(message: string): void;
}

/** The started servers and the tools they offer. */
export interface McpTools {
  tools: Tool<unknown, unknown>[];
  /** Stops every server. */
  close(): Promise<void>;
}

interface McpTool {
  name: string;
  description?: string;
  inputSchema: { [key: string]: unknown };
  annotations?: { readOnlyHint?: boolean };
}

interface McpContent {
  type: string;
  text?: string;
  mimeType?: string;
  resource?: { uri?: string; text?: string };
}

const CONNECT_TIMEOUT_MS = 30_000;

/**
 * Connects to the servers of `servers` (stdio ones are started in `cwd`;
 * HTTP and SSE ones are reached at their URL) and lists their tools. A server
 * that fails to start is one `warn` line and is left out.
 */
export async function startMcpServers(
  servers: readonly McpServerConfig[],
  options: McpStartOptions,
): Promise<McpTools> {
  const clients: Client[] = [];
  // All at once: one server slow to start must not hold up the others. The
  // tools keep the order of the listing.
  const listed = await Promise.all(servers.map(async (server) => {
    try {
      const client = await connect(server, options.cwd);
      clients.push(client);
      const tools = await listTools(client);
      return tools.map((tool) => ({ client, server: server.name, tool }));
    } catch (error) {
      options.warn(
        `cannot start MCP server "${server.name}" (${describe(server)}): ${
          (error as Error).message
        }`,
      );
      return [];
    }
  }));
  const found = listed.flat();
  const counts = new Map<string, number>();
  for (const { tool } of found) {
    counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  }
  const tools = found.map(({ client, server, tool }) => {
    const shared = counts.get(tool.name)! > 1 ||
      options.reserved?.has(tool.name) === true;
    const name = options.naming === "prefixed"
      ? modelSafe(`mcp__${server}__${tool.name}`)
      : modelSafe(shared ? `${server}__${tool.name}` : tool.name);
    return wrapTool(client, {
      server,
      name,
      tool,
      gate: options.gate,
      ungated: options.trustReadOnlyHint === true &&
        tool.annotations?.readOnlyHint === true,
    });
  });
  return {
    tools,
    async close(): Promise<void> {
      await Promise.allSettled(clients.map((client) => client.close()));
    },
  };
}

async function connect(
  server: McpServerConfig,
  cwd: string,
): Promise<Client> {
  const client = new sdk.Client({ name: "fello", version: denoJson.version });
  const signal = AbortSignal.timeout(CONNECT_TIMEOUT_MS);
  try {
    await client.connect(transportOf(server, cwd), { signal });
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return client;
}

function transportOf(server: McpServerConfig, cwd: string): Transport {
  if (server.type === "http" || server.type === "sse") {
    const requestInit = { headers: { ...server.headers } };
    return server.type === "http"
      ? new sdk.StreamableHTTPClientTransport(new URL(server.url), {
        requestInit,
      })
      : new sdk.SSEClientTransport(new URL(server.url), { requestInit });
  }
  const stdio = server as McpStdioServer;
  const transport = new stdioSdk.StdioClientTransport({
    command: stdio.command,
    args: stdio.args ?? [],
    // Added to the SDK's safe defaults (HOME, PATH, ...), not to our environment.
    env: { ...stdio.env },
    cwd,
    stderr: "inherit",
  });
  return withLinearReads(transport, server.name);
}

function describe(server: McpServerConfig): string {
  return "url" in server ? server.url : server.command;
}

async function listTools(client: Client): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools as McpTool[]);
    cursor = page.nextCursor;
  } while (cursor !== undefined && tools.length < 1000);
  return tools;
}

/** A model-safe tool name: `[a-zA-Z0-9_-]`, at most 64 characters. */
function modelSafe(name: string): string {
  return name.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
}

function wrapTool(
  client: Client,
  { server, name, tool, gate, ungated }: {
    server: string;
    name: string;
    tool: McpTool;
    gate: McpGate;
    ungated: boolean;
  },
): Tool<unknown, unknown> {
  const readOnly = tool.annotations?.readOnlyHint === true;
  return {
    name,
    kind: readOnly ? "read" : "other",
    description: `(From MCP server "${server}".) ${
      tool.description ?? tool.name
    }`,
    inputSchema: tool.inputSchema as JsonSchema,
    async execute(input: unknown, options = {}): Promise<unknown> {
      if (!ungated) {
        await gate(name, `Call MCP tool "${tool.name}" of server "${server}"`);
      }
      let result;
      try {
        result = await client.callTool(
          {
            name: tool.name,
            arguments: (input ?? {}) as Record<string, unknown>,
          },
          { signal: options.signal },
        );
      } catch (error) {
        throw new ToolError(
          `Cannot call MCP tool "${tool.name}" of server "${server}": ${
            (error as Error).message
          }`,
          { cause: error },
        );
      }
      const text = renderContent(
        result.content as McpContent[] | undefined,
        result,
      );
      if (result.isError) {
        throw new ToolError(
          `MCP tool "${tool.name}" of server "${server}" failed: ${text}`,
        );
      }
      return text;
    },
    toModelText: (output: unknown): string => String(output),
  };
}

function renderContent(
  content: McpContent[] | undefined,
  result: { structuredContent?: unknown },
): string {
  const parts = (content ?? []).map((block) => {
    if (block.type === "text") return block.text ?? "";
    if (block.type === "resource") {
      return block.resource?.text ?? `[resource ${block.resource?.uri ?? ""}]`;
    }
    return `[${block.type}${block.mimeType ? ` ${block.mimeType}` : ""}]`;
  });
  if (parts.length === 0 && result.structuredContent !== undefined) {
    return JSON.stringify(result.structuredContent);
  }
  return parts.join("\n");
}
