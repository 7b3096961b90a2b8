// The commands of an interactive session: a line that starts with one of
// them is answered here, never sent to the model; a lone unknown `/word`
// gets the list. /model and /mode show or switch, /compact summarizes the
// conversation now, /tokens tells the context in use and the tokens spent.
import type { Agent, AgentUsage } from "../agent/types.ts";
import type { AgentContextUse } from "../agent/types.ts";
import { PERMISSION_MODES } from "../tools/permission.ts";
import type { PermissionMode } from "../tools/types.ts";

/** The list /help prints. */
export const SLASH_HELP = [
  "/model [NAME]  show the model, or switch to NAME",
  "/mode [MODE]   show the permission mode, or switch to MODE (ask, acceptEdits, allow, readOnly)",
  "/compact       summarize the conversation now, to free the context",
  "/tokens        the context in use and the tokens spent",
  "/reset         start over",
  "/exit          quit (also /quit, Ctrl-D, or Ctrl-C twice)",
  "/help          this list; a line with more words goes to the model",
].join("\n");

/** What a command may do to the session. */
export interface CommandContext {
  agent: Agent;
  /** Where the commands answer (stderr). */
  write(text: string): void;
  /** Runs `fn` so that Ctrl-C cancels it (as a prompt's run). */
  cancellable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T>;
  /** Starts the conversation over (and saves that). */
  reset(): Promise<void>;
  /** Saves the conversation (after /compact, or a switch of model). */
  save(): Promise<void>;
  /** The tokens the session's runs spent so far. */
  spent: Required<Pick<AgentUsage, "inputTokens" | "outputTokens">>;
}

/** What a line was. */
export type CommandOutcome = "exit" | "done" | "prompt";

const KNOWN = new Set([
  "/model",
  "/mode",
  "/compact",
  "/tokens",
  "/reset",
  "/exit",
  "/quit",
  "/help",
]);

/**
 * Runs `line` if it is a command: "exit" to quit, "done" when it was
 * answered here, "prompt" when it is for the model.
 */
export async function runCommand(
  line: string,
  context: CommandContext,
): Promise<CommandOutcome> {
  const [name, ...args] = line.trim().split(/\s+/);
  if (!KNOWN.has(name)) {
    if (!/^\/[\w-]+$/.test(line.trim())) return "prompt";
    context.write(`unknown command ${name}; the commands:\n${SLASH_HELP}\n`);
    return "done";
  }
  const { agent, write } = context;
  switch (name) {
    case "/exit":
    case "/quit":
      return "exit";
    case "/help":
      write(`${SLASH_HELP}\n`);
      break;
    case "/reset":
      await context.reset();
      write("(conversation cleared)\n");
      break;
    case "/model":
      if (args.length === 0) write(`model: ${agent.model}\n`);
      else {
        agent.model = args.join(" ");
        await context.save();
        write(`(model: ${agent.model}, from the next prompt on)\n`);
      }
      break;
    case "/mode":
      if (args.length === 0) {
        write(
          `permission mode: ${agent.permissionMode} (the modes: ${
            PERMISSION_MODES.join(", ")
          })\n`,
        );
      } else if (!PERMISSION_MODES.includes(args[0] as PermissionMode)) {
        write(
          `unknown mode "${args[0]}": use one of ${
            PERMISSION_MODES.join(", ")
          }\n`,
        );
      } else {
        agent.permissionMode = args[0] as PermissionMode;
        write(`(permission mode: ${agent.permissionMode})\n`);
      }
      break;
    case "/compact":
      await compact(context);
      break;
    case "/tokens":
      write(
        `${contextLine(await agent.contextUse())}; spent ${
          tokens(context.spent.inputTokens)
        } in, ${tokens(context.spent.outputTokens)} out\n`,
      );
      break;
  }
  return "done";
}

async function compact(context: CommandContext): Promise<void> {
  const { agent, write } = context;
  write("(summarizing the conversation…)\n");
  try {
    const event = await context.cancellable((signal) =>
      agent.compact({ signal })
    );
    if (event === undefined) {
      write("(nothing to summarize yet)\n");
      return;
    }
    await context.save();
    write(
      `(summarized ${event.messages} message${
        event.messages === 1 ? "" : "s"
      }: about ${tokens(event.tokensBefore)} → ${
        tokens(event.tokensAfter)
      } tokens)\n`,
    );
  } catch (error) {
    write(
      `fello: could not compact: ${
        error instanceof Error ? error.message : String(error)
      }\n`,
    );
  }
}

/**
 * The line after each answer: the run's tokens in and out (when the
 * endpoint reports them) and how full the context is.
 */
export function usageLine(usage: AgentUsage, context: AgentContextUse): string {
  const spent = usage.inputTokens === undefined &&
      usage.outputTokens === undefined
    ? ""
    : `${tokens(usage.inputTokens ?? 0)} in, ${
      tokens(usage.outputTokens ?? 0)
    } out · `;
  return `${spent}${contextLine(context)}`;
}

function contextLine(context: AgentContextUse): string {
  const percent = Math.round((100 * context.tokens) / context.limit);
  return `context ${percent}% full (${tokens(context.tokens)} of ${
    tokens(context.limit)
  } tokens)`;
}

// 950, 1.2k, 120k.
function tokens(count: number): string {
  if (count < 1000) return String(count);
  const thousands = count / 1000;
  return `${
    thousands < 10
      ? thousands.toFixed(1).replace(/\.0$/, "")
      : Math.round(thousands)
  }k`;
}
