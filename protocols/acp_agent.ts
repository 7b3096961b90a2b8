/**
 * The Agent Client Protocol agent: lets an editor such as Zed run the agent,
 * built on the official `@agentclientprotocol/sdk`.
 *
 * @module
 */
import * as acp from "@agentclientprotocol/sdk";
import denoJson from "../deno.json" with { type: "json" };
import {
  listSessions,
  loadSession,
  pruneSessions,
  removeSession,
  type SavedSession,
} from "../agent/session_file.ts";
import {
  AcpSession,
  acpSessionFile,
  isSessionId,
  type SavedConversation,
} from "./_acp_session.ts";
import { listPage } from "./_acp_list.ts";
import { jsonLines, type LongLine } from "../internal/json_lines.ts";
import { describeError } from "./_acp_error_text.ts";
import type { AcpAgentOptions } from "./acp_options.ts";
import { runtime } from "../internal/runtime/runtime.ts";

export type { AcpAgentOptions };

/** How many saved sessions are kept: the newest, by when they were last saved. */
const SAVED_SESSIONS = 200;

/**
 * Creates the ACP agent app. Serve one connection with it: `connect()` it to
 * a stream (or, in tests, to a client app).
 *
 * - `initialize` advertises embedded context in prompts and stdio, HTTP and
 *   SSE MCP servers.
 * - `session/new` connects the listed MCP servers and starts an agent for `cwd`;
 *   when the client offers `fs` or `terminal`, files and commands go through it.
 * - `session/prompt` streams text, tool calls (with kinds, diffs and
 *   terminals) and plans; permissions are asked with `session/request_permission`.
 * - `session/cancel` stops the run and its processes; the prompt answers `cancelled`.
 * - The permission modes are the session's modes; `session/set_mode` switches
 *   them while the conversation goes on.
 * - With `sessionsDir`, each session's conversation is saved after each
 *   prompt, and `session/load` replays it and goes on with it;
 *   `session/list` pages through the saved ones (titled by their first
 *   request), and `session/delete` removes one.
 *
 * Requires `--allow-net` for the endpoint, `--allow-sys=hostname`, and the
 * read, write and run permissions the tools use.
 *
 * @example Connect it to an in-process client
 * ```ts
 * import * as acp from "@agentclientprotocol/sdk";
 * import assert from "node:assert/strict";
 * import { createAcpAgent } from "./acp_agent.ts";
 *
 * const agent = createAcpAgent({ model: "qwen3" });
 * const connection = acp.client().connect(agent);
 * const init = await connection.agent.request(acp.methods.agent.initialize, {
 *   protocolVersion: acp.PROTOCOL_VERSION,
 * });
 * assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
 * ```
 *
 * @param options The endpoint, model, permission mode and limits.
 * @returns The agent app, not yet connected.
 */
