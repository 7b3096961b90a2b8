// The MCP servers a client lists in session/new: each is connected with the
// official MCP client and its tools become tools the model can call. Closing
// the session stops the servers.
import type * as acp from "@agentclientprotocol/sdk";
import {
  Client,
  SSEClientTransport,
  StreamableHTTPClientTransport,
  type Transport,
} from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import denoJson from "../deno.json" with { type: "json" };
import { ToolError } from "../internal/tool_error.ts";
import { withLinearReads } from "./_mcp_read_buffer.ts";
import type { JsonSchema, Tool } from "../tools/types.ts";

/** Asks before a tool that is not read-only runs; throws a ToolError when refused. */
export type McpGate = (tool: string, description: string) => Promise<void>;

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
 * that fails to start is reported on stderr and left out.
 *
 * A tool keeps its own name unless that is taken (by a `reserved` built-in
 * tool or by another server's tool); then it is `<server>__<tool>`.
 */
export async function startMcpServers(
  servers: acp.McpServer[],
  options: { cwd: string; gate: McpGate; reserved: ReadonlySet<string> },
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
      console.error(
        `fello acp: cannot start MCP server "${server.name}" (${
          describe(server)
        }): ${(error as Error).message}`,
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
      options.reserved.has(tool.name);
    const name = modelSafe(shared ? `${server}__${tool.name}` : tool.name);
    return wrapTool(client, { server, name, tool, gate: options.gate });
  });
  return {
    tools,
    async close(): Promise<void> {
      await Promise.allSettled(clients.map((client) => client.close()));
    },
  };
}

async function connect(server: acp.McpServer, cwd: string): Promise<Client> {
  const client = new Client({ name: "fello", version: denoJson.version });
  const signal = AbortSignal.timeout(CONNECT_TIMEOUT_MS);
  try {
    await client.connect(transportOf(server, cwd), { signal });
  } catch (error) {
    await client.close().catch(() => {});
    throw error;
  }
  return client;
}

function transportOf(server: acp.McpServer, cwd: string): Transport {
  // Stdio servers carry no type in ACP v1; some clients send "stdio".
  const type = (server as { type?: string }).type;
  if (type === "http" || type === "sse") {
    const { url, headers } = server as acp.McpServerHttp;
    const requestInit = {
      headers: Object.fromEntries(headers.map((h) => [h.name, h.value])),
    };
    return type === "http"
      ? new StreamableHTTPClientTransport(new URL(url), { requestInit })
      : new SSEClientTransport(new URL(url), { requestInit });
  }
  const stdio = server as acp.McpServerStdio;
  const transport = new StdioClientTransport({
    command: stdio.command,
    args: stdio.args,
    // Added to the SDK's safe defaults (HOME, PATH, ...), not to our environment.
    env: Object.fromEntries(stdio.env.map((v) => [v.name, v.value])),
    cwd,
    stderr: "inherit",
  });
  return withLinearReads(transport, server.name);
}

function describe(server: acp.McpServer): string {
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
  { server, name, tool, gate }: {
    server: string;
    name: string;
    tool: McpTool;
    gate: McpGate;
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
      if (!readOnly) {
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
