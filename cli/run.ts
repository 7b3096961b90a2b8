// The "run" command (also the default): runs the agent on a prompt and streams
// a transcript, or with no prompt on a terminal holds an interactive session.
// Ctrl-C cancels the running prompt (its model request, Shell processes and
// subagents); a second Ctrl-C quits. The idle prompt is the line editor's
// (cli/_prompt/), the session's commands _slash_commands.ts's.
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import {
  createAgent,
  DEFAULT_CONTEXT_TOKENS,
  DEFAULT_MAX_STEPS,
} from "../agent/agent.ts";
import { EndpointError } from "../agent/endpoint_error.ts";
import type { Agent, AgentEvent, AgentResult } from "../agent/types.ts";
import type { PermissionMode, SandboxMode } from "../tools/types.ts";
import { readAgentFlags } from "./_agent_flags.ts";
import { CONFIG_FLAGS, type EffectiveConfig, loadConfig } from "./_config.ts";
import {
  prepareRun,
  type RunExtras,
  terminalTrustQuestion,
} from "./_run_setup.ts";
import { terminalApprover } from "./_ask_permission.ts";
import { approvalView, CallInputs } from "./_approval.ts";
import { QuestionLine } from "./_question_line.ts";
import {
  describeEndpointFailure,
  ENDPOINT_USAGE,
  type EndpointSettings,
  resolveModel,
} from "./_endpoint.ts";
import { describeRetry, TranscriptPrinter, writeAll } from "./_render.ts";
import { readAll } from "./_stdin_lines.ts";
import { interactivePrompt } from "./_prompt/interactive_prompt.ts";
import {
  type CommandContext,
  runCommand,
  usageLine,
} from "./_slash_commands.ts";
import { workspaceFolder } from "./_workspace.ts";
import { exitCleanlyOn } from "./_exit_on_signals.ts";
import {
  holdSession,
  loadSession,
  releaseSession,
  type SavedSession,
  saveSession,
  sessionTitle,
  workspaceSessionPath,
} from "../agent/session_file.ts";
import { isError, runtime } from "../internal/runtime/runtime.ts";
import type { FsFile } from "../internal/runtime/runtime.ts";

const USAGE = `Usage: fello [run] [options] [prompt...]

Runs the agent on the prompt, streaming its answer and showing each tool call
with its outcome; a question about a file change shows its diff first. Without
a prompt on a terminal, starts an interactive session (/help lists its
commands; any other /word alone on a line is answered there, not sent to the
model); a prompt can also be piped on stdin.

Options:
${ENDPOINT_USAGE}
  --permission-mode MODE  ask (default: asks you on the terminal), acceptEdits, allow or readOnly
  --sandbox WHEN          auto (default: Shell commands run in bubblewrap except in
                          allow mode), required (always; refuse without it) or off
  --sandbox-network       let sandboxed commands use the network
  --cwd DIR               the workspace (default: the current folder)
  --max-steps N           model calls per prompt at most (default ${DEFAULT_MAX_STEPS})
  --context-tokens N      the model's context window less room for its answer:
                          past it, the oldest tool calls are cleared, then the
                          oldest messages summarized (default ${DEFAULT_CONTEXT_TOKENS})
  --map-tokens N          start each conversation with a map of the repository
                          of N tokens (at least 256; default 0: no map)
  --vision-model NAME     the model ImageAnalysis asks (default: the --model)
  --session FILE          go on with the conversation saved in FILE (if it
                          exists) and save it there after each prompt
  -c, --continue          the same with this workspace's own session file
                          (in $FELLO_STATE_DIR, else $XDG_STATE_HOME/fello,
                          else ~/.local/state/fello)
  --json                  print one JSON event per line on stdout, for scripts
  --trust-workspace       use this workspace's allow rules, endpoint, key and
                          MCP servers (.fello/config.json, .mcp.json) this once
  -h, --help              show this help

Settings also come from .fello/config.json in the workspace and config.json in
$XDG_CONFIG_HOME/fello (else ~/.config/fello); "fello config" shows them.
Interactive session: arrows, Home/End, Alt-B/F and Ctrl-A/E/K/U/W edit the
line, Up/Down bring back earlier prompts (kept in the state folder), a paste
or Alt-Enter (or a line ending in \\) makes a prompt of several lines; the
commands are /model [NAME], /mode [MODE], /compact, /tokens, /reset, /exit.
Ctrl-C cancels the running prompt; a second Ctrl-C quits. At the idle prompt
Ctrl-C clears the line; a second within 2 s, or Ctrl-D, quits.
Exit codes: 0 done, 1 failed, 2 bad usage or unusable endpoint, 3 stopped at
--max-steps, 130 cancelled.`;

