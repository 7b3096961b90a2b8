// What every tool receives from createTools: the workspace, path resolution,
// the permission gate, the backends and the (process-wide) file queues.
import { resolve } from "node:path";
import { isWithin, realPathOrNearest, resolvePath } from "../internal/paths.ts";
import {
  type CheckOptions,
  type GateRequest,
  PermissionGate,
} from "./permission.ts";
import { type PermissionRules, PermissionRuleSet } from "./permission_rules.ts";
import { lockRealFile, queueForFile } from "./_file_lock.ts";
import type { Turn } from "./_turn_queue.ts";
import { ToolError } from "../internal/tool_error.ts";
import type {
  FileBackend,
  PermissionAction,
  PermissionMode,
  ProcessBackend,
  SandboxMode,
} from "./types.ts";
import { isError } from "../internal/runtime/runtime.ts";

/** A permission check as a tool asks for it; `outsideWorkspace` is computed. */
export interface AuthorizeRequest {
  tool: string;
  action: PermissionAction;
  /** The absolute path read or written, or a command's working folder. */
  path?: string;
  command?: string;
  /** The variables a command sets (Shell's `env`). */
  env?: Record<string, string>;
  description: string;
  alwaysKey?: string;
  /** For `execute`: whether the command runs in the OS sandbox. */
  sandboxed?: boolean;
}

/** What authorize() decided on, to check again right before acting. */
export interface Authorization {
  /**
   * The real path (symlinks followed) the decision was made on; undefined
   * for a request without a path.
   */
  realPath?: string;
  /**
   * Whether the call waited for a person (its turn among the questions, then
   * the answer): a file may have been swapped for a symlink meanwhile.
   */
  waited: boolean;
}

/** The shared state and services of one tools instance. */
export class ToolContext {
  /** The workspace root, absolute. */
  readonly workspace: string;
  /** File operations (local disk or an editor). */
  readonly files: FileBackend;
  /** Subprocesses (local or an editor's terminals). */
  readonly processes: ProcessBackend;
  /** When Shell runs commands in the OS sandbox. */
  readonly sandbox: SandboxMode;
  /** Whether sandboxed commands may use the network. */
  readonly sandboxNetwork: boolean;
  #gate: PermissionGate;
  #ownFiles = new Set<string>();
  #realWorkspace: Promise<string> | undefined;
  #workspaceFound = false;

