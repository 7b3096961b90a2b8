// A fresh editor (the test client) connected to a fresh ACP agent app over
// the scripted server, initialized: how every session test starts.
import * as acp from "@agentclientprotocol/sdk";
import {
  type AcpAgentOptions,
  createAcpAgent,
} from "../../protocols/acp_agent.ts";
import { TestClient } from "./acp_test_client.ts";
import type { ScriptedServer } from "./scripted_server.ts";

/** The client, its connection and the agent's initialize answer. */
export interface AcpTestConnection {
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
  } = {},
): Promise<AcpTestConnection> {
  const { session, ...agentOptions } = options;
  const client = new TestClient();
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
  return { client, connection, init };
}