/** Settings parsed from the command line. */
interface RunSettings {
  endpoint: EndpointSettings;
  permissionMode: PermissionMode;
  sandbox: SandboxMode;
  sandboxNetwork: boolean;
  cwd: string;
  maxSteps?: number;
  contextTokens?: number;
  repoMapTokens: number;
  visionModel?: string;
  json: boolean;
  prompt: string;
  /** Where the conversation is loaded from and saved to, if anywhere. */
  sessionPath?: string;
  /** The merged settings files: rules, MCP servers, what trust withheld. */
  config: EffectiveConfig;
}

/** Runs the "run" command and resolves to the exit code. */
export async function main(args: string[]): Promise<number> {
  // Before parsing: with --json even a usage error is a JSON event.
  const json = args.includes("--json");
  const settings = await parse(args, json);
  if (typeof settings === "number") return settings;
  const session = new CliSession(settings.json);
  try {
    return await session.start(settings);
  } finally {
    await session.close();
  }
}

async function parse(
  args: string[],
  json: boolean,
): Promise<RunSettings | number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      options: {
        ...CONFIG_FLAGS,
        json: { type: "boolean" },
        session: { type: "string" },
        continue: { type: "boolean", short: "c" },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    return usageError(
      `${(error as Error).message}; see fello run --help`,
      json,
    );
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  try {
    const { sandboxNetwork, repoMapTokens } = readAgentFlags(values);
    const cwd = await workspaceFolder(values.cwd);
    const config = await loadConfig(values, cwd, {
      askTrust: terminalTrustQuestion(),
    });
    if (values.session !== undefined && values.continue) {
      throw new TypeError("give --session FILE or --continue, not both");
    }
    const sessionPath = values.continue
      ? await workspaceSessionPath(cwd)
      : values.session === undefined
      ? undefined
      : resolve(values.session);
    return {
      endpoint: config.endpoint,
      permissionMode: config.permissionMode,
      cwd,
      maxSteps: config.maxSteps,
      contextTokens: config.contextTokens,
      visionModel: config.visionModel,
      sandbox: config.sandbox,
      sandboxNetwork,
      repoMapTokens,
      config,
      json: values.json ?? false,
      prompt: positionals.join(" ").trim(),
      sessionPath,
    };
  } catch (error) {
    return usageError((error as Error).message, json);
  }
}

/** One invocation: the agent, the Ctrl-C handling and the output. */
class CliSession {
  #json: boolean;
  #running: AbortController | undefined;
  /** Where each prompt's conversation is saved, when --session or --continue asked. */
  #saving:
    | { path: string; cwd: string; model: string; title?: string }
    | undefined;
  /** The MCP servers and instructions the run added. */
  #extras: RunExtras | undefined;
  /** The lock on the session file, held while this process runs. */
  #lock: FsFile | undefined;
  #lockedPath: string | undefined;
  #interrupts = 0;
  #stdoutClosed = false;
  /** The tokens the runs of this invocation spent. */
  #spent = { inputTokens: 0, outputTokens: 0 };
  /** The inputs of the running prompt's calls, for their approvals' views. */
  #calls = new CallInputs();
  /** Keeps a waiting question below the transcript lines printed meanwhile. */
  #questions = new QuestionLine((text) => writeAll(runtime.stderr, text));
  #onSigint = () => this.#interrupt();

