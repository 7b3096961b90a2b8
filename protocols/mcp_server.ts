/**
 * The Search MCP server: `file_outline`, `search` and `rg` over the Model
 * Context Protocol, built on the official `@modelcontextprotocol/server` SDK.
 *
 * @module
 */
import { McpServer } from "@modelcontextprotocol/server";
import type {
  CallToolResult,
  StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import denoJson from "../deno.json" with { type: "json" };
import { ToolContext } from "../tools/_context.ts";
import { createLocalFiles } from "../tools/_local_files.ts";
import { createLocalProcesses } from "../tools/_local_processes.ts";
import { createRg } from "../tools/_rg.ts";
import { createFileOutline } from "../tools/file_outline.ts";
import { createSearch } from "../tools/search.ts";
import type { JsonSchema, PermissionMode, Tool } from "../tools/types.ts";

/** Options for {@linkcode createSearchMcpServer} and {@linkcode serveSearchMcp}. */
export interface SearchMcpServerOptions {
  /** The workspace relative paths resolve against; defaults to `Deno.cwd()`. */
  cwd?: string;
  /**
   * `"allow"` (the default) reads wherever Deno's own permissions let it; any
   * other mode refuses paths outside the workspace, as nobody is there to ask.
   */
  permissionMode?: PermissionMode;
}

/**
 * Creates the Search MCP server with its three read-only tools. Paths
 * resolve against `cwd`; with a `permissionMode` other than `"allow"`,
 * reading outside it is refused, since an MCP server has nobody to ask.
 *
 * Requires `--allow-read` for the workspace and `--allow-run=rg` for `rg`.
 *
 * @example Serve it over an in-memory transport
 * ```ts
 * import { createSearchMcpServer } from "./mcp_server.ts";
 *
 * const server = createSearchMcpServer({ cwd: Deno.cwd() });
 * await server.close();
 * ```
 *
 * @param options The workspace.
 * @returns The server, not yet connected.
 */
export function createSearchMcpServer(
  options: SearchMcpServerOptions = {},
): McpServer {
  const context = new ToolContext({
    workspace: options.cwd ?? Deno.cwd(),
    permissionMode: options.permissionMode ?? "allow",
    files: createLocalFiles(),
    processes: createLocalProcesses(),
  });
  const server = new McpServer(
    { name: "fello-search", version: denoJson.version },
    { capabilities: { tools: {} } },
  );
  const tools: Tool<never, unknown>[] = [
    createFileOutline(context),
    createSearch(context),
    createRg(context),
  ];
  for (const tool of tools) registerTool(server, tool);
  return server;
}

/**
 * Serves the Search MCP server on stdin/stdout until the client disconnects.
 * Stdout carries protocol messages only; diagnostics go to stderr.
 *
 * Requires `--allow-read` for the workspace and `--allow-run=rg` for `rg`.
 *
 * @example Run it as a command
 * ```ts ignore
 * import { serveSearchMcp } from "./mcp_server.ts";
 *
 * await serveSearchMcp({ cwd: Deno.cwd() });
 * ```
 *
 * @param options The workspace.
 * @returns A promise that resolves when the connection closes.
 */
export async function serveSearchMcp(
  options: SearchMcpServerOptions = {},
): Promise<void> {
  const server = createSearchMcpServer(options);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  server.server.onerror = (error) => {
    console.error(`fello mcp: ${error.message}`);
  };
  await server.connect(new StdioServerTransport());
  await closed;
}

/** Registers a tool; its own validation and errors become MCP error results. */
function registerTool(server: McpServer, tool: Tool<never, unknown>): void {
  server.registerTool(
    tool.name,
    {
      description: tool.description,
      inputSchema: passThrough(tool.inputSchema),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args, ctx) => callTool(tool, args, ctx.mcpReq.signal),
  );
}

async function callTool(
  tool: Tool<never, unknown>,
  args: unknown,
  signal: AbortSignal,
): Promise<CallToolResult> {
  try {
    const output = await tool.execute(args as never, { signal });
    return { content: [{ type: "text", text: tool.toModelText(output) }] };
  } catch (error) {
    // Tools throw only ToolError, whose message is written for the caller.
    const message = error instanceof Error ? error.message : String(error);
    return { content: [{ type: "text", text: message }], isError: true };
  }
}

/**
 * Publishes a tool's JSON Schema and lets every input through: the tool
 * validates it itself, with messages that say how to fix the call.
 */
function passThrough(schema: JsonSchema): StandardSchemaWithJSON<unknown> {
  return {
    "~standard": {
      version: 1,
      vendor: "fello",
      validate: (value: unknown) => ({ value }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}
