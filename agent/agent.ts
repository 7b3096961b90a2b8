// createAgent: a conversation with an OpenAI-compatible model that uses every
// tool of createTools, plus ImageAnalysis, Subagent and any extra tools. Runs
// stream events through a channel so Plan updates and retry notices arrive in
// order with the model's own events.
import type { PlanEntry } from "../tools/plan/plan.ts";
import { createTools, type Tools } from "../tools/create_tools.ts";
import { contextOf } from "../tools/context_of.ts";
import { createRg, ripgrepAvailable } from "../tools/search/rg.ts";
import type {
  PermissionAnswer,
  PermissionMode,
  PermissionRequest,
  Tool,
} from "../tools/types.ts";
import type { ChatModel, Conversation, ModelEndpoint } from "./_ai_sdk.ts";
import { Channel } from "./_channel.ts";
import { createEndpointFetch } from "./endpoint_fetch.ts";
import { historyProblem } from "./_history.ts";
import { MIN_MAP_TOKENS, repoMap } from "../tools/repo_map/repo_map.ts";
import { buildInstructions } from "./_instructions.ts";
import {
  findProjectInstructions,
  projectInstructionsText,
} from "./project_instructions.ts";
import { childToolCallId, currentToolCallId } from "./tool_call_scope.ts";
import { createImageAnalysis } from "./image_analysis.ts";
import {
  createSubagent,
  type SubagentInput,
  type SubagentResult,
  type SubagentTask,
} from "./subagent.ts";
import type {
  Agent,
  AgentContextSummarizedEvent,
  AgentContextUse,
  AgentEvent,
  AgentMessage,
  AgentOptions,
  AgentResult,
  RunOptions,
} from "./types.ts";
import { isError, runtime, runtimeError } from "../internal/runtime/runtime.ts";
import type { FileInfo } from "../internal/runtime/runtime.ts";

/**
 * Where an agent sends requests when no `baseURL` is given: a local Ollama
 * server's OpenAI-compatible API.
 *
 * A constant: needs no permission (an agent using it requires `--allow-net`).
 *
 * @example Fall back to the default endpoint
 * ```ts
 * import { DEFAULT_BASE_URL } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const baseURL = Deno.env.get("FELLO_BASE_URL") ?? DEFAULT_BASE_URL;
 * assert.match(baseURL, /^https?:\/\//);
 * ```
 */
export const DEFAULT_BASE_URL: string = "http://127.0.0.1:11434/v1";
/** Model calls per run when `maxSteps` is not given. */
export const DEFAULT_MAX_STEPS: number = 50;
/** Model calls per Subagent task when `subagentMaxSteps` is not given. */
export const DEFAULT_SUBAGENT_MAX_STEPS: number = 25;
/** The context budget, in tokens, when `contextTokens` is not given. */
export const DEFAULT_CONTEXT_TOKENS: number = 100_000;

type AnyTool = Tool<unknown, unknown>;

/**
 * Creates an agent: a conversation with a model behind any OpenAI-compatible
 * Chat Completions endpoint, using the built-in tools (ReadFile, WriteFile,
 * EditFile, Shell, Plan, file_outline, search, Subagent, ImageAnalysis) under
 * the given permission mode. A second run continues the conversation.
 *
 * Requires `--allow-net` for the endpoint, `--allow-sys=hostname` (the AI SDK
 * asks at load time), and the read, write and run permissions the tools use.
 * Without `--allow-net` a run fails at once with a `Deno.errors.NotCapable`
 * naming the flag and the host. A bad `maxSteps`, `subagentMaxSteps`,
 * `contextTokens`, `maxRetries` or `requestTimeoutMs` throws a RangeError here.
 *
 * @example Ask a local Ollama model about the workspace
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // Without `fetch`, requests go to `baseURL`; here a stand-in answers instead.
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "1", type: "function", function: { name: "ReadFile", arguments: '{"path":"deno.json"}' } }] },
 *   { content: "It configures the package @fello/agent." },
 *   { content: "test, bench and ok." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({
 *   baseURL: "http://127.0.0.1:11434/v1",
 *   model: "qwen3",
 *   cwd: Deno.cwd(),
 *   permissionMode: "readOnly",
 *   fetch,
 * });
 * const result = await agent.run("What does deno.json configure?");
 * assert.equal(result.toolCalls[0].toolName, "ReadFile");
 * assert.match(result.text, /@fello\/agent/);
 * let text = "";
 * for await (const event of agent.stream("And which tasks does it define?")) {
 *   if (event.type === "text-delta") text += event.text;
 * }
 * assert.equal(text, "test, bench and ok.");
 * ```
 *
 * @param options The endpoint, model, workspace, permissions and limits.
 * @returns The agent.
 */