  constructor(json: boolean) {
    this.#json = json;
    runtime.addSignalListener("SIGINT", this.#onSigint);
    exitCleanlyOn(["SIGTERM", "SIGHUP"]);
  }

  async start(settings: RunSettings): Promise<number> {
    const interactive = settings.prompt === "" && runtime.stdin.isTerminal();
    let prompt = settings.prompt;
    if (prompt === "" && !interactive) {
      try {
        prompt = (await readAll()).trim();
      } catch (error) {
        return usageError((error as Error).message, this.#json);
      }
    }
    if (prompt === "" && !interactive) {
      return usageError(
        'no prompt: give one, e.g. fello run "Explain this project", or pipe it on stdin',
        this.#json,
      );
    }
    let saved: SavedSession | undefined;
    try {
      if (settings.sessionPath) {
        this.#lock = await holdSession(settings.sessionPath);
        this.#lockedPath = settings.sessionPath;
        saved = await loadSession(settings.sessionPath);
      }
    } catch (error) {
      await this.#dropLock();
      return usageError((error as Error).message, this.#json);
    }
    let model: string;
    try {
      model = await resolveModel(settings.endpoint);
    } catch (error) {
      return this.#failed(error);
    }
    if (settings.config.skipped) {
      writeAll(runtime.stderr, `${settings.config.skipped}\n`);
    }
    const agent = await this.#createAgent(settings, model, saved);
    if (settings.sessionPath) {
      this.#saving = {
        path: settings.sessionPath,
        cwd: settings.cwd,
        model,
        title: saved?.title,
      };
    }
    if (!interactive) return await this.#runOnce(agent, prompt);
    const continuing = saved?.messages.length
      ? `; going on with ${saved.messages.length} messages from ${settings.sessionPath}`
      : "";
    writeAll(
      runtime.stderr,
      `fello: ${model} at ${settings.endpoint.baseURL}, workspace ${settings.cwd} (${settings.permissionMode})${continuing}; /reset starts over, /exit quits, /help lists commands\n`,
    );
    return await this.#repl(agent);
  }

  async #createAgent(
    settings: RunSettings,
    model: string,
    saved: SavedSession | undefined,
  ): Promise<Agent> {
    const approve = terminalApprover({
      write: (text) => writeAll(runtime.stderr, text),
      // A prompt read from stdin used it up; otherwise stdin may carry answers.
      interactive: runtime.stdin.isTerminal() || settings.prompt !== "",
      signal: () => this.#running?.signal,
      // Only where the transcript and the question share a screen.
      waiting: runtime.stdout.isTerminal() && runtime.stderr.isTerminal()
        ? (question) => this.#questions.waiting(question)
        : undefined,
      view: (request) =>
        approvalView(request, this.#calls.get(request.toolCallId), {
          workspace: settings.cwd,
          color: runtime.stderr.isTerminal() && !noColor(),
        }),
    });
    this.#extras = await prepareRun({
      cwd: settings.cwd,
      permissionMode: settings.permissionMode,
      permissions: settings.config.permissions,
      mcpServers: settings.config.mcpServers,
      approve,
      warn: (line) => writeAll(runtime.stderr, `${line}\n`),
    });
    const agent = createAgent({
      baseURL: settings.endpoint.baseURL,
      apiKey: settings.endpoint.apiKey,
      model,
      cwd: settings.cwd,
      permissionMode: settings.permissionMode,
      sandbox: settings.sandbox,
      sandboxNetwork: settings.sandboxNetwork,
      permissions: settings.config.permissions,
      projectInstructions: this.#extras.projectInstructions,
      extraTools: this.#extras.extraTools,
      approve,
      maxSteps: settings.maxSteps,
      contextTokens: settings.contextTokens,
      repoMapTokens: settings.repoMapTokens,
      visionModel: settings.visionModel,
      history: saved?.messages,
    });
    this.#extras.attach(agent);
    return agent;
  }

  async close(): Promise<void> {
    runtime.removeSignalListener("SIGINT", this.#onSigint);
    await this.#extras?.close();
    // A conversation never saved (the run ended first) leaves no lock file.
    if (this.#lock) await releaseSession(this.#lockedPath!, this.#lock);
  }

  // A refused file (not a session, unreadable, a folder) is left as it was,
  // with no lock file beside it: the lock is ours, so it can go.
  async #dropLock(): Promise<void> {
    if (!this.#lock) return;
    await runtime.remove(`${this.#lockedPath}.lock`).catch(() => {});
    this.#lock.close();
    this.#lock = undefined;
  }

  async #repl(agent: Agent): Promise<number> {
    const prompts = await interactivePrompt();
    const commands: CommandContext = {
      agent,
      write: (text) => writeAll(runtime.stderr, text),
      cancellable: (fn) => this.#cancellable(fn),
      reset: async () => {
        agent.reset();
        // A later --continue starts over too, titled by its next request.
        if (this.#saving) this.#saving.title = undefined;
        await this.#save(agent);
      },
      save: async () => {
        if (this.#saving) this.#saving.model = agent.model;
        await this.#save(agent);
      },
      spent: this.#spent,
    };
    while (true) {
      const read = await prompts.read({ leading: "\n" });
      if (read.type !== "prompt") {
        if (read.type === "eof") writeAll(runtime.stdout, "\n");
        return read.type === "quit" ? 130 : 0;
      }
      const outcome = await runCommand(read.text, commands);
      if (outcome === "exit") {
        writeAll(runtime.stdout, "\n");
        return 0;
      }
      if (outcome === "prompt") {
        await this.#runOnce(agent, read.text, { interactive: true });
      }
    }
  }

  /** Runs `fn` as a prompt's run: Ctrl-C aborts its signal. */
  async #cancellable<T>(fn: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.#running = controller;
    this.#interrupts = 0;
    try {
      return await fn(controller.signal);
    } finally {
      this.#running = undefined;
    }
  }

  async #runOnce(
    agent: Agent,
    prompt: string,
    { interactive = false } = {},
  ): Promise<number> {
    if (this.#saving) this.#saving.title ??= sessionTitle(prompt);
    const controller = new AbortController();
    this.#running = controller;
    this.#interrupts = 0;
    this.#calls.clear();
    const printer = new TranscriptPrinter(
      (text) => this.#out(text),
      {
        color: runtime.stdout.isTerminal() && !noColor(),
      },
    );
    try {
      let result: AgentResult | undefined;
      for await (
        const event of agent.stream(prompt, {
          signal: controller.signal,
          // At the terminal the conversation goes on: a cancelled prompt
          // stays in it, so the model knows what was asked.
          keepCancelled: interactive,
        })
      ) {
        this.#show(printer, event);
        if (event.type === "finish") result = event.result;
      }
      this.#spent.inputTokens += result?.usage.inputTokens ?? 0;
      this.#spent.outputTokens += result?.usage.outputTokens ?? 0;
      if (interactive && result && !this.#json) {
        const line = usageLine(result.usage, await agent.contextUse());
        writeAll(
          runtime.stderr,
          `${
            runtime.stderr.isTerminal() && !noColor()
              ? `\x1b[2m${line}\x1b[0m`
              : line
          }\n`,
        );
      }
      if (result?.finishReason === "tool-calls" && !interactive) {
        // The step cap stopped the run before the model was done.
        writeAll(
          runtime.stderr,
          `fello: stopped at the step limit (${
            plural(result.steps, "model call")
          }, --max-steps); the answer may be unfinished\n`,
        );
        return 3;
      }
      return 0;
    } catch (error) {
      // The reader of stdout went away (`| head`): stop quietly, as a
      // program killed by SIGPIPE would.
      if (this.#stdoutClosed) return 141;
      if (controller.signal.aborted) {
        this.#emitError("cancelled", undefined);
        writeAll(runtime.stderr, "\nfello: cancelled\n");
        return 130;
      }
      return this.#failed(error);
    } finally {
      this.#running = undefined;
      await this.#save(agent);
    }
  }

  // A failed save costs the saved conversation, not this run: say so, go on.
  async #save(agent: Agent): Promise<void> {
    if (!this.#saving) return;
    const { path, ...session } = this.#saving;
    try {
      await saveSession(path, { ...session, messages: agent.history });
    } catch (error) {
      writeAll(
        runtime.stderr,
        `fello: could not save the conversation to "${path}": ${
          (error as Error).message
        }\n`,
      );
    }
  }

  #show(printer: TranscriptPrinter, event: AgentEvent): void {
    this.#calls.record(event);
    if (this.#json) this.#out(`${JSON.stringify(event)}\n`);
    else if (event.type !== "retry") printer.handle(event);
    // Retries are news for a person waiting, noise for a script: the final
    // error line already says how many attempts were made.
    else if (runtime.stderr.isTerminal()) {
      writeAll(runtime.stderr, `${describeRetry(event)}\n`);
    }
  }

  /** Reports a failure in one line; an unusable endpoint exits with 2. */
  #failed(error: unknown): number {
    if (error instanceof EndpointError) {
      this.#emitError(error.message, error.status);
      writeAll(runtime.stderr, `fello: ${describeEndpointFailure(error)}\n`);
      return 2;
    }
    const message = error instanceof Error ? error.message : String(error);
    this.#emitError(message, undefined);
    writeAll(runtime.stderr, `fello: ${message}\n`);
    return 1;
  }

  #emitError(message: string, status: number | undefined): void {
    if (!this.#json) return;
    const event = {
      type: "error",
      message,
      ...(status === undefined ? {} : { status }),
    };
    this.#out(`${JSON.stringify(event)}\n`);
  }

  // Writes to stdout; once its reader has gone, writes nothing more and
  // stops the run.
  #out(text: string): void {
    if (this.#stdoutClosed) return;
    try {
      this.#questions.print(text, (part) => writeAll(runtime.stdout, part));
    } catch (error) {
      if (!isError(error, "brokenPipe")) throw error;
      this.#stdoutClosed = true;
      this.#running?.abort(new DOMException("stdout closed", "AbortError"));
    }
  }

  #interrupt(): void {
    this.#interrupts++;
    if (!this.#running || this.#interrupts > 1) {
      writeAll(runtime.stderr, "\n");
      runtime.exit(130);
    }
    writeAll(runtime.stderr, "\nfello: cancelling (Ctrl-C again to quit)\n");
    this.#running.abort(
      new DOMException("Cancelled with Ctrl-C", "AbortError"),
    );
  }
}

function usageError(message: string, json = false): number {
  if (json) {
    writeAll(
      runtime.stdout,
      `${
        JSON.stringify({ type: "error", message: `fello run: ${message}` })
      }\n`,
    );
  }
  writeAll(runtime.stderr, `fello run: ${message}\n`);
  return 2;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

function noColor(): boolean {
  try {
    return runtime.env.get("NO_COLOR") !== undefined;
  } catch {
    return false;
  }
}