export function createAcpAgent(options: AcpAgentOptions): acp.AgentApp {
  const sessions = new Map<string, AcpSession>();
  const sessionsDir = options.sessionsDir || undefined;
  /** Ids of sessions being loaded, so that two loads of one do not race. */
  const loading = new Set<string>();
  /** Ids of sessions being deleted, which no load may open meanwhile. */
  const deleting = new Set<string>();
  /** Set once the connection closed: every session is being closed. */
  let closing: Promise<void> | undefined;
  let capabilities: acp.ClientCapabilities = {};
  let model: Promise<string> | undefined;

  function chooseModel(): Promise<string> {
    if (options.model) return Promise.resolve(options.model);
    if (!options.chooseModel) {
      return Promise.reject(new TypeError("no model is configured"));
    }
    // Retried on the next session/new after a failure (the endpoint may be up by then).
    model ??= options.chooseModel().catch((error) => {
      model = undefined;
      throw error;
    });
    return model;
  }

  function find(sessionId: string): AcpSession {
    const session = sessions.get(sessionId);
    if (!session) {
      throw acp.RequestError.invalidParams(
        undefined,
        `unknown session "${sessionId}"; create one with session/new`,
      );
    }
    return session;
  }

  async function start(
    params: acp.NewSessionRequest,
    client: acp.AgentContext,
    loaded?: { id: string; read(): Promise<SavedConversation> },
  ): Promise<AcpSession> {
    requireAbsolute(params.cwd);
    let name: string;
    try {
      name = await chooseModel();
    } catch (error) {
      throw acp.RequestError.internalError(
        undefined,
        `cannot start a session: ${describeError(error, options)}`,
      );
    }
    const session = await AcpSession.start(params, {
      client,
      capabilities,
      settings: { ...options, model: name },
      sessionsDir,
      loaded,
    });
    // The connection closed while the session started: nobody would close
    // it (and free its saved file and MCP servers) later.
    if (closing) {
      await session.close();
      throw acp.RequestError.internalError(
        undefined,
        "the connection closed while the session started",
      );
    }
    sessions.set(session.id, session);
    return session;
  }

  // The conversation saved for a session id, or a clear error.
  async function savedSession(sessionId: string): Promise<SavedSession> {
    let saved;
    try {
      saved = await loadSession(savedFile(sessionId), "start a new session");
    } catch (error) {
      if (error instanceof acp.RequestError) throw error;
      throw acp.RequestError.invalidParams(undefined, (error as Error).message);
    }
    if (saved === undefined) {
      throw cannotLoad(sessionId, "no such session was saved");
    }
    return saved;
  }

  // The file a session id's conversation would be saved in, or a clear
  // error when there can be none. Checked before anything touches the path.
  function savedFile(sessionId: string): string {
    if (sessionsDir === undefined) {
      throw cannotLoad(sessionId, "sessions are not saved");
    }
    if (!isSessionId(sessionId)) {
      throw cannotLoad(sessionId, "no such session was saved");
    }
    return acpSessionFile(sessionsDir, sessionId);
  }

  // One page of the saved sessions, newest first, those of `cwd` alone when
  // it is given.
  async function listSaved(
    params: acp.ListSessionsRequest,
  ): Promise<acp.ListSessionsResponse> {
    if (params.cwd) requireAbsolute(params.cwd);
    const listings = sessionsDir === undefined
      ? []
      : await listSessions(sessionsDir);
    return listPage(listings, params);
  }

  // Removes a saved session, closing it first when it is open here.
  async function deleteSaved(sessionId: string): Promise<void> {
    const refuse = (reason: string) =>
      acp.RequestError.invalidParams(
        undefined,
        `cannot delete session "${sessionId}": ${reason}`,
      );
    if (sessionsDir === undefined) throw refuse("sessions are not saved");
    if (!isSessionId(sessionId)) throw refuse("no such session was saved");
    if (loading.has(sessionId)) throw refuse("it is being loaded");
    if (deleting.has(sessionId)) throw refuse("no such session was saved");
    deleting.add(sessionId);
    try {
      const open = sessions.get(sessionId);
      if (open) {
        sessions.delete(sessionId);
        await open.close();
      }
      let removed: boolean;
      try {
        removed = await removeSession(acpSessionFile(sessionsDir, sessionId), {
          hint: "close it there first",
        });
      } catch (error) {
        throw acp.RequestError.invalidRequest(
          undefined,
          (error as Error).message,
        );
      }
      if (!removed && !open) throw refuse("no such session was saved");
    } finally {
      deleting.delete(sessionId);
    }
  }

  function closeAll(): Promise<void> {
    closing ??= Promise.allSettled([...sessions.values()].map((s) => s.close()))
      .then(() => sessions.clear());
    return closing;
  }

  const app = acp.agent({ name: "fello" })
    .onConnect((connection) => {
      connection.closed.finally(closeAll);
    })
    .onRequest(acp.methods.agent.initialize, ({ params }) => {
      capabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: sessionsDir !== undefined,
          sessionCapabilities: {
            close: {},
            ...(sessionsDir === undefined ? {} : { list: {}, delete: {} }),
          },
          promptCapabilities: {
            image: false,
            audio: false,
            embeddedContext: true,
          },
          mcpCapabilities: { http: true, sse: true },
        },
        agentInfo: { name: "fello", version: denoJson.version },
        authMethods: [],
      };
    })
    .onRequest(acp.methods.agent.session.new, async ({ params, client }) => {
      const session = await start(params, client);
      // Old sessions go as new ones come, so the folder stays bounded.
      if (sessionsDir) await pruneSessions(sessionsDir, SAVED_SESSIONS);
      return { sessionId: session.id, modes: session.modes };
    })
    .onRequest(acp.methods.agent.session.load, async ({ params, client }) => {
      const id = params.sessionId;
      if (deleting.has(id)) {
        throw acp.RequestError.invalidParams(
          undefined,
          `cannot load session "${id}": it is being deleted; start a new session`,
        );
      }
      if (loading.has(id)) {
        throw acp.RequestError.invalidRequest(
          undefined,
          `session "${id}" is being loaded already`,
        );
      }
      const open = sessions.get(id);
      if (open) {
        // The editor shows the thread again: replay what this agent holds.
        if (open.busy) {
          throw acp.RequestError.invalidRequest(
            undefined,
            `session "${id}" is running a prompt; cancel it first`,
          );
        }
        await open.replay();
        return { modes: open.modes };
      }
      loading.add(id);
      try {
        savedFile(id); // a name the lock may take (no "../")
        // Read once its file is held: another agent may save or delete it
        // until then.
        const session = await start(params, client, {
          id,
          read: async () => {
            const { messages, title } = await savedSession(id);
            return { history: messages, title };
          },
        });
        await session.replay();
        return { modes: session.modes };
      } finally {
        loading.delete(id);
      }
    })
    .onRequest(
      acp.methods.agent.session.list,
      ({ params }) => listSaved(params),
    )
    .onRequest(acp.methods.agent.session.delete, async ({ params }) => {
      await deleteSaved(params.sessionId);
      return {};
    })
    .onRequest(acp.methods.agent.session.prompt, ({ params, signal }) => {
      return find(params.sessionId).prompt(params.prompt, signal);
    })
    .onRequest(acp.methods.agent.session.setMode, ({ params }) => {
      find(params.sessionId).setMode(params.modeId);
      return {};
    })
    .onNotification(acp.methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.cancel();
    })
    .onRequest(acp.methods.agent.session.close, async ({ params }) => {
      const session = find(params.sessionId);
      sessions.delete(params.sessionId);
      await session.close();
      return {};
    });
  closers.set(app, closeAll);
  return app;
}

