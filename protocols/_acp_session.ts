// One ACP session: an agent for the session's folder, the MCP servers the
// client listed, and the translation of the agent's events into session/update
// notifications, of its permission requests into session/request_permission.
import * as acp from "@agentclientprotocol/sdk";
import { join } from "node:path";
import { createAgent } from "../agent/agent.ts";
import {
  childToolCallId,
  currentToolCallId,
} from "../agent/tool_call_scope.ts";
import {
  holdSession,
  releaseSession,
  saveSession,
  sessionTitle,
} from "../agent/session_file.ts";
import type {
  Agent,
  AgentContextSummarizedEvent,
  AgentEvent,
  AgentFinishReason,
  AgentMessage,
  AgentPermissionRequest,
  AgentToolEventBase,
} from "../agent/types.ts";
import type { AcpAgentOptions } from "./acp_options.ts";
import { createLocalFiles } from "../tools/local_files.ts";
import { createTools } from "../tools/create_tools.ts";
import { PermissionGate } from "../tools/permission.ts";
import { PermissionRuleSet } from "../tools/permission_rules.ts";
import type {
  Backend,
  FileBackend,
  PermissionAnswer,
  PermissionMode,
  ShellRequest,
  ToolKind,
} from "../tools/types.ts";
import {
  createAcpFiles,
  createAcpProcesses,
  readText,
  recordWrites,
  type WrittenFile,
} from "./_acp_backend.ts";
import {
  type EditSymbolInput,
  textAfterEditSymbol,
} from "../tools/edit/edit_symbol.ts";
import { liveLocalProcesses } from "./_acp_live_shell.ts";
import {
  type McpServerConfig,
  type McpTools,
  startMcpServers,
} from "../agent/mcp_tools.ts";
import { replayUpdates } from "./_acp_replay.ts";
import { describeError } from "./_acp_error_text.ts";
import {
  inputPath,
  promptText,
  proposedDiff,
  textContent,
  toolLocations,
  toolTitle,
} from "./_acp_updates.ts";
import type { FsFile } from "../internal/runtime/runtime.ts";