export function createAgent(options: AgentOptions): Agent {
  checkOptions(options);
  return new AgentSession(options);
}

type Sdk = typeof import("./_ai_sdk.ts");
let sdk: Promise<Sdk> | undefined;

/**
 * The AI SDK loads on the first run, not at import: importing the library for
 * its tools (or the CLI for `outline`) stays fast, needs no
 * `--allow-sys=hostname` and downloads none of its packages.
 */
function loadSdk(): Promise<Sdk> {
  sdk ??= import("./_ai_sdk.ts").catch((error) => {
    sdk = undefined;
    if (!isError(error, "notCapable")) throw error;
    throw runtimeError(
      "notCapable",
      `Cannot load the agent's model client: ${error.message} (the AI SDK reads the host name when it loads; grant it with --allow-sys=hostname)`,
      { cause: error },
    );
  });
  return sdk;
}

class AgentSession implements Agent {
  readonly tools: ReadonlyMap<string, AnyTool>;
  #options: AgentOptions;
  #builtins: Tools;
  /** The main and the child instructions, with the project's files read once. */
  #instructions: Promise<{ main: string; child: string }> | undefined;
  #models: Promise<{ chat: ChatModel; vision: ChatModel }> | undefined;
  #conversation: Conversation | undefined;
  /** The conversation to start from, until the first run creates #conversation. */
  #history: AgentMessage[];
  #channel: Channel<AgentEvent> | undefined;
  /** Tool calls whose `tool-call` event the consumer has handled, and who waits for one. */
  #shown = new Set<string>();
  #waiting = new Map<string, () => void>();

