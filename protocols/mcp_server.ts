/**
 * The Search MCP server: `file_outline`, `read_symbol`, `repo_map`, `search`
 * and `rg` over the Model Context Protocol, built on the official
 * `@modelcontextprotocol/server` SDK.
 *
 * @module
 */
import type {
  CallToolResult,
  McpServer,
  StandardSchemaWithJSON,
} from "@modelcontextprotocol/server";
import type { StdioServerTransport } from "@modelcontextprotocol/server/stdio";
import { Buffer } from "node:buffer";
import { Readable } from "node:stream";
import { jsonLines, type LongLine } from "../internal/json_lines.ts";
import { cutOutput } from "../agent/output_cut.ts";
import denoJson from "../deno.json" with { type: "json" };
import { ToolContext } from "../tools/context.ts";
import { createLocalFiles } from "../tools/local_files.ts";
import { createLocalProcesses } from "../tools/shell/local_processes.ts";
import { createRg } from "../tools/search/rg.ts";
import { createFileOutline } from "../tools/file_outline/file_outline.ts";
import { createReadSymbol } from "../tools/read/read_symbol.ts";
import { createRepoMap } from "../tools/repo_map/repo_map_tool.ts";
import { createSearch } from "../tools/search/search.ts";
import type { JsonSchema, PermissionMode, Tool } from "../tools/types.ts";
import { runtime } from "../internal/runtime/runtime.ts";
import { importPackage } from "../internal/lazy_import.ts";

// By computed specifiers, so that Deno fetches the MCP SDK only when the
// server starts, not whenever the CLI does.
const { McpServer: Server } = await importPackage<
  typeof import("@modelcontextprotocol/server")
>("@modelcontextprotocol/server");
const { StdioServerTransport: StdioTransport } = await importPackage<
  typeof import("@modelcontextprotocol/server/stdio")
>("@modelcontextprotocol/server/stdio");

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
 * Creates the Search MCP server with its read-only tools. Paths
 * resolve against `cwd`; with a `permissionMode` other than `"allow"`,
 * reading outside it is refused, since an MCP server has nobody to ask.
 *
 * Requires `--allow-read` for the workspace and `--allow-run=rg` for `rg`.
 *
 * @example Serve it over an in-memory transport
 * ```ts
 * import { Client } from "@modelcontextprotocol/client";
 * import { InMemoryTransport } from "@modelcontextprotocol/server";
 * import assert from "node:assert/strict";
 * import { createSearchMcpServer } from "./mcp_server.ts";
 *
 * const server = createSearchMcpServer({ cwd: Deno.cwd() });
 * const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
 * await server.connect(serverSide);
 * const client = new Client({ name: "example", version: "1.0.0" });
 * await client.connect(clientSide);
 * const { tools } = await client.listTools();
 * assert.deepEqual(tools.map((tool) => tool.name).sort(), ["file_outline", "read_symbol", "repo_map", "rg", "search"]);
 * await client.close();
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
    workspace: options.cwd ?? runtime.cwd(),
    permissionMode: options.permissionMode ?? "allow",
    files: createLocalFiles(),
    processes: createLocalProcesses(),
  });
  const server = new Server(
    { name: "fello-search", version: denoJson.version },
    { capabilities: { tools: {} } },
  );
  const tools: Tool<never, unknown>[] = [
    createFileOutline(context),
    createReadSymbol(context),
    createRepoMap(context),
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
 * ```ts
 * import { Client } from "@modelcontextprotocol/client";
 * import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
 * import assert from "node:assert/strict";
 *
 * // A script that serves, started the way an MCP client starts a server.
 * const script = await Deno.makeTempFile({ suffix: ".ts" });
 * const module = new URL("./mcp_server.ts", import.meta.url).href;
 * await Deno.writeTextFile(script, `import { serveSearchMcp } from "${module}";
 * await serveSearchMcp({ cwd: Deno.cwd() });`);
 * const config = new URL("../deno.json", import.meta.url).pathname;
 * const transport = new StdioClientTransport({
 *   command: Deno.execPath(),
 *   args: ["run", "-A", "--config", config, script],
 *   env: { ...Deno.env.toObject(), NO_COLOR: "1" },
 * });
 * const client = new Client({ name: "example", version: "1.0.0" });
 * await client.connect(transport);
 * const { tools } = await client.listTools();
 * assert.ok(tools.some((tool) => tool.name === "search"));
 * await client.close();
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
  // The SDK's own stdin reading closes the server at a line over 10 MiB and
  // copies its buffer at every chunk: lines are split here instead, and an
  // over-long one gets an answer of its own.
  let transport: StdioServerTransport | undefined = undefined;
  const lines = jsonLines(runtime.stdin.readable, {
    maxLineBytes: MAX_REQUEST_BYTES,
    onLongLine: (line) => answerLongLine(transport!, line),
  });
  transport = new StdioTransport(_nodeReadable(lines), undefined, {
    maxBufferSize: MAX_REQUEST_BYTES + 1,
  });
  await server.connect(transport);
  await closed;
}

/** The most a tool result's text may take (about 1 MiB of ASCII; JSON escapes stay under 10 MiB). */
const MAX_RESULT_TOKENS = 256 * 1024;

/** The longest request line `fello mcp` reads, in bytes. */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024;

// A tool call over the limit gets an error result the model can read (a
// JSON-RPC error would fail the client's call instead); another request a
// JSON-RPC error; a line with no id can only be reported.
async function answerLongLine(
  transport: StdioServerTransport,
  line: LongLine,
): Promise<void> {
  const text =
    `fello mcp: a request of ${line.bytes} bytes is over the limit of 64 MiB (${MAX_REQUEST_BYTES} bytes) and was not read; send a smaller one`;
  if (line.id === undefined || line.response) {
    // An answer to a request of ours: the SDK times that request out.
    console.error(`${text} (it had no request to answer)`);
    return;
  }
  const answer = line.method === "tools/call"
    ? { result: { content: [{ type: "text", text }], isError: true } }
    : { error: { code: -32600, message: text } };
  await transport.send({ jsonrpc: "2.0", id: line.id, ...answer } as never)
    .catch((error: Error) => console.error(`fello mcp: ${error.message}`));
}

// The SDK's transport reads a Node stream of Buffers.
function _nodeReadable(lines: ReadableStream<Uint8Array>): Readable {
  return Readable.from(
    (async function* () {
      for await (const line of lines) {
        yield Buffer.from(line.buffer, line.byteOffset, line.byteLength);
      }
    })(),
    { objectMode: false },
  );
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
    // The official client closes the connection at an answer line over 10
    // MiB (a search echoing an 11 MB pattern made one): long texts are cut.
    const text = cutOutput(tool.toModelText(output), MAX_RESULT_TOKENS, {
      toolName: tool.name,
      input: args,
    });
    return { content: [{ type: "text", text }] };
  } catch (error) {
    // Tools throw only ToolError, whose message is written for the caller.
    const message = error instanceof Error ? error.message : String(error);
    const text = cutOutput(message, MAX_RESULT_TOKENS);
    return { content: [{ type: "text", text }], isError: true };
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