/** The permission options offered, in this order: allow once, allow always, reject. */
export const PERMISSION_OPTIONS: acp.PermissionOption[] = [
  { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
  { optionId: "allow_always", name: "Allow always", kind: "allow_always" },
  { optionId: "reject", name: "Reject", kind: "reject_once" },
];

/** The permission modes, offered as the session's modes. */
const SESSION_MODES: acp.SessionMode[] = [
  {
    id: "ask",
    name: "Ask",
    description: "Ask before edits, commands and reads outside the project",
  },
  {
    id: "acceptEdits",
    name: "Accept edits",
    description: "Edit files in the project freely; ask before commands",
  },
  {
    id: "allow",
    name: "Allow all",
    description: "Never ask",
  },
  {
    id: "readOnly",
    name: "Read only",
    description: "Read and search; refuse edits and commands",
  },
];

interface OpenCall {
  name: string;
  input: unknown;
  kind: ToolKind;
  terminalId?: string;
}

/** How long closing waits for a cancelled prompt to end and save. */
const CLOSE_WAIT_MS = 5_000;

/** A saved session's conversation and title, as a load reads them. */
export interface SavedConversation {
  history: AgentMessage[];
  title?: string;
}

/** A running ACP session. */
export class AcpSession {
  readonly id: string;
  readonly cwd: string;
  /** The file the conversation is saved to after each prompt, if any. */
  #saveTo: { path: string; model: string } | undefined;
  /** What the conversation is about: its first request, clipped. */
  #title: string | undefined;
  /** Set by close(): nothing is saved after it. */
  #closed = false;
  /** How a context summary is shown: as a compaction, a notice, or not. */
  #summaries: "compaction" | "notice" | undefined;
  /** How a failed turn is worded for the editor. */
  #describe: Pick<AcpAgentOptions, "describeError"> = {};
  /** The lock on that file, held while the session is open. */
  #lock: FsFile | undefined;
  #client: acp.AgentContext;
  #agent!: Agent;
  #mcpGate!: PermissionGate;
  #mcp: McpTools | undefined;
  #running: AbortController | undefined;
  /** The last prompt turn, settled when its conversation is saved. */
  #turn: Promise<unknown> | undefined;
  /** Tool calls announced and not finished, by id. */
  #calls = new Map<string, OpenCall>();
  /** Terminals created before their Shell call was announced. */
  #unclaimedTerminals: { request: ShellRequest; terminalId: string }[] = [];
  /** The last write to each file, for the diff of the call that made it. */
  #writes = new Map<string, WrittenFile>();
  /** The files the session's tools read (the editor's, when it offers them). */
  #files: FileBackend | undefined;

  constructor(cwd: string, client: acp.AgentContext, id?: string) {
    this.id = id ?? crypto.randomUUID();
    this.cwd = cwd;
    this.#client = client;
  }

  /** Starts the session's MCP servers and its agent. */
  static async start(
    request: acp.NewSessionRequest,
    setup: {
      client: acp.AgentContext;
      capabilities: acp.ClientCapabilities;
      settings: AcpAgentOptions & { model: string };
      /** The folder each session's conversation is saved in, if any. */
      sessionsDir?: string;
      /**
       * A saved session to go on with: its id, and how to read its
       * conversation and title (once the session's file is held, so that no
       * other agent's last save is missed).
       */
      loaded?: { id: string; read(): Promise<SavedConversation> };
    },
  ): Promise<AcpSession> {
    const session = new AcpSession(
      request.cwd,
      setup.client,
      setup.loaded?.id,
    );
    session.#describe = { describeError: setup.settings.describeError };
    const client = setup.capabilities.session;
    session.#summaries = client?.compaction
      ? "compaction"
      : client?.notices
      ? "notice"
      : undefined;
    if (setup.sessionsDir) {
      const path = acpSessionFile(setup.sessionsDir, session.id);
      session.#saveTo = { path, model: setup.settings.model };
      // Another fello acp (a second editor window) may have it open.
      try {
        session.#lock = await holdSession(path, {
          hint: "close it there first",
        });
      } catch (error) {
        throw acp.RequestError.invalidRequest(
          undefined,
          (error as Error).message,
        );
      }
    }
    try {
      const saved = await setup.loaded?.read();
      session.#title = saved?.title;
      await session.#open(request, setup, saved?.history);
    } catch (error) {
      if (session.#lock) {
        await releaseSession(session.#saveTo!.path, session.#lock);
      }
      throw error;
    }
    return session;
  }

  // The MCP servers and the agent of a session being started.
  async #open(
    request: acp.NewSessionRequest,
    setup: Parameters<typeof AcpSession.start>[1],
    history: AgentMessage[] | undefined,
  ): Promise<void> {
    const mode = setup.settings.permissionMode ?? "ask";
    // One mode for the built-in tools and the MCP tools; set_mode switches both.
    const rules = setup.settings.permissions;
    this.#mcpGate = new PermissionGate(
      mode,
      (r) => this.#askClient(r),
      rules && new PermissionRuleSet(rules, request.cwd),
    );
    const editors = request.mcpServers.map(mcpServerOf);
    const configured = (setup.settings.configuredMcpServers ?? []).filter((
      server,
    ) => !editors.some((other) => other.name === server.name));
    this.#mcp = await startMcpServers([...editors, ...configured], {
      cwd: request.cwd,
      reserved: builtinToolNames(request.cwd),
      warn: (message) => console.error(`fello acp: ${message}`),
      trustReadOnlyHint: true,
      gate: (tool, description) =>
        this.#mcpGate.check({
          tool,
          action: "execute",
          outsideWorkspace: false,
          description,
          alwaysKey: tool,
        }),
    });
    const {
      chooseModel: _,
      sessionsDir: __,
      describeError: ___,
      configuredMcpServers: ____,
      ...settings
    } = setup.settings;
    try {
      this.#agent = createAgent({
        ...settings,
        history,
        cwd: request.cwd,
        permissionMode: mode,
        approve: (r) => this.#askClient(r),
        backend: this.#backend(setup.capabilities),
        extraTools: this.#mcp.tools,
      });
    } catch (error) {
      // No session, so no servers left running.
      await this.#mcp.close();
      throw acp.RequestError.invalidParams(
        undefined,
        `cannot start a session: ${(error as Error).message}`,
      );
    }
  }

  /** Runs a prompt turn, streaming its updates; resolves to why it stopped. */
  prompt(
    blocks: acp.ContentBlock[],
    requestSignal: AbortSignal,
  ): Promise<acp.PromptResponse> {
    if (this.#running) {
      return Promise.reject(acp.RequestError.invalidRequest(
        undefined,
        "a prompt is already running in this session; cancel it first",
      ));
    }
    const request = promptText(blocks);
    if (request.trim() === "") {
      return Promise.reject(acp.RequestError.invalidParams(
        undefined,
        "the prompt is empty; send at least one text block",
      ));
    }
    const turn = this.#prompt(blocks, request, requestSignal);
    // close() waits for it: its completed steps are saved before an exit.
    this.#turn = turn.catch(() => {});
    return turn;
  }

  async #prompt(
    blocks: acp.ContentBlock[],
    request: string,
    requestSignal: AbortSignal,
  ): Promise<acp.PromptResponse> {
    const controller = new AbortController();
    this.#running = controller;
    const signal = AbortSignal.any([controller.signal, requestSignal]);
    try {
      if (this.#title === undefined) {
        this.#title = sessionTitle(titleText(blocks));
        // The editor's list of saved threads can name this one now.
        if (this.#title !== undefined && this.#saveTo) {
          await this.#update({
            sessionUpdate: "session_info_update",
            title: this.#title,
          });
        }
      }
      let finish: AgentFinishReason = "stop";
      for await (
        const event of this.#agent.stream(request, { signal })
      ) {
        if (event.type === "finish") finish = event.result.finishReason;
        await this.#forward(event);
      }
      return { stopReason: stopReason(finish) };
    } catch (error) {
      if (signal.aborted) {
        await this.#failOpenCalls("Cancelled");
        return { stopReason: "cancelled" };
      }
      await this.#failOpenCalls("The run failed");
      throw acp.RequestError.internalError(
        undefined,
        describeError(error, this.#describe),
      );
    } finally {
      this.#running = undefined;
      await this.#save();
    }
  }

  /** Shows the conversation so far in the editor, as session/load asks. */
  async replay(): Promise<void> {
    const kinds = new Map(
      [...this.#agent.tools.values()].map((tool) => [tool.name, tool.kind]),
    );
    const updates = replayUpdates(this.#agent.history, {
      cwd: this.cwd,
      kinds,
      compaction: this.#summaries === "compaction",
    });
    for (const update of updates) await this.#update(update);
  }

  // A failed save loses the chance to load the session later, not the
  // session: the editor is told nothing, stderr is.
  async #save(): Promise<void> {
    // Closed, the session no longer holds its file: another agent may have
    // opened it, or it was deleted.
    if (!this.#saveTo || this.#closed) return;
    try {
      await saveSession(this.#saveTo.path, {
        cwd: this.cwd,
        model: this.#saveTo.model,
        title: this.#title,
        messages: this.#agent.history,
      });
    } catch (error) {
      console.error(
        `fello acp: could not save session ${this.id}: ${
          (error as Error).message
        }`,
      );
    }
  }

  /** Stops the running prompt, its tool calls and their processes. */
  cancel(): void {
    this.#running?.abort(
      new DOMException("Cancelled by the client", "AbortError"),
    );
  }

  /** Cancels the prompt and stops the MCP servers. */
  async close(): Promise<void> {
    this.cancel();
    // A tool that ignores the cancel must not keep the agent from exiting.
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      this.#turn,
      new Promise((resolve) => timer = setTimeout(resolve, CLOSE_WAIT_MS)),
    ]);
    clearTimeout(timer);
    this.#closed = true;
    // A session never saved leaves no lock file behind.
    if (this.#lock) await releaseSession(this.#saveTo!.path, this.#lock);
    await this.#mcp?.close();
  }

  /** Whether a prompt is running. */
  get busy(): boolean {
    return this.#running !== undefined;
  }

  #backend(capabilities: acp.ClientCapabilities): Partial<Backend> {
    const local = createLocalFiles();
    const fs = capabilities.fs ?? {};
    const files = fs.readTextFile || fs.writeTextFile
      ? createAcpFiles({
        client: this.#client,
        sessionId: this.id,
        read: fs.readTextFile === true,
        write: fs.writeTextFile === true,
        local,
      })
      : local;
    this.#files = files;
    const backend: Partial<Backend> = {
      files: recordWrites(
        files,
        (write) => {
          // Writes no edit call claims (a Subagent's) must not pile up.
          if (this.#writes.size >= 16) this.#writes.clear();
          this.#writes.set(write.path, write);
        },
      ),
    };
    backend.processes = capabilities.terminal
      ? createAcpProcesses({
        client: this.#client,
        sessionId: this.id,
        onTerminal: (request, terminalId) =>
          this.#onTerminal(request, terminalId),
      })
      : liveLocalProcesses((update) => this.#update(update));
    return backend;
  }

  /** The permission mode in force, as the editor shows it. */
  get modes(): acp.SessionModeState {
    return {
      currentModeId: this.#agent.permissionMode,
      availableModes: SESSION_MODES,
    };
  }

  /** Switches the permission mode; throws for an unknown one. */
  setMode(modeId: string): void {
    if (!SESSION_MODES.some((m) => m.id === modeId)) {
      throw acp.RequestError.invalidParams(
        undefined,
        `unknown mode "${modeId}"; use one of ${
          SESSION_MODES.map((m) => m.id).join(", ")
        }`,
      );
    }
    this.#agent.permissionMode = modeId as PermissionMode;
    this.#mcpGate.mode = modeId as PermissionMode;
  }

  /** Asks the editor; the permission mode has already been applied. */
  async #askClient(request: AgentPermissionRequest): Promise<PermissionAnswer> {
    const toolCallId = request.toolCallId ?? currentToolCallId() ??
      `permission-${crypto.randomUUID()}`;
    const call = this.#calls.get(toolCallId);
    const toolCall: acp.ToolCallUpdate = {
      toolCallId,
      title: request.description,
      kind: call?.kind ?? kindOfAction(request.action),
      status: "pending",
    };
    const diff = call &&
      (call.name === "EditSymbol"
        ? await this.#symbolDiff(call.input)
        : proposedDiff(call.name, call.input, this.cwd));
    if (diff) toolCall.content = [diff];
    if (request.path) toolCall.locations = [{ path: request.path }];
    const response = await this.#client.request(
      "session/request_permission",
      { sessionId: this.id, toolCall, options: PERMISSION_OPTIONS },
      { cancellationSignal: this.#running?.signal, stopWaitingOnCancel: true },
    ).catch(() => undefined);
    const outcome = response?.outcome;
    if (outcome?.outcome !== "selected") return false;
    if (outcome.optionId === "allow_always") return "always";
    return outcome.optionId === "allow_once";
  }

  // The diff an EditSymbol call would make, found in the file as the tool
  // will read it; none when the file is too large or the symbol not there.
  async #symbolDiff(input: unknown): Promise<acp.ToolCallContent | undefined> {
    const path = inputPath(input, this.cwd);
    const { symbol, newText, position } = (input ?? {}) as EditSymbolInput;
    if (
      path === undefined || this.#files === undefined ||
      typeof symbol !== "string" || typeof newText !== "string"
    ) {
      return undefined;
    }
    const oldText = await readText(this.#files, path);
    if (typeof oldText !== "string") return undefined;
    const after = await textAfterEditSymbol(path, oldText, {
      symbol,
      newText,
      position,
    }).catch(() => undefined);
    return after === undefined
      ? undefined
      : { type: "diff", path, oldText, newText: after };
  }

  async #forward(event: AgentEvent): Promise<void> {
    switch (event.type) {
      case "text-delta":
        return await this.#update({
          sessionUpdate: "agent_message_chunk",
          content: { type: "text", text: event.text },
        });
      case "reasoning-delta":
        return await this.#update({
          sessionUpdate: "agent_thought_chunk",
          content: { type: "text", text: event.text },
        });
      case "tool-call":
        return await this.#toolCall(event);
      case "tool-result":
        return await this.#toolResult(event, event.modelText, event.output);
      case "tool-error":
        // An unknown tool or unparsable input fails before any tool-call
        // event: announce it first, as editors ignore updates of unknown calls.
        if (!this.#calls.has(event.toolCallId)) await this.#toolCall(event);
        return await this.#toolDone(event.toolCallId, {
          status: "failed",
          content: [textContent(event.modelText)],
        });
      case "plan":
        return await this.#update({
          sessionUpdate: "plan",
          entries: event.entries.map((e) => ({ ...e })),
        });
      case "context-summarized":
        return await this.#summarized(event);
      case "subagent":
        // A child's calls are shown as calls of their own, so its edits reach
        // the editor as diffs; under the ids its permission requests and
        // commands also use.
        return await this.#forward({
          ...event.event,
          toolCallId: childToolCallId(
            event.toolCallId,
            event.task,
            event.event.toolCallId,
          ),
        });
      default:
        return;
    }
  }

  // ACP lets an agent show a summary only to a client that asked for it.
  async #summarized(event: AgentContextSummarizedEvent): Promise<void> {
    if (this.#summaries === "compaction") {
      await this.#update({
        sessionUpdate: "compaction_update",
        compactionId: crypto.randomUUID(),
        status: "completed",
        summary: [{ type: "text", text: event.summary }],
      });
    } else if (this.#summaries === "notice") {
      await this.#update({
        sessionUpdate: "notice",
        severity: "info",
        title:
          `Summarized the oldest ${event.messages} messages to fit the context`,
        description:
          `About ${event.tokensBefore} → ${event.tokensAfter} tokens.`,
      });
    }
  }

  async #toolCall(event: AgentToolEventBase): Promise<void> {
    const call: OpenCall = {
      name: event.toolName,
      input: event.input,
      kind: event.kind,
    };
    this.#calls.set(event.toolCallId, call);
    const diff = proposedDiff(event.toolName, event.input, this.cwd);
    await this.#update({
      sessionUpdate: "tool_call",
      toolCallId: event.toolCallId,
      title: toolTitle(event.toolName, event.input),
      kind: event.kind,
      status: "pending",
      rawInput: event.input,
      locations: toolLocations(event.toolName, event.input, this.cwd),
      ...(diff ? { content: [diff] } : {}),
    });
    if (event.toolName === "Shell") {
      const index = this.#unclaimedTerminals.findIndex((t) =>
        sameCommand(t.request, event.input)
      );
      if (index !== -1) {
        const [terminal] = this.#unclaimedTerminals.splice(index, 1);
        await this.#showTerminal(event.toolCallId, call, terminal.terminalId);
      }
    }
  }

  async #toolResult(
    event: AgentToolEventBase,
    modelText: string,
    output: unknown,
  ): Promise<void> {
    const call = this.#calls.get(event.toolCallId);
    let content: acp.ToolCallContent[] = [textContent(modelText)];
    if (call?.terminalId) {
      content = [{ type: "terminal", terminalId: call.terminalId }];
    } else if (
      event.toolName === "EditFile" || event.toolName === "EditSymbol" ||
      event.toolName === "WriteFile"
    ) {
      const path = resultPath(output) ?? inputPath(event.input, this.cwd);
      const written = path === undefined ? undefined : this.#writes.get(path);
      if (path !== undefined) this.#writes.delete(path);
      const diff = finishedDiff(event, written, this.cwd);
      if (diff) content = [diff];
    }
    await this.#toolDone(event.toolCallId, { status: "completed", content });
  }

  async #toolDone(
    toolCallId: string,
    fields: Pick<acp.ToolCallUpdate, "status" | "content">,
  ): Promise<void> {
    const call = this.#calls.get(toolCallId);
    this.#calls.delete(toolCallId);
    await this.#update({
      sessionUpdate: "tool_call_update",
      toolCallId,
      ...(call ? { kind: call.kind } : {}),
      ...fields,
    });
  }

  async #failOpenCalls(reason: string): Promise<void> {
    for (const toolCallId of [...this.#calls.keys()]) {
      await this.#toolDone(toolCallId, {
        status: "failed",
        content: [textContent(reason)],
      }).catch(() => {});
    }
  }

  #onTerminal(request: ShellRequest, terminalId: string): void {
    for (const [toolCallId, call] of this.#calls) {
      if (
        call.name === "Shell" && !call.terminalId &&
        sameCommand(request, call.input)
      ) {
        this.#showTerminal(toolCallId, call, terminalId).catch(() => {});
        return;
      }
    }
    // A command whose call is not shown yet claims its terminal when it is;
    // keep only the latest few.
    this.#unclaimedTerminals.push({ request, terminalId });
    if (this.#unclaimedTerminals.length > 16) this.#unclaimedTerminals.shift();
  }

  async #showTerminal(
    toolCallId: string,
    call: OpenCall,
    terminalId: string,
  ): Promise<void> {
    call.terminalId = terminalId;
    await this.#update({
      sessionUpdate: "tool_call_update",
      toolCallId,
      kind: call.kind,
      status: "in_progress",
      content: [{ type: "terminal", terminalId }],
    });
  }

  async #update(update: acp.SessionUpdate): Promise<void> {
    await this.#client.notify("session/update", { sessionId: this.id, update });
  }
}