  constructor(options: AgentOptions) {
    this.#options = options;
    // A copy: the caller's array may change before the first run.
    this.#history = structuredClone([...options.history ?? []]);
    const builtins = createTools({
      cwd: options.cwd,
      permissionMode: options.permissionMode,
      sandbox: options.sandbox,
      sandboxNetwork: options.sandboxNetwork,
      permissions: options.permissions,
      approve: options.approve && ((request) => this.#approve(request)),
      onPlan: (entries) => {
        options.onPlan?.(entries);
        this.#channel?.push({
          type: "plan",
          entries: structuredClone(entries),
        });
      },
      backend: options.backend,
    });
    this.#builtins = builtins;
    const imageAnalysis = createImageAnalysis(
      contextOf(builtins)!,
      async (question) => {
        const [{ askAboutImage }, { vision }] = await Promise.all([
          loadSdk(),
          this.#chatModels(),
        ]);
        return await askAboutImage(vision, question);
      },
    );
    // Children share these instances: the same workspace, permission gate
    // (with its "always" answers) and backends; they get no Plan and no Subagent.
    // With ripgrep installed, the model may also run it with its own flags.
    const rg = ripgrepAvailable()
      ? [createRg(contextOf(builtins)!) as AnyTool]
      : [];
    const shared = [
      ...toolsOf(builtins),
      ...rg,
      imageAnalysis,
      ...(options.extraTools ?? []),
    ];
    const subagent = this.#subagentTool(shared);
    this.tools = byName([...shared, subagent as AnyTool]);
  }

  /**
   * The instructions of the main agent and of a Subagent child: the project's
   * AGENTS.md files are read at the first run (not when the agent is made),
   * and count against the context budget (a quarter of it at most).
   */
  #instructionsOnce(): Promise<{ main: string; child: string }> {
    this.#instructions ??= (async () => {
      const given = this.#options.projectInstructions;
      const files = given === false
        ? []
        : given ?? await findProjectInstructions(this.#builtins.cwd);
      const project = projectInstructionsText(
        files,
        Math.floor(this.#contextTokens() / 4),
      );
      const extra = [project, this.#options.instructions ?? ""]
        .filter((part) => part.trim() !== "").join("\n\n");
      const workspace = this.#builtins.cwd;
      return {
        main: buildInstructions({ workspace, extra }),
        child: buildInstructions({ workspace, extra, child: true }),
      };
    })();
    return this.#instructions;
  }

  /** Subagent, whose children run with `tools` minus Plan. */
  #subagentTool(tools: AnyTool[]): Tool<SubagentInput, SubagentResult> {
    const child = {
      tools: tools.filter((item) => item.name !== "Plan"),
      maxSteps: this.#options.subagentMaxSteps ?? DEFAULT_SUBAGENT_MAX_STEPS,
      contextTokens: this.#contextTokens(),
    };
    return createSubagent(async (task, options) => {
      const [{ chat }, instructions] = await Promise.all([
        this.#chatModels(),
        this.#instructionsOnce(),
      ]);
      return await this.#runChild(
        { ...child, model: chat, instructions: instructions.child },
        task,
        options,
      );
    });
  }

  get plan(): readonly PlanEntry[] {
    return this.#builtins.plan;
  }

  get permissionMode(): PermissionMode {
    return this.#builtins.permissionMode;
  }

  set permissionMode(mode: PermissionMode) {
    this.#builtins.permissionMode = mode;
  }

  get model(): string {
    return this.#options.model;
  }

  set model(model: string) {
    if (typeof model !== "string" || model.trim() === "") {
      throw new TypeError(
        `Cannot switch the model: give a model name, not ${
          JSON.stringify(model)
        }`,
      );
    }
    if (model === this.#options.model) return;
    this.#options = { ...this.#options, model };
    // Made again at the next request; the conversation takes it then.
    this.#models = undefined;
  }

  async compact(
    options: RunOptions = {},
  ): Promise<AgentContextSummarizedEvent | undefined> {
    if (this.#channel) {
      throw new Error(
        "Cannot compact the conversation while a run goes on; wait for it to finish",
      );
    }
    const conversation = await this.#conversationOnce();
    conversation.model = (await this.#chatModels()).chat;
    return await conversation.compact(options.signal);
  }

  async contextUse(): Promise<AgentContextUse> {
    return (await this.#conversationOnce()).contextUse;
  }

  async run(prompt: string, options: RunOptions = {}): Promise<AgentResult> {
    let result: AgentResult | undefined;
    for await (const event of this.stream(prompt, options)) {
      if (event.type === "finish") result = event.result;
    }
    return result!;
  }

  async *stream(
    prompt: string,
    options: RunOptions = {},
  ): AsyncGenerator<AgentEvent> {
    if (typeof prompt !== "string" || prompt.trim() === "") {
      throw new TypeError("Cannot run the agent: the prompt is empty");
    }
    if (this.#channel) {
      throw new Error(
        "Cannot start a run: this agent is already running one; wait for it to finish or create another agent",
      );
    }
    this.#shown.clear();
    const channel = new Channel<AgentEvent>((event) => {
      if (event.type === "tool-call") this.#markShown(event.toolCallId);
      if (event.type === "subagent" && event.event.type === "tool-call") {
        this.#markShown(
          childToolCallId(event.toolCallId, event.task, event.event.toolCallId),
        );
      }
    });
    this.#channel = channel;
    // Our own controller also stops the run when the consumer stops iterating.
    const controller = new AbortController();
    const onAbort = () => controller.abort(options.signal?.reason);
    if (options.signal?.aborted) onAbort();
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const pump = this.#pump(prompt, controller.signal, channel, {
      keepCancelled: options.keepCancelled === true,
    });
    try {
      yield* channel;
    } finally {
      controller.abort(
        new DOMException("The consumer stopped reading the run", "AbortError"),
      );
      await pump;
      options.signal?.removeEventListener("abort", onAbort);
      this.#channel = undefined;
    }
  }

  reset(): void {
    this.#history = [];
    this.#conversation?.reset();
  }

  get history(): AgentMessage[] {
    return structuredClone([...this.#conversation?.history ?? this.#history]);
  }

  /**
   * Passes a permission request on with the id of the asking call, once the
   * consumer has handled that call's `tool-call` event: a protocol layer then
   * announces a call before it asks about it. Waits 2 s at most.
   */
  async #approve(request: PermissionRequest): Promise<PermissionAnswer> {
    const toolCallId = currentToolCallId();
    if (toolCallId === undefined) return await this.#options.approve!(request);
    if (!this.#shown.has(toolCallId) && this.#channel) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 2_000);
        this.#waiting.set(toolCallId, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      this.#waiting.delete(toolCallId);
    }
    return await this.#options.approve!({ ...request, toolCallId });
  }

  /**
   * Runs one Subagent task in a fresh conversation, passing its tool events
   * on as `subagent` events, and returns its final text.
   */
  async #runChild(
    setup: {
      model: ChatModel;
      tools: AnyTool[];
      instructions: string;
      maxSteps: number;
      contextTokens: number;
    },
    task: SubagentTask,
    options: { signal: AbortSignal; index: number },
  ): Promise<{ text: string; steps: number }> {
    // Called from inside the Subagent call, so this is that call's id.
    const outerToolCallId = currentToolCallId();
    const { Conversation } = await loadSdk();
    const conversation = new Conversation({
      ...setup,
      childOf: outerToolCallId === undefined
        ? undefined
        : { toolCallId: outerToolCallId, task: options.index },
    });
    let result: AgentResult | undefined;
    for await (const event of conversation.run(task.prompt, options.signal)) {
      if (event.type === "finish") result = event.result;
      const isToolEvent = event.type === "tool-call" ||
        event.type === "tool-result" ||
        event.type === "tool-error";
      if (outerToolCallId === undefined) continue;
      const child = {
        toolCallId: outerToolCallId,
        task: options.index,
        description: task.description,
      };
      if (isToolEvent) {
        this.#channel?.push({ type: "subagent", ...child, event });
      }
      if (event.type === "context-summarized") {
        this.#channel?.push({
          ...event,
          type: "subagent-context-summarized",
          ...child,
        });
      }
    }
    const steps = result?.steps ?? 0;
    let text = result?.text ?? "";
    if (result?.finishReason === "tool-calls") {
      // Tell the parent the report may be partial, so it can follow up.
      text =
        `${text}\n(the helper hit its limit of ${steps} model calls before finishing)`
          .trim();
    }
    return { text, steps };
  }

  #markShown(toolCallId: string): void {
    this.#shown.add(toolCallId);
    this.#waiting.get(toolCallId)?.();
  }

  async #pump(
    prompt: string,
    signal: AbortSignal,
    channel: Channel<AgentEvent>,
    { keepCancelled }: { keepCancelled: boolean },
  ): Promise<void> {
    try {
      const conversation = await this.#conversationOnce();
      conversation.model = (await this.#chatModels()).chat;
      for await (
        const event of conversation.run(prompt, signal, { keepCancelled })
      ) {
        channel.push(event);
      }
      channel.close();
    } catch (error) {
      channel.fail(error);
    }
  }

  async #conversationOnce(): Promise<Conversation> {
    if (this.#conversation) return this.#conversation;
    const [{ Conversation }, { chat }, instructions] = await Promise.all([
      loadSdk(),
      this.#chatModels(),
      this.#instructionsOnce(),
    ]);
    this.#conversation ??= new Conversation({
      model: chat,
      tools: this.tools.values(),
      instructions: await this.#withRepoMap(instructions.main),
      maxSteps: this.#options.maxSteps ?? DEFAULT_MAX_STEPS,
      contextTokens: this.#contextTokens(),
      history: this.#history,
    });
    return this.#conversation;
  }

  /** The instructions with a map of the workspace, when `repoMapTokens` asks for one. */
  async #withRepoMap(instructions: string): Promise<string> {
    const tokens = this.#options.repoMapTokens ?? 0;
    if (tokens <= 0) return instructions;
    try {
      const map = await repoMap(this.#builtins.cwd, {
        tokens: Math.max(tokens, MIN_MAP_TOKENS),
      });
      return `${instructions}\n\nA map of the repository (its most used definitions, with line ranges; call repo_map for another focus):\n${map}`;
    } catch {
      // A workspace that cannot be mapped gets no map, not a failed run.
      return instructions;
    }
  }

  #contextTokens(): number {
    return this.#options.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  }

  #chatModels(): Promise<{ chat: ChatModel; vision: ChatModel }> {
    this.#models ??= loadSdk().then(({ ChatModel }) => {
      const options = this.#options;
      const chat = new ChatModel(this.#endpoint(), options.model);
      const vision =
        options.visionModel && options.visionModel !== options.model
          ? new ChatModel(this.#endpoint(), options.visionModel)
          : chat;
      return { chat, vision };
    });
    return this.#models;
  }

  #endpoint(): ModelEndpoint {
    const options = this.#options;
    return {
      baseURL: options.baseURL ?? DEFAULT_BASE_URL,
      apiKey: options.apiKey,
      fetch: createEndpointFetch({
        fetch: options.fetch,
        maxRetries: options.maxRetries,
        requestTimeoutMs: options.requestTimeoutMs,
        onRetry: (notice) => this.#channel?.push({ type: "retry", ...notice }),
      }),
    };
  }
}

