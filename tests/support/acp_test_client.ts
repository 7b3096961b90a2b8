// An editor for tests, built with the official ACP client app: it records
// every session/update, answers permission requests by a policy, serves files
// from in-memory "unsaved buffers" when asked to, and runs terminals as real
// processes.
import * as acp from "@agentclientprotocol/sdk";

/** How the test client behaves. */
export interface TestClientOptions {
  /** Advertise fs and serve reads and writes from these buffers (path -> text). */
  buffers?: Map<string, string>;
  /** Advertise terminals and run them as local processes. */
  terminal?: boolean;
  /** The optionId to answer with, or "cancelled". Defaults to allowing once. */
  permission?: (
    request: acp.RequestPermissionRequest,
  ) => string | Promise<string>;
}

interface TestTerminal {
  request: acp.CreateTerminalRequest;
  process: Deno.ChildProcess;
  output: string;
  exit: Promise<Deno.CommandStatus>;
  killed: boolean;
}

/**
 * A permission policy that picks the offered option of `kind` (cancelling
 * when there is none), as a person clicking that button does.
 */
export function chooseKind(
  kind: acp.PermissionOptionKind,
): (request: acp.RequestPermissionRequest) => string {
  return (request) =>
    request.options.find((o) => o.kind === kind)?.optionId ?? "cancelled";
}

/** A scripted editor on the client side of ACP. */
export class TestClient {
  readonly app: acp.ClientApp;
  readonly updates: acp.SessionNotification[] = [];
  readonly permissionRequests: acp.RequestPermissionRequest[] = [];
  readonly reads: string[] = [];
  readonly writes: { path: string; content: string }[] = [];
  readonly terminals = new Map<string, TestTerminal>();
  readonly options: TestClientOptions;

  constructor(options: TestClientOptions = {}) {
    this.options = options;
    this.app = acp.client({ name: "test-editor" })
      .onNotification(acp.methods.client.session.update, ({ params }) => {
        this.updates.push(params);
      })
      .onRequest(
        acp.methods.client.session.requestPermission,
        async ({ params }) => {
          this.permissionRequests.push(params);
          const choice = await options.permission?.(params) ?? "allow_once";
          return {
            outcome: choice === "cancelled"
              ? { outcome: "cancelled" }
              : { outcome: "selected", optionId: choice },
          };
        },
      )
      .onRequest(acp.methods.client.fs.readTextFile, ({ params }) => {
        this.reads.push(params.path);
        const text = options.buffers?.get(params.path);
        if (text === undefined) {
          throw acp.RequestError.resourceNotFound(params.path);
        }
        return { content: text };
      })
      .onRequest(acp.methods.client.fs.writeTextFile, ({ params }) => {
        this.writes.push({ path: params.path, content: params.content });
        options.buffers?.set(params.path, params.content);
        return {};
      })
      .onRequest(acp.methods.client.terminal.create, ({ params }) => {
        const id = `term-${this.terminals.size + 1}`;
        this.terminals.set(id, startTerminal(params));
        return { terminalId: id };
      })
      .onRequest(acp.methods.client.terminal.output, ({ params }) => {
        const terminal = this.#terminal(params.terminalId);
        return { output: terminal.output, truncated: false };
      })
      .onRequest(
        acp.methods.client.terminal.waitForExit,
        async ({ params }) => {
          const status = await this.#terminal(params.terminalId).exit;
          return { exitCode: status.code, signal: status.signal };
        },
      )
      .onRequest(acp.methods.client.terminal.kill, ({ params }) => {
        const terminal = this.#terminal(params.terminalId);
        terminal.killed = true;
        try {
          terminal.process.kill("SIGKILL");
        } catch {
          // Already ended.
        }
        return {};
      })
      .onRequest(acp.methods.client.terminal.release, ({ params }) => {
        const terminal = this.#terminal(params.terminalId);
        try {
          terminal.process.kill("SIGKILL");
        } catch {
          // Already ended.
        }
        return {};
      });
  }

  /** The capabilities to send in `initialize`. */
  get capabilities(): acp.ClientCapabilities {
    const capabilities: acp.ClientCapabilities = {};
    if (this.options.buffers) {
      capabilities.fs = { readTextFile: true, writeTextFile: true };
    }
    if (this.options.terminal) capabilities.terminal = true;
    return capabilities;
  }

  /** The updates of one kind, e.g. `"tool_call"`, of every session or one. */
  updatesOf<K extends acp.SessionUpdate["sessionUpdate"]>(
    kind: K,
    sessionId?: string,
  ): Extract<acp.SessionUpdate, { sessionUpdate: K }>[] {
    return this.updates
      .filter((n) => sessionId === undefined || n.sessionId === sessionId)
      .map((n) => n.update).filter((
        u,
      ): u is Extract<acp.SessionUpdate, { sessionUpdate: K }> =>
        u.sessionUpdate === kind
      );
  }

  /** The agent's streamed answer so far. */
  get text(): string {
    return this.updatesOf("agent_message_chunk")
      .map((u) => u.content.type === "text" ? u.content.text : "")
      .join("");
  }

  /** Waits until `check` passes, polling; fails after `timeoutMs`. */
  async waitFor(check: () => boolean, timeoutMs = 20_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!check()) {
      if (Date.now() > deadline) throw new Error("waitFor: timed out");
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  /** Kills whatever terminals are still running. */
  dispose(): void {
    for (const terminal of this.terminals.values()) {
      try {
        terminal.process.kill("SIGKILL");
      } catch {
        // Already ended.
      }
    }
  }

  #terminal(id: string): TestTerminal {
    const terminal = this.terminals.get(id);
    if (!terminal) throw new acp.RequestError(-32002, `no terminal ${id}`);
    return terminal;
  }
}

function startTerminal(request: acp.CreateTerminalRequest): TestTerminal {
  const process = new Deno.Command(request.command, {
    args: request.args ?? [],
    cwd: request.cwd ?? undefined,
    env: Object.fromEntries((request.env ?? []).map((v) => [v.name, v.value])),
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const terminal: TestTerminal = {
    request,
    process,
    output: "",
    exit: process.status,
    killed: false,
  };
  const decoder = new TextDecoder();
  const drain = async (stream: ReadableStream<Uint8Array>) => {
    for await (const chunk of stream) {
      terminal.output += decoder.decode(chunk, { stream: true });
    }
  };
  const drained = Promise.all([drain(process.stdout), drain(process.stderr)]);
  terminal.exit = drained.then(() => process.status);
  return terminal;
}