// What names a session: the user's words, not the files attached before
// them; the files' names when there are no words.
function titleText(blocks: acp.ContentBlock[]): string {
  const words = blocks.flatMap((b) => b.type === "text" ? [b.text] : []);
  if (words.some((text) => text.trim() !== "")) return words.join("\n");
  return blocks.flatMap((block) => {
    if (block.type === "resource_link") return [block.name];
    if (block.type !== "resource") return [];
    const uri = (block.resource as { uri: string }).uri;
    return [uri.slice(uri.replace(/\/+$/, "").lastIndexOf("/") + 1)];
  }).join(", ");
}

/** The names the agent's own tools take, which MCP tools must not. */
function builtinToolNames(cwd: string): Set<string> {
  // Creating tools starts nothing; the agent adds Subagent, ImageAnalysis
  // and, with ripgrep installed, rg.
  const tools = Object.values(createTools({ cwd })) as { name?: unknown }[];
  const names = tools.flatMap((t) =>
    typeof t?.name === "string" ? [t.name] : []
  );
  return new Set([...names, "rg", "Subagent", "ImageAnalysis"]);
}

function stopReason(finish: AgentFinishReason): acp.StopReason {
  switch (finish) {
    case "length":
      return "max_tokens";
    case "tool-calls":
      return "max_turn_requests";
    case "content-filter":
      return "refusal";
    default:
      return "end_turn";
  }
}

