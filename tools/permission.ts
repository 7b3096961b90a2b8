// The first gate: the tools instance's permissionMode decides what runs, what
// asks `approve`, and what is refused; "always" answers are remembered here.
import { printable } from "../internal/printable.ts";
import { ToolError } from "../internal/tool_error.ts";
import { type Turn, TurnQueue } from "./_turn_queue.ts";
import type { PermissionRuleSet } from "./permission_rules.ts";
import type {
  Approve,
  PermissionAction,
  PermissionMode,
  PermissionRequest,
} from "./types.ts";

/**
 * Thrown by an approver that could ask nobody (no terminal, input ended):
 * the model is told that nobody could be asked, not that the user refused.
 * Its message says why, and how the user can allow such calls.
 */
export class NobodyToAskError extends Error {
  override name = "NobodyToAskError";
}

/** A permission check as a tool states it. */
export interface GateRequest extends PermissionRequest {
  /**
   * What an "always" answer covers for `execute` (Shell's is a JSON key of
   * the command and its env, see alwaysKeyOf); by default the command line.
   * File requests derive their own key: the workspace for writes inside it,
   * the exact path otherwise.
   */
  alwaysKey?: string;
}

type Decision = "allow" | "ask" | "refuse";

/**
 * The mode table from the README, as code. A sandboxed command (see
 * tools/shell/_sandbox.ts) in the workspace can harm nothing outside it, so
 * only `ask` asks about it.
 */
export function decide(
  mode: PermissionMode,
  action: PermissionAction,
  outside: boolean,
  sandboxed = false,
): Decision {
  if (mode === "allow") return "allow";
  if (action === "read") return outside ? "ask" : "allow";
  if (action === "execute" && sandboxed && !outside && mode !== "ask") {
    return "allow";
  }
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

/**
 * Applies permission rules, then a permission mode and an approver,
 * remembering "always" answers.
 */
export class PermissionGate {
  #mode: PermissionMode;
  #approve: Approve | undefined;
  #rules: PermissionRuleSet | undefined;
  #always = new Set<string>();
  // One question at a time, in the order the calls started: a person answers
  // them in turn, and an "always" answer covers the questions behind it.
  #line = new TurnQueue();

  constructor(
    mode: PermissionMode,
    approve: Approve | undefined,
    rules?: PermissionRuleSet,
  ) {
    this.#mode = checkedMode(mode);
    this.#approve = approve;
    this.#rules = rules?.empty ? undefined : rules;
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
    if (this.#rules?.decide(request)) return false;
    return decide(
          this.#mode,
          request.action,
          request.outsideWorkspace,
          request.sandboxed,
        ) === "ask" && !this.#always.has(alwaysKey(request));
  }

  /**
   * Takes a place in the line of questions, now: a call that awaits other
   * things first (its file's turn) still asks in the order it started.
   */
  queueToAsk(): Turn {
    return this.#line.enter();
  }

  /** Resolves when the request may proceed; throws a ToolError when refused. */
  async check(
    original: GateRequest,
    options: CheckOptions = {},
  ): Promise<void> {
    // The key is made of the request as given; everything shown, of the
    // request with its control characters escaped (see shownRequest).
    const key = alwaysKey(original);
    const request = shownRequest(original);
    // Rules come first: a deny rule beats every mode and answer, an allow
    // rule needs no question in any mode.
    const ruled = this.#rules?.decide(original);
    if (ruled?.verdict === "allow") return;
    if (ruled?.verdict === "deny") {
      throw new ToolError(
        `Refused: ${request.description}: the deny rule "${
          printable(ruled.rule)
        }" of the user's settings forbids it; do not retry it, ask the user how to proceed`,
      );
    }
    if (!this.#approverFor(original, request, key)) return;
    using turn = options.turn ?? this.#line.enter();
    await turn.wait(options.signal);
    stopIfAborted(request, options.signal);
    // Decided again when its turn comes: while it waited, the mode may have
    // been switched (to "allow": not asked; to "readOnly": refused) or an
    // "always" answer may have come that covers it.
    const approve = this.#approverFor(original, request, key);
    if (!approve) return;
    let answer: unknown;
    try {
      answer = await abortable(approve(request), options.signal);
    } catch (error) {
      if (error instanceof NobodyToAskError) {
        throw new ToolError(
          `Refused: ${request.description}: nobody could be asked to approve it (${error.message}); do not retry it, tell the user how to allow it`,
        );
      }
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

  /**
   * The approver to ask about `request`, decided on the mode and the
   * "always" answers of now; undefined when it may proceed unasked. Throws
   * a ToolError when it is refused.
   */
  #approverFor(
    original: GateRequest,
    request: PermissionRequest,
    key: string,
  ): Approve | undefined {
    const decision = decide(
      this.#mode,
      original.action,
      original.outsideWorkspace,
      original.sandboxed,
    );
    if (decision === "allow") return undefined;
    if (decision === "refuse") {
      throw new ToolError(
        `Refused: ${request.description}: permission mode "readOnly" allows no ${request.action}s; ask the user to change the permission mode`,
      );
    }
    if (this.#always.has(key)) return undefined;
    if (!this.#approve) {
      throw new ToolError(
        `Refused: ${request.description}: this needs approval and no approver is configured; ask the user to allow it or to change the permission mode`,
      );
    }
    return this.#approve;
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

function stopIfAborted(request: PermissionRequest, signal?: AbortSignal): void {
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

/**
 * The request as the approver gets it: its description and command with
 * control characters escaped, so no front end (a terminal, an editor) shows
 * a carriage return or an ANSI escape that hides what really runs. `path`
 * and `env` stay exact: programs use them, and the description shows them.
 */
function shownRequest(request: GateRequest): PermissionRequest {
  const { alwaysKey: _, ...shown } = request;
  shown.description = printable(request.description);
  if (request.command !== undefined) shown.command = printable(request.command);
  return shown;
}

// A JSON array, so no two requests share a key by accident of spelling (a
// command that contains "@" or starts with "exact:" cannot pose as another).
function alwaysKey(request: GateRequest): string {
  if (request.action === "execute") {
    // An outside working folder is part of what was approved.
    const scope = request.outsideWorkspace ? request.path ?? "" : null;
    return JSON.stringify([
      "execute",
      request.tool,
      request.alwaysKey ?? request.command ?? "",
      scope,
    ]);
  }
  if (request.action === "write" && !request.outsideWorkspace) {
    return JSON.stringify(["write", null]);
  }
  return JSON.stringify([request.action, request.path ?? ""]);
}