function requireAbsolute(cwd: string): void {
  if (!cwd.startsWith("/")) {
    throw acp.RequestError.invalidParams(
      undefined,
      `cwd must be an absolute path, got "${cwd}"`,
    );
  }
}

function cannotLoad(sessionId: string, reason: string): acp.RequestError {
  return acp.RequestError.invalidParams(
    undefined,
    `cannot load session "${sessionId}": ${reason}; start a new session`,
  );
}

/** Stops an app's sessions (their runs and MCP servers) after its connection closed. */
const closers = new WeakMap<acp.AgentApp, () => Promise<void>>();

/**
 * Serves the ACP agent on stdin/stdout until the client disconnects. Stdout
 * carries protocol messages only; diagnostics go to stderr.
 *
 * Requires `--allow-net` for the endpoint, `--allow-sys=hostname`, and the
 * read, write and run permissions the tools use.
 *
 * @example Run it as a command
 * ```ts
 * import * as acp from "@agentclientprotocol/sdk";
 * import assert from "node:assert/strict";
 *
 * // A script that serves, started the way an editor starts an ACP agent.
 * const script = await Deno.makeTempFile({ suffix: ".ts" });
 * const module = new URL("./acp_agent.ts", import.meta.url).href;
 * await Deno.writeTextFile(script, `import { serveAcp } from "${module}";
 * await serveAcp({ model: "qwen3", baseURL: "http://127.0.0.1:11434/v1" });`);
 * const child = new Deno.Command(Deno.execPath(), {
 *   args: ["run", "-A", "--config", new URL("../deno.json", import.meta.url).pathname, script],
 *   stdin: "piped",
 *   stdout: "piped",
 * }).spawn();
 * const connection = acp.client().connect(acp.ndJsonStream(child.stdin, child.stdout));
 * const init = await connection.agent.request(acp.methods.agent.initialize, {
 *   protocolVersion: acp.PROTOCOL_VERSION,
 * });
 * assert.equal(init.protocolVersion, acp.PROTOCOL_VERSION);
 * child.kill();
 * await child.status;
 * ```
 *
 * @param options The endpoint, model, permission mode and limits.
 * @returns A promise that resolves when the connection closes.
 */