function kindOfAction(action: AgentPermissionRequest["action"]): acp.ToolKind {
  return action === "write"
    ? "edit"
    : action === "execute"
    ? "execute"
    : "read";
}

/** Whether a terminal's request is the one a Shell call's input asked for. */
function sameCommand(request: ShellRequest, input: unknown): boolean {
  const shell = input as { command?: unknown; args?: unknown } | null;
  if (typeof shell?.command !== "string") return false;
  return shell.command.trim() === request.command.trim() &&
    JSON.stringify(shell.args ?? null) === JSON.stringify(request.args ?? null);
}

function resultPath(output: unknown): string | undefined {
  const path = (output as { path?: unknown } | null)?.path;
  return typeof path === "string" && path.startsWith("/") ? path : undefined;
}

/**
 * The file a session's conversation is saved in. Ids are this agent's UUIDs,
 * or checked to be one file name (`[\w-]`) when an editor loads one.
 */
export function acpSessionFile(dir: string, sessionId: string): string {
  // Never a path elsewhere, whatever a caller forgot to check.
  if (!isSessionId(sessionId)) {
    throw new TypeError(`"${sessionId}" is not a session id`);
  }
  return join(dir, `${sessionId}.json`);
}

/** Whether `id` can be a saved session's id: one file name, no "../". */
export function isSessionId(id: string): boolean {
  return /^[\w-]{1,200}$/.test(id);
}