/** Every Tool-shaped value of a createTools result, so new tools register themselves. */
function toolsOf(tools: object): AnyTool[] {
  return Object.values(tools).filter(isTool);
}

function isTool(value: unknown): value is AnyTool {
  if (typeof value !== "object" || value === null) return false;
  const candidate = value as Partial<AnyTool>;
  return typeof candidate.name === "string" &&
    typeof candidate.execute === "function" &&
    typeof candidate.toModelText === "function" &&
    typeof candidate.inputSchema === "object";
}

function byName(tools: AnyTool[]): Map<string, AnyTool> {
  const map = new Map<string, AnyTool>();
  for (const item of tools) {
    if (map.has(item.name)) {
      throw new Error(
        `Cannot create the agent: two tools are named "${item.name}"; give extra tools unique names (e.g. prefix them with their server's name)`,
      );
    }
    map.set(item.name, item);
  }
  return map;
}

function checkOptions(options: AgentOptions): void {
  if (typeof options?.model !== "string" || options.model.trim() === "") {
    throw new TypeError(
      'Cannot create the agent: "model" is required, e.g. createAgent({ model: "qwen3", ... })',
    );
  }
  for (const [key, least] of COUNTS) {
    const value = options[key];
    if (value !== undefined && (!Number.isInteger(value) || value < least)) {
      throw new RangeError(
        `Cannot create the agent: "${key}" must be a whole number of at least ${least}, not ${value}`,
      );
    }
  }
  checkRequestTimeout(options.requestTimeoutMs);
  const problem = options.history && historyProblem(options.history);
  if (problem) {
    throw new TypeError(
      `Cannot create the agent: "history" is not a conversation to go on with: ${problem}; give what an agent's history gave`,
    );
  }
  if (options.baseURL !== undefined && !URL.canParse(options.baseURL)) {
    throw new TypeError(
      `Cannot create the agent: "baseURL" is not a URL: "${options.baseURL}" (e.g. "http://127.0.0.1:11434/v1")`,
    );
  }
  if (options.cwd !== undefined) checkWorkspace(options.cwd);
}

