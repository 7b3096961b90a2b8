// Asks the person at the terminal to approve a tool's operation: yes, no or
// always, after showing what it approves (the diff, the command). Questions
// from parallel tool calls wait their turn; a cancelled run answers no; when
// nobody can answer (stdin ended or unusable), the call is refused and the
// model told that nobody could be asked. Any other reply asks the question
// again, and an empty line answers no.
import type { AgentApprove, AgentPermissionRequest } from "../agent/types.ts";
import type { PermissionAnswer } from "../tools/types.ts";
import { NobodyToAskError } from "../tools/permission.ts";
import { readLine } from "./_stdin_lines.ts";

/** Where the questions go and how to know the run was cancelled. */
export interface TerminalAskOptions {
  /** Writes the question (to stderr). */
  write(text: string): void;
  /**
   * Whether answers can be read from stdin: a terminal, or a pipe of answers
   * (`yes y | fello "..."`). At the end of stdin every request is refused.
   */
  interactive: boolean;
  /** The signal of the run in progress, if any. */
  signal(): AbortSignal | undefined;
  /**
   * Told the question (as written) while it waits for its answer, then
   * undefined: output printed meanwhile can show it again (QuestionLine).
   */
  waiting?(question: string | undefined): void;
  /**
   * What to show above the question (lines ending in newlines), such as
   * the diff a call makes (approvalView); nothing by default.
   */
  view?(request: AgentPermissionRequest): Promise<string>;
}

const CHOICES = "[y]es / [n]o / [a]lways: ";
const NO = new Set(["n", "no"]);
/** An answer line is read up to this long; the rest of it is dropped. */
const MAX_ANSWER_CHARS = 1024;

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
  if (options.interactive) {
    const view = await options.view?.(request).catch(() => "") ?? "";
    // The question's own newline ends the view's last line.
    if (view !== "") options.write(`\n${view.slice(0, -1)}`);
    const question =
      `\nAllow ${request.tool}: ${request.description}${where}? ${CHOICES}`;
    options.write(question);
    options.waiting?.(question);
    try {
      const answer = await readAnswer(options, { question, signal });
      if (answer !== null) return answer;
    } finally {
      options.waiting?.(undefined);
    }
  }
  // No terminal, or stdin ended: nobody can answer.
  const modes = request.action === "write" && !request.outsideWorkspace
    ? "acceptEdits or allow"
    : "allow";
  options.write(
    `fello: refused: ${request.description}${where}: no one to ask (stdin is not a terminal or has ended); pass --permission-mode ${modes} to permit it\n`,
  );
  throw new NobodyToAskError(
    `stdin is not a terminal or has ended; the user can permit it with --permission-mode ${modes}`,
  );
}

/** Reads replies until one answers; null when stdin has ended. */
async function readAnswer(
  options: TerminalAskOptions,
  { question, signal }: { question: string; signal?: AbortSignal },
): Promise<PermissionAnswer | null> {
  while (true) {
    const line = await untilAborted(
      readLine({ maxChars: MAX_ANSWER_CHARS }),
      signal,
    );
    const reply = line?.trim().toLowerCase() ?? "";
    if (reply === "a" || reply === "always") return "always";
    if (reply === "y" || reply === "yes") return true;
    if (line === null) return null;
    if (line === undefined) options.write("\n");
    // A typo costs nothing: only an empty line (or a cancel) means no.
    if (line === undefined || reply === "" || NO.has(reply)) return false;
    // The whole question again, so it is the last thing on screen as
    // `waiting` was told (output printed meanwhile erases exactly it).
    options.write(`"${shown(line.trim())}" is not an answer.${question}`);
  }
}

// A reply as the question quotes it back: its start only.
function shown(reply: string): string {
  return reply.length > 60 ? `${reply.slice(0, 60)}…` : reply;
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
