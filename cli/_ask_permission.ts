// Asks the person at the terminal to approve a tool's operation: yes, no or
// always. Questions from parallel tool calls wait their turn; a cancelled run
// answers no; without a terminal nothing can be asked, so the answer is no.
import type { AgentApprove, AgentPermissionRequest } from "../agent/types.ts";
import type { PermissionAnswer } from "../tools/types.ts";
import { readLine } from "./_stdin_lines.ts";

/** Where the questions go and how to know the run was cancelled. */
export interface TerminalAskOptions {
  /** Writes the question (to stderr). */
  write(text: string): void;
  /** Whether a person can answer on stdin. */
  interactive: boolean;
  /** The signal of the run in progress, if any. */
  signal(): AbortSignal | undefined;
}

/** Creates an approver that asks on the terminal. */
export function terminalApprover(options: TerminalAskOptions): AgentApprove {
  let queue: Promise<unknown> = Promise.resolve();
  return (request) => {
    const answer = queue.then(() => ask(options, request));
    queue = answer.catch(() => {});
    return answer;
  };
}

async function ask(
  options: TerminalAskOptions,
  request: AgentPermissionRequest,
): Promise<PermissionAnswer> {
  const signal = options.signal();
  if (signal?.aborted) return false;
  const where = request.outsideWorkspace ? " (outside the workspace)" : "";
  if (!options.interactive) {
    const modes = request.action === "write" && !request.outsideWorkspace
      ? "acceptEdits or allow"
      : "allow";
    options.write(
      `fello: refused: ${request.description}${where}: no terminal to ask on; pass --permission-mode ${modes} to permit it\n`,
    );
    return false;
  }
  options.write(
    `\nAllow ${request.tool}: ${request.description}${where}? [y]es / [n]o / [a]lways: `,
  );
  const line = await untilAborted(readLine(), signal);
  const reply = line?.trim().toLowerCase() ?? "";
  if (reply === "a" || reply === "always") return "always";
  if (reply === "y" || reply === "yes") return true;
  if (line === undefined) options.write("\n");
  return false;
}

/** Resolves to the line, or to undefined as soon as the run is cancelled. */
function untilAborted(
  line: Promise<string | null>,
  signal: AbortSignal | undefined,
): Promise<string | null | undefined> {
  if (!signal) return line;
  return new Promise((resolve) => {
    const onAbort = () => resolve(undefined);
    signal.addEventListener("abort", onAbort, { once: true });
    line.then((value) => {
      signal.removeEventListener("abort", onAbort);
      resolve(value);
    });
  });
}