/** The longest delay setTimeout keeps; a longer one fires at once. */
const MAX_TIMER_MS = 2_147_483_647;

/** The options that count something, and the least each may be. */
const COUNTS = [
  ["maxSteps", 1],
  ["subagentMaxSteps", 1],
  ["contextTokens", 1],
  ["maxRetries", 0],
] as const;

// Checked here, not at the first request: a timeout of 0, below 0 or NaN would
// fail every request as "no answer within 0 s" after the retries, and one past
// MAX_TIMER_MS at once.
function checkRequestTimeout(requestTimeoutMs: number | undefined): void {
  if (
    requestTimeoutMs !== undefined &&
    (!Number.isInteger(requestTimeoutMs) || requestTimeoutMs < 1 ||
      requestTimeoutMs > MAX_TIMER_MS)
  ) {
    throw new RangeError(
      `Cannot create the agent: "requestTimeoutMs" must be a whole number of milliseconds from 1 to ${MAX_TIMER_MS}, not ${requestTimeoutMs}`,
    );
  }
}

// A workspace that is missing would make every tool blame the model's paths.
// Without read access it cannot be checked here; the tools say so later.
function checkWorkspace(cwd: string): void {
  if (
    runtime.permissions.querySync({ name: "read", path: cwd }).state !==
      "granted"
  ) {
    return;
  }
  let info: FileInfo;
  try {
    info = runtime.statSync(cwd);
  } catch (error) {
    if (!isError(error, "notFound")) return;
    throw new TypeError(
      `Cannot create the agent: the workspace "${cwd}" does not exist; pass an existing folder as "cwd"`,
    );
  }
  if (!info.isDirectory) {
    throw new TypeError(
      `Cannot create the agent: the workspace "${cwd}" is a file, not a folder; pass a folder as "cwd"`,
    );
  }
}
