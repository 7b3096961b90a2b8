// The first gate: the tools instance's permissionMode decides what runs, what
// asks `approve`, and what is refused; "always" answers are remembered here.
import { ToolError } from "./tool_error.ts";
import { type Turn, TurnQueue } from "./_turn_queue.ts";
import type {
  Approve,
  PermissionAction,
  PermissionMode,
  PermissionRequest,
} from "./types.ts";

/** A permission check as a tool states it. */
export interface GateRequest extends PermissionRequest {
  /**
   * What an "always" answer covers for `execute` (e.g. `"git status"`).
   * File requests derive their own key: the workspace for writes inside it,
   * the exact path otherwise.
   */
  alwaysKey?: string;
}

type Decision = "allow" | "ask" | "refuse";

/** The mode table from the README, as code. */
export function decide(
  mode: PermissionMode,
  action: PermissionAction,
  outside: boolean,
): Decision {
  if (mode === "allow") return "allow";
  if (action === "read") return outside ? "ask" : "allow";
  if (mode === "readOnly") return "refuse";
  if (action === "write" && mode === "acceptEdits" && !outside) return "allow";
  return "ask";
}

/** How a call waits for its question: its place in line, and its AbortSignal. */
export interface CheckOptions {
  /** A place taken when the call started; without it, one is taken now. */
  turn?: Turn;
  /** Leaves the line, or stops waiting for the answer, when it aborts. */
  signal?: AbortSignal;
}

/** Applies a permission mode and an approver, remembering "always" answers. */
export class PermissionGate {
  #mode: PermissionMode;
  #approve: Approve | undefined;
  #always = new Set<string>();
  // One question at a time, in the order the calls started: a person answers
  // them in turn, and an "always" answer covers the questions behind it.
  #line = new TurnQueue();

  constructor(mode: PermissionMode, approve: Approve | undefined) {
    this.#mode = checkedMode(mode);
    this.#approve = approve;
  }

  /** The mode this gate applies. */
  get mode(): PermissionMode {
    return this.#mode;
  }

  /** Switches the mode; earlier "always" answers stay, but never beat a refusal. */
  set mode(mode: PermissionMode) {
    this.#mode = checkedMode(mode);
  }

  /** Whether {@linkcode check} would ask the approver about `request` now. */
  wouldAsk(request: GateRequest): boolean {
    return decide(this.#mode, request.action, request.outsideWorkspace) ===
        "ask" && !this.#always.has(alwaysKey(request));
  }

  /**
   * Takes a place in the line of questions, now: a call that awaits other
   * things first (its file's turn) still asks in the order it started.
   */
  queueToAsk(): Turn {
    return this.#line.enter();
  }

  /** Resolves when the request may proceed; throws a ToolError when refused. */
  async check(request: GateRequest, options: CheckOptions = {}): Promise<void> {
    const decision = decide(
      this.#mode,
      request.action,
      request.outsideWorkspace,
    );
    if (decision === "allow") return;
    if (decision === "refuse") {
      throw new ToolError(
        `Refused: ${request.description}: permission mode "readOnly" allows no ${request.action}s; ask the user to change the permission mode`,
      );
    }
    const key = alwaysKey(request);
    if (this.#always.has(key)) return;
    if (!this.#approve) {
      throw new ToolError(
        `Refused: ${request.description}: this needs approval and no approver is configured; ask the user to allow it or to change the permission mode`,
      );
    }
    using turn = options.turn ?? this.#line.enter();
    await turn.wait(options.signal);
    stopIfAborted(request, options.signal);
    // Answered "always" while this question waited for its turn.
    if (this.#always.has(key)) return;
    const { alwaysKey: _, ...publicRequest } = request;
    let answer: unknown;
    try {
      answer = await abortable(this.#approve(publicRequest), options.signal);
    } catch (error) {
      throw new ToolError(
        `Refused: ${request.description}: the approval failed (${
          error instanceof Error ? error.message : String(error)
        })`,
      );
    }
    stopIfAborted(request, options.signal);
    if (answer === "always") this.#always.add(key);
    if (answer === true || answer === "always") return;
    throw new ToolError(
      `Refused by the user: ${request.description}; do not retry it, ask the user how to proceed`,
    );
  }
}

/** The permission modes, in order of trust. */
export const PERMISSION_MODES: readonly PermissionMode[] = [
  "readOnly",
  "ask",
  "acceptEdits",
  "allow",
];

function checkedMode(mode: unknown): PermissionMode {
  if (PERMISSION_MODES.includes(mode as PermissionMode)) {
    return mode as PermissionMode;
  }
  throw new TypeError(
    `Cannot use permission mode ${JSON.stringify(mode)}: use one of ${
      PERMISSION_MODES.map((m) => `"${m}"`).join(", ")
    }`,
  );
}

function stopIfAborted(request: GateRequest, signal?: AbortSignal): void {
  if (!signal?.aborted) return;
  throw new ToolError(
    `Refused: ${request.description}: the call was aborted before it was approved`,
  );
}

// An approver that never answers (the person walked away) must not keep an
// aborted call, and the line behind it, waiting.
async function abortable<T>(
  answer: T | Promise<T>,
  signal: AbortSignal | undefined,
): Promise<T | undefined> {
  if (signal === undefined) return await answer;
  const aborted = Promise.withResolvers<undefined>();
  const onAbort = () => aborted.resolve(undefined);
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    return await Promise.race([answer, aborted.promise]);
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

function alwaysKey(request: GateRequest): string {
  if (request.action === "execute") {
    const scope = request.outsideWorkspace ? `@${request.path ?? ""}` : "";
    return `execute:${request.alwaysKey ?? request.command ?? ""}${scope}`;
  }
  if (request.action === "write" && !request.outsideWorkspace) {
    return "write:workspace";
  }
  return `${request.action}:${request.path ?? ""}`;
}