// The diff of a finished edit or write: the texts recorded around the write,
// or, when the file was too large to read first (or no write was recorded),
// the change an edit's input names; a big file's whole write shows none.
function finishedDiff(
  event: AgentToolEventBase,
  written: WrittenFile | undefined,
  cwd: string,
): acp.ToolCallContent | undefined {
  if (written !== undefined && written.oldText !== undefined) {
    const { path, oldText, newText } = written;
    return { type: "diff", path, oldText, newText };
  }
  if (written === undefined || event.toolName === "EditFile") {
    return proposedDiff(event.toolName, event.input, cwd);
  }
  return undefined;
}

/** An ACP server entry as the MCP client takes it (ACP lists headers and env). */
function mcpServerOf(server: acp.McpServer): McpServerConfig {
  // Stdio servers carry no type in ACP v1; some clients send "stdio".
  const type = (server as { type?: string }).type;
  if (type === "http" || type === "sse") {
    const { name, url, headers } = server as acp.McpServerHttp;
    return {
      name,
      type,
      url,
      headers: Object.fromEntries(headers.map((h) => [h.name, h.value])),
    };
  }
  const { name, command, args, env } = server as acp.McpServerStdio;
  return {
    name,
    command,
    args,
    env: Object.fromEntries(env.map((v) => [v.name, v.value])),
  };
}