export async function serveAcp(options: AcpAgentOptions): Promise<void> {
  const app = createAcpAgent(options);
  // The SDK's stream ends the connection, silently, at a line over 32 MiB:
  // lines are split here first, and an over-long one is answered alone.
  const output = _sharedOutput(runtime.stdout.writable);
  const input = jsonLines(runtime.stdin.readable, {
    maxLineBytes: MAX_MESSAGE_BYTES,
    onLongLine: (line) => {
      // The client's answer to one of our requests (a big file it read):
      // that request fails with the error, instead of waiting for ever.
      if (line.response && line.id !== undefined) return _failedAnswer(line);
      // A closed stdout ends the connection through the SDK's own writes.
      output.write(_tooLongAnswer(line)).catch(() => {});
    },
  });
  const connection = app.connect(
    acp.ndJsonStream(output.writable, input, {
      maxMessageBytes: MAX_MESSAGE_BYTES + 2,
    }),
  );
  await connection.closed;
  // The process exits next: stop the MCP servers and commands first.
  await closers.get(app)?.();
}

/** The longest message `fello acp` reads, in bytes (the SDK's own default). */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

// A JSON-RPC error for the request on an over-long line (id null when none
// was found, as the SDK answers a line it cannot parse).
function _tooLongAnswer(line: LongLine): Uint8Array {
  const message =
    `fello acp: a message of ${line.bytes} bytes is over the limit of 32 MiB (${MAX_MESSAGE_BYTES} bytes) and was not read; send big files as resource links rather than embedded text`;
  if (line.id === undefined) console.error(message);
  const answer = {
    jsonrpc: "2.0",
    id: line.id ?? null,
    error: { code: -32600, message },
  };
  return new TextEncoder().encode(`${JSON.stringify(answer)}\n`);
}

// In place of an answer over the limit, for the SDK: an error answer to the
// same request.
function _failedAnswer(line: LongLine): Uint8Array {
  const answer = {
    jsonrpc: "2.0",
    id: line.id,
    error: {
      code: -32603,
      message:
        `the client's answer of ${line.bytes} bytes is over fello acp's limit of 32 MiB (${MAX_MESSAGE_BYTES} bytes) and was not read`,
    },
  };
  return new TextEncoder().encode(`${JSON.stringify(answer)}\n`);
}

// One writer for stdout, shared by the SDK's stream (which takes a writer for
// each message) and the answers to over-long lines, one whole line at a time.
function _sharedOutput(target: WritableStream<Uint8Array>): {
  writable: WritableStream<Uint8Array>;
  write: (bytes: Uint8Array) => Promise<void>;
} {
  const writer = target.getWriter();
  let last = Promise.resolve();
  const write = (bytes: Uint8Array): Promise<void> => {
    const written = last.then(() => writer.write(bytes));
    last = written.catch(() => {});
    return written;
  };
  return { writable: new WritableStream({ write }), write };
}