  constructor(options: {
    workspace: string;
    permissionMode: PermissionMode;
    approve?: GateApprove;
    files: FileBackend;
    processes: ProcessBackend;
    sandbox?: SandboxMode;
    sandboxNetwork?: boolean;
    /** Rules applied before the mode; a rule that does not parse throws a TypeError. */
    permissions?: PermissionRules;
  }) {
    this.workspace = resolve(options.workspace);
    this.files = options.files;
    this.processes = options.processes;
    this.sandbox = checkedSandbox(options.sandbox ?? "auto");
    this.sandboxNetwork = options.sandboxNetwork ?? false;
    this.#gate = new PermissionGate(
      options.permissionMode,
      options.approve,
      options.permissions &&
        new PermissionRuleSet(options.permissions, this.workspace),
    );
  }

  /** The permission mode in force. */
  get permissionMode(): PermissionMode {
    return this.#gate.mode;
  }

  /** Switches the permission mode (an editor's mode picker, for example). */
  set permissionMode(mode: PermissionMode) {
    this.#gate.mode = mode;
  }

  /**
   * Lets the tools read a file they made themselves (a Shell log) without
   * asking, wherever it lies: its content came from a command already approved.
   */
  addOwnFile(path: string): void {
    this.#ownFiles.add(path);
  }

  /** Resolves a path argument against the call's `cwd` (itself relative to the workspace). */
  resolve(path: string, tool: string, cwd?: string): string {
    const base = cwd === undefined
      ? this.workspace
      : resolvePath(this.workspace, cwd, tool);
    return resolvePath(base, path, tool);
  }

  /**
   * Takes a place in the line of questions, now, before the call's first
   * await; pass it to authorize() as `turn`, and release it when done (`using`).
   */
  queueToAsk(): Turn {
    return this.#gate.queueToAsk();
  }

  /**
   * Takes a call's places, now, before its first await: in the line of calls
   * on the file at `path` (shared by every tools instance of the process) and
   * in the line of questions. Wait for `file`, then pass `ask` to authorize():
   * calls on one file run in the order they started, reads included, and ask
   * in that order. Release both when done (`using`).
   */
  queueForFile(path: string): { file: Turn; ask: Turn } & Disposable {
    const file = queueForFile(path);
    const ask = this.#gate.queueToAsk();
    return {
      file,
      ask,
      [Symbol.dispose]() {
        ask.release();
        file.release();
      },
    };
  }

  /**
   * Runs `task` alone among the writes of the same real file, from any tools
   * instance and by any path: through a symlinked folder it is the same file.
   */
  async lockFile<T>(path: string, task: () => Promise<T>): Promise<T> {
    return await lockRealFile(path, task);
  }

  /** Whether an absolute path lies outside the workspace, on real paths. */
  async isOutside(path: string): Promise<boolean> {
    return !(await this.#place(path)).inside;
  }

  /** The workspace's real path (symlinks followed). */
  realWorkspace(): Promise<string> {
    this.#realWorkspace ??= realPathOrNearest(this.workspace);
    return this.#realWorkspace;
  }

  async #place(path: string): Promise<{ real: string; inside: boolean }> {
    const [root, real] = await Promise.all([
      this.realWorkspace(),
      realPathOrNearest(path),
    ]);
    return { real, inside: isWithin(root, real) };
  }

  /**
   * Applies the permission mode; throws a ToolError when refused. Without
   * `options.turn`, the place in the line of questions is taken now, before
   * the first await: call it first thing to ask in the order calls started.
   */
  async authorize(
    request: AuthorizeRequest,
    options: CheckOptions = {},
  ): Promise<Authorization> {
    using turn = options.turn ?? this.#gate.queueToAsk();
    if (request.action === "read" && this.#ownFiles.has(request.path ?? "")) {
      return { waited: false }; // its content came from an approved command
    }
    const { gateRequest, realPath } = await this.#gateRequest(request);
    // Decided now, as check() decides before its first await.
    const waited = this.#gate.wouldAsk(gateRequest);
    await this.#gate.check(gateRequest, { turn, signal: options.signal });
    return realPath === undefined ? { waited } : { realPath, waited };
  }

  /** Whether `authorize(request)` would ask the approver now. */
  async wouldAsk(request: AuthorizeRequest): Promise<boolean> {
    return this.#gate.wouldAsk((await this.#gateRequest(request)).gateRequest);
  }

  /**
   * Whether `authorize(request)` would ask the approver now about a path
   * inside the workspace, where reading needs no approval of its own: then a
   * call that cannot apply can fail before anyone is asked.
   */
  async wouldAskInside(request: AuthorizeRequest): Promise<boolean> {
    const { gateRequest } = await this.#gateRequest(request);
    return !gateRequest.outsideWorkspace && this.#gate.wouldAsk(gateRequest);
  }

  async #gateRequest(
    request: AuthorizeRequest,
  ): Promise<{ gateRequest: GateRequest; realPath?: string }> {
    await this.#requireWorkspace(request.tool);
    const gateRequest: GateRequest = { ...request, outsideWorkspace: false };
    if (gateRequest.alwaysKey === undefined) delete gateRequest.alwaysKey;
    if (request.path === undefined) return { gateRequest };
    const { real, inside } = await this.#place(request.path);
    gateRequest.outsideWorkspace = !inside;
    // A path that leads out through a symlink ("link/id_rsa") is asked about
    // as what it really is: the request names the real target, and an
    // "always" answer covers that target, not a link that may be repointed.
    if (!inside && real !== request.path) {
      gateRequest.path = real;
      gateRequest.description += ` (really "${real}")`;
    }
    return { gateRequest, realPath: real };
  }

  // Checked on the first call rather than in createTools(), which starts
  // nothing; once found, never again. A mistyped cwd would otherwise have
  // WriteFile create it, folders and all. Listed rather than stat'ed: an
  // editor's backend reads a stat'ed path through the editor.
  async #requireWorkspace(tool: string): Promise<void> {
    if (this.#workspaceFound) return;
    try {
      await this.files.readDir(this.workspace);
    } catch (error) {
      const problem = isError(error, "notFound")
        ? "does not exist; pass an existing folder as cwd"
        : isError(error, "notADirectory")
        ? "is a file, not a folder; pass a folder as cwd"
        : undefined;
      if (problem === undefined) return; // the tool reports it
      throw new ToolError(
        `${tool} cannot work in "${this.workspace}": the workspace ${problem}`,
      );
    }
    this.#workspaceFound = true;
  }
}

type GateApprove = ConstructorParameters<typeof PermissionGate>[1];

const SANDBOX_MODES: readonly SandboxMode[] = ["auto", "off", "required"];

function checkedSandbox(mode: unknown): SandboxMode {
  if (SANDBOX_MODES.includes(mode as SandboxMode)) return mode as SandboxMode;
  throw new TypeError(
    `Cannot use sandbox ${JSON.stringify(mode)}: use one of ${
      SANDBOX_MODES.map((m) => `"${m}"`).join(", ")
    }`,
  );
}
