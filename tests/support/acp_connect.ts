// A fresh editor (the test client) connected to a fresh ACP agent app over
// the scripted server, initialized: how every session test starts. Also the
// requests an editor sends, as shorthands on any client connection.
import * as acp from "@agentclientprotocol/sdk";
import {
  type AcpAgentOptions,
  createAcpAgent,
} from "../../protocols/acp_agent.ts";
import { TestClient, type TestClientOptions } from "./acp_test_client.ts";
import { join } from "node:path";
import {
  type ScriptedConversation,
  type ScriptedServer,
  startScriptedServer,
} from "./scripted_server.ts";
import { withWorkspace } from "./workspace.ts";

/** Shorthands for the session requests of one client connection. */
export interface AcpRequests {
  /** session/new in `cwd` with `mcpServers` (none by default); its id. */
  newSession(cwd: string, mcpServers?: acp.McpServer[]): Promise<string>;
  /** session/prompt with `prompt`, a text or content blocks. */
  prompt(
    sessionId: string,
    prompt: string | acp.ContentBlock[],
  ): Promise<acp.PromptResponse>;
  /** session/cancel (a notification). */
  cancel(sessionId: string): Promise<void>;
  /** session/close. */
  close(sessionId: string): Promise<unknown>;
  /** session/load of a saved session into `cwd`, with no MCP servers. */
  load(sessionId: string, cwd: string): Promise<acp.LoadSessionResponse>;
  /** session/list. */
  list(params?: acp.ListSessionsRequest): Promise<acp.ListSessionsResponse>;
  /** session/delete. */
  remove(sessionId: string): Promise<unknown>;
  /** session/set_mode. */
  setMode(sessionId: string, modeId: string): Promise<unknown>;
}

/** The {@linkcode AcpRequests} of `connection`. */
export function sessionRequests(
  connection: acp.ClientConnection,
): AcpRequests {
  const request = connection.agent.request.bind(connection.agent);
  const m = acp.methods.agent.session;
  return {
    newSession: async (cwd, mcpServers = []) =>
      (await request(m.new, { cwd, mcpServers })).sessionId,
    prompt: (sessionId, prompt) =>
      request(m.prompt, {
        sessionId,
        prompt: typeof prompt === "string"
          ? [{ type: "text", text: prompt }]
          : prompt,
      }),
    cancel: (sessionId) => connection.agent.notify(m.cancel, { sessionId }),
    close: (sessionId) => request(m.close, { sessionId }),
    load: (sessionId, cwd) =>
      request(m.load, { sessionId, cwd, mcpServers: [] }),
    list: (params = {}) => request(m.list, params),
    remove: (sessionId) => request(m.delete, { sessionId }),
    setMode: (sessionId, modeId) => request(m.setMode, { sessionId, modeId }),
  };
}

/** The client, its connection and the agent's initialize answer. */
export interface AcpTestConnection extends AcpRequests {
  client: TestClient;
  connection: acp.ClientConnection;
  init: acp.InitializeResponse;
}

/**
 * Connects a new client to a new agent for `server` that saves sessions in
 * `sessionsDir` (none without), with more agent `options` if given.
 */
export async function connect(
  server: ScriptedServer,
  sessionsDir?: string,
  options: Partial<AcpAgentOptions> & {
    /** The client's session capabilities (compactions, notices). */
    session?: acp.ClientSessionCapabilities;
    /** How the test client behaves (buffers, terminals, permission answers). */
    client?: TestClientOptions;
  } = {},
): Promise<AcpTestConnection> {
  const { session, client: clientOptions, ...agentOptions } = options;
  const client = new TestClient(clientOptions);
  const agent = createAcpAgent({
    baseURL: server.baseURL,
    model: "test-model",
    sessionsDir,
    ...agentOptions,
  });
  const connection = client.app.connect(agent);
  const init = await connection.agent.request(acp.methods.agent.initialize, {
    protocolVersion: acp.PROTOCOL_VERSION,
    clientCapabilities: { ...client.capabilities, session },
  });
  return { client, connection, init, ...sessionRequests(connection) };
}

/** A connection as {@linkcode connect} makes it, with one session open. */
export interface AcpTestSession extends AcpTestConnection {
  sessionId: string;
  /** session/new's whole answer (modes included). */
  created: acp.NewSessionResponse;
  /** Prompts the open session. */
  ask(prompt: string | acp.ContentBlock[]): Promise<acp.PromptResponse>;
}

/**
 * {@linkcode connect}, then session/new in `cwd` with `mcpServers` (none by
 * default); no sessions are saved unless `sessionsDir` is given.
 */
export async function connectSession(
  server: ScriptedServer,
  cwd: string,
  options: Parameters<typeof connect>[2] & {
    sessionsDir?: string;
    mcpServers?: acp.McpServer[];
  } = {},
): Promise<AcpTestSession> {
  const { sessionsDir, mcpServers = [], ...rest } = options;
  const agent = await connect(server, sessionsDir, rest);
  const created = await agent.connection.agent.request(
    acp.methods.agent.session.new,
    { cwd, mcpServers },
  );
  const { sessionId } = created;
  return {
    ...agent,
    sessionId,
    created,
    ask: (prompt) => agent.prompt(sessionId, prompt),
  };
}

/** Where {@linkcode withSavingAgent}'s agent works and saves. */
export interface SavingAgentDirs {
  /** The workspace. */
  dir: string;
  /** The sessions folder, `.sessions` inside the workspace. */
  saved: string;
  server: ScriptedServer;
}

/**
 * Runs `fn` with a fresh workspace, a scripted server playing `script` and
 * a connected agent that saves sessions in the workspace's `.sessions`;
 * closes and removes them all after.
 */
export function withSavingAgent(
  script: ScriptedConversation[],
  fn: (agent: AcpTestConnection, dirs: SavingAgentDirs) => Promise<void>,
): Promise<void> {
  return withWorkspace(async (dir) => {
    const saved = join(dir, ".sessions");
    await using server = startScriptedServer(script);
    const agent = await connect(server, saved);
    try {
      await fn(agent, { dir, saved, server });
    } finally {
      await agent.connection.close();
    }
  });
}

/** Where {@linkcode withAcpSession}'s session works, and its model. */
export interface AcpSessionDirs {
  /** The workspace, the session's cwd. */
  dir: string;
  server: ScriptedServer;
}

/**
 * Runs `fn` with a fresh workspace, a scripted server playing `script` and
 * a session opened in the workspace by {@linkcode connectSession} with
 * `options` (made from the workspace's path if a function); closes the
 * connection and removes the workspace after.
 */
export function withAcpSession(
  script: ScriptedConversation[],
  fn: (session: AcpTestSession, dirs: AcpSessionDirs) => Promise<void>,
  options:
    | Parameters<typeof connectSession>[2]
    | ((dir: string) => Parameters<typeof connectSession>[2]) = {},
): Promise<void> {
  return withWorkspace(async (dir) => {
    await using server = startScriptedServer(script);
    const session = await connectSession(
      server,
      dir,
      typeof options === "function" ? options(dir) : options,
    );
    try {
      await fn(session, { dir, server });
    } finally {
      session.connection.close();
      session.client.dispose();
    }
  });
}
