// The first gate: the tools instance's permissionMode decides what runs, what
// asks `approve`, and what is refused; "always" answers are remembered here.
import { ToolError } from "./tool_error.ts";
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

/** Applies a permission mode and an approver, remembering "always" answers. */
export class PermissionGate {
  #mode: PermissionMode;
  #approve: Approve | undefined;
  #always = new Set<string>();

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

  /** Resolves when the request may proceed; throws a ToolError when refused. */
  async check(request: GateRequest): Promise<void> {
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
    const { alwaysKey: _, ...publicRequest } = request;
    let answer: unknown;
    try {
      answer = await this.#approve(publicRequest);
    } catch (error) {
      throw new ToolError(
        `Refused: ${request.description}: the approval failed (${
          error instanceof Error ? error.message : String(error)
        })`,
      );
    }
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
