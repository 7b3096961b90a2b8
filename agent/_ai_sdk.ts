// The only file that imports the AI SDK. It turns project Tools into SDK tools,
// runs the multi-step loop with streamText and maps its stream parts to
// AgentEvents, keeps the conversation's messages, and asks a vision model
// about an image. Nothing SDK-typed leaves this file.
import type { LanguageModel, ModelMessage, ToolSet } from "ai";
import { asToolError } from "../tools/define.ts";
import type { Tool, ToolKind } from "../tools/types.ts";
import { EndpointError } from "./endpoint_error.ts";
import { leadingThinkMiddleware } from "./_leading_think.ts";
import {
  CHARS_PER_TOKEN,
  ContextBudget,
  estimateTokens,
} from "./context_budget.ts";
import {
  chooseCut,
  cleanSummary,
  clipSummary,
  SUMMARIZER_INSTRUCTIONS,
  summaryRequest,
  transcript,
  withSummary,
} from "./context_summary.ts";
import { childToolCallId, runInToolCall } from "./tool_call_scope.ts";
import {
  cutLongOutputs,
  cutOutput,
  OUTPUT_FLOOR_TOKENS,
  outputTokenCap,
  shareUnansweredOutputs,
} from "./output_cut.ts";
import type {
  AgentContextSummarizedEvent,
  AgentContextUse,
  AgentEvent,
  AgentFinishReason,
  AgentMessage,
  AgentResult,
  AgentToolCallRecord,
  AgentUsage,
} from "./types.ts";
import { isError } from "../internal/runtime/runtime.ts";
import { importPackage } from "../internal/lazy_import.ts";

// By computed specifiers, so that Deno fetches the SDK's packages only when a
// run first loads this file, not whenever the library or the CLI starts.
const { isStepCount, jsonSchema, streamText, tool, wrapLanguageModel } =
  await importPackage<typeof import("ai")>("ai");
const { createOpenAICompatible } = await importPackage<
  typeof import("@ai-sdk/openai-compatible")
>("@ai-sdk/openai-compatible");

/** Where model requests go; `fetch` already carries the retries and timeouts. */
export interface ModelEndpoint {
  baseURL: string;
  apiKey?: string;
  fetch: typeof fetch;
}

/** A chat model behind an endpoint, opaque outside this file. */
export class ChatModel {
  /** The SDK model; only this file looks inside. */
  readonly languageModel: LanguageModel;
  /** The model name. */
  readonly modelId: string;
  /** Where its answers come from, for errors. */
  readonly url: string;

  constructor(endpoint: ModelEndpoint, modelId: string) {
    const baseURL = endpoint.baseURL.replace(/\/+$/, "");
    const provider = createOpenAICompatible({
      name: "fello",
      baseURL,
      apiKey: endpoint.apiKey || undefined,
      fetch: endpoint.fetch,
      includeUsage: true,
    });
    this.languageModel = wrapLanguageModel({
      model: provider.chatModel(modelId),
      middleware: leadingThinkMiddleware,
    });
    this.modelId = modelId;
    this.url = `${baseURL}/chat/completions`;
  }
}

/** What tool outputs carry through the SDK: the result and the text the model sees. */
interface Envelope {
  output: unknown;
  text: string;
}

/** A conversation with a model and a set of tools; one run at a time. */
export class Conversation {
  #model: ChatModel;
  #tools: ToolSet;
  #kinds = new Map<string, ToolKind>();
  #instructions: string;
  #maxSteps: number;
  #budget: ContextBudget;
  #newBudget: () => ContextBudget;
  /** The most one tool output may take, in tokens. */
  #outputCap: number;
  /** The most one reply (text and reasoning) may take, in tokens. */
  #replyCap: number;
  /** Counts resets, so a run that a reset overtook does not write its steps back. */
  #resets = 0;
  #messages: ModelMessage[] = [];

  constructor(options: {
    model: ChatModel;
    tools: Iterable<Tool<unknown, unknown>>;
    instructions: string;
    maxSteps: number;
    /** The request size at which old tool outputs are cleared, in tokens. */
    contextTokens: number;
    /** For a Subagent child: the Subagent call and task its calls' ids derive from. */
    childOf?: { toolCallId: string; task: number };
    /** The conversation to go on with (checked by the caller). */
    history?: readonly AgentMessage[];
  }) {
    this.#model = options.model;
    this.#instructions = options.instructions;
    this.#maxSteps = options.maxSteps;
    const items = [...options.tools];
    let fixedTokens = estimateTokens(options.instructions);
    for (const item of items) {
      this.#kinds.set(item.name, item.kind);
      fixedTokens += estimateTokens(item.description) +
        estimateTokens(JSON.stringify(item.inputSchema));
    }
    this.#outputCap = outputTokenCap(options.contextTokens, fixedTokens);
    this.#replyCap = Math.max(options.contextTokens, OUTPUT_FLOOR_TOKENS);
    const tools: ToolSet = {};
    for (const item of items) {
      tools[item.name] = toSdkTool(item, {
        childOf: options.childOf,
        outputCap: this.#outputCap,
      });
    }
    this.#tools = tools;
    this.#newBudget = () =>
      new ContextBudget(options.contextTokens, fixedTokens);
    this.#budget = this.#newBudget();
    this.#messages = [...options.history ?? []] as ModelMessage[];
  }

  /** The conversation as the next run sends it. */
  get history(): readonly AgentMessage[] {
    return this.#messages as AgentMessage[];
  }

  /** Switches the model later requests go to. */
  set model(model: ChatModel) {
    this.#model = model;
  }

  /** The estimate of the next request (the prompt aside) against the budget. */
  get contextUse(): AgentContextUse {
    return {
      tokens: Math.round(this.#budget.estimate(this.#messages)),
      limit: this.#budget.limit,
    };
  }

  /**
   * Replaces the conversation before its last prompt (all of it, when it
   * holds one prompt) by the model's summary of it, now; the summary's
   * event, or undefined when there is nothing to summarize or the
   * conversation changed meanwhile. Throws when the summary fails.
   */
  async compact(
    signal?: AbortSignal,
  ): Promise<AgentContextSummarizedEvent | undefined> {
    const messages = this.#messages;
    const resets = this.#resets;
    const budget = this.#budget;
    const lastPrompt = messages.findLastIndex((m) => m.role === "user");
    // One prompt's turn is summarized whole, and answered in place.
    const cut = lastPrompt > 0 ? lastPrompt : messages.length;
    if (cut === 0) return undefined;
    const summaryTokens = Math.min(
      MAX_SUMMARY_TOKENS,
      Math.floor(budget.limit / 10),
    );
    const answer = await this.#summaryAnswer(messages.slice(0, cut), {
      limit: budget.limit,
      summaryTokens,
      signal,
    });
    if (!answer.text.trim()) {
      throw new Error(
        "Cannot compact the conversation: the model's summary was empty; try again or go on as it is",
      );
    }
    if (resets !== this.#resets || messages !== this.#messages) {
      return undefined;
    }
    const summary = cleanSummary(clipSummary(answer.text, summaryTokens));
    const kept = messages.slice(cut);
    const summarized = kept.length > 0 ? withSummary(summary, kept) : [
      ...withSummary<ModelMessage>(summary, []),
      { role: "assistant", content: COMPACTED_REPLY } as ModelMessage,
    ];
    budget.forget(messages.slice(0, cut));
    this.#messages = summarized;
    return {
      type: "context-summarized",
      messages: cut,
      tokensBefore: Math.round(budget.estimate(messages)),
      tokensAfter: Math.round(budget.estimate(summarized)),
      usage: answer.usage,
      summary,
    };
  }

  /** Forgets the messages so far. */
  reset(): void {
    this.#messages = [];
    // A new budget: a run still going keeps the old one, and its later steps
    // cannot clear calls of the new conversation.
    this.#budget = this.#newBudget();
    this.#resets++;
  }

  /**
   * Sends `prompt` and runs tool calls until the model answers or the step cap
   * is hit, yielding events; the last one is `finish`. Completed steps stay in
   * the conversation even when the run fails or is aborted later.
   */
  async *run(
    prompt: string,
    signal?: AbortSignal,
    options: { keepCancelled?: boolean } = {},
  ): AsyncGenerator<AgentEvent> {
    const user: ModelMessage = { role: "user", content: prompt };
    const resets = this.#resets;
    const budget = this.#budget;
    const clearedBefore = budget.clearedCalls;
    /** What the current step sent, and the conversation after the last completed step. */
    let sent: ModelMessage[] = [];
    let kept: ModelMessage[] | undefined;
    const fitting: Fitting = {
      budget,
      prompt: user,
      notices: [],
      summaryFailed: false,
      signal,
    };
    // Stops a reply that never ends (a local model repeating itself): no
    // max_tokens is sent, for reasoning models' sake.
    const enough = new AbortController();
    const result = streamText({
      model: this.#model.languageModel,
      instructions: this.#instructions,
      messages: [...this.#messages, user],
      tools: this.#tools,
      stopWhen: isStepCount(this.#maxSteps),
      // The SDK carries what a step sent into the next step's messages.
      prepareStep: async ({ messages }) => {
        sent = await this.#fit(messages, fitting);
        return sent === messages ? undefined : { messages: sent };
      },
      maxRetries: 0, // the endpoint fetch retries, within its own time budget
      abortSignal: signal
        ? AbortSignal.any([signal, enough.signal])
        : enough.signal,
      onError: () => {}, // errors end the run through the stream; the SDK would also log them
      onStepEnd: (step) => {
        // An answer that failed midway is no completed step: kept, it would
        // leave the prompt (and a partial answer) in the conversation.
        if (step.finishReason === "error") return;
        // step.response.messages holds this step's messages only.
        kept = [...sent, ...step.response.messages as ModelMessage[]];
      },
    });
    const state = new RunState();
    try {
      for await (const part of result.stream) {
        yield* fitting.notices.splice(0);
        const event = this.#toEvent(part as StreamPart, state);
        if (event) yield event;
        if (state.stepTokens > this.#replyCap && !enough.signal.aborted) {
          enough.abort(new Error("the reply is longer than the context holds"));
        }
      }
      if (enough.signal.aborted && !signal?.aborted) {
        yield this.#cutStep(state);
        kept = withReply(sent, state.stepText) ?? kept;
      }
    } catch (error) {
      if (enough.signal.aborted && !signal?.aborted) {
        // The cut reply's request, cancelled: the step ends as cut.
        yield this.#cutStep(state);
        kept = withReply(sent, state.stepText) ?? kept;
      } else if (signal?.aborted || !isSdkError(error)) {
        throw error;
      } else {
        // The SDK throws some failures of the answer (a body cut short)
        // rather than streaming them as an error part.
        state.error ??= error;
      }
    } finally {
      if (resets === this.#resets) {
        // Cleared outputs and summaries leave memory too, not only the
        // requests. A run that completed no step leaves no trace, so trying
        // the same prompt again does not send it twice.
        if (signal?.aborted && options.keepCancelled) {
          this.#messages = [
            ...budget.fit(kept ?? [...this.#messages, user]),
            { role: "assistant", content: CANCELLED_REPLY },
          ];
        } else if (kept) this.#messages = budget.fit(kept);
        else budget.restore(clearedBefore);
      }
    }
    if (state.error !== undefined) {
      throw endpointErrorOf(state.error, this.#model.url);
    }
    if (signal?.aborted) throw signal.reason;
    yield* fitting.notices.splice(0);
    yield { type: "finish", result: state.result() };
  }

  // The messages to send: old tool calls cleared (ContextBudget), and when
  // that is not enough, the oldest messages replaced by a summary.
  async #fit(
    messages: ModelMessage[],
    fitting: Fitting,
  ): Promise<ModelMessage[]> {
    const { budget } = fitting;
    const fitted = budget.fit(
      shareUnansweredOutputs(
        cutLongOutputs(messages, this.#outputCap),
        this.#outputCap,
      ),
    );
    if (budget.estimate(fitted) <= budget.limit || fitting.summaryFailed) {
      return fitted;
    }
    return await this.#summarized(fitted, fitting) ?? fitted;
  }

  // The messages with the oldest ones replaced by the model's summary of
  // them: down to half the budget, or else (a long prompt or output at the
  // end) as far as the last turn or step, if that fits. Undefined when no cut
  // helps (instructions over budget, a huge last message) or the summary
  // fails; the request then goes as it is.
  async #summarized(
    messages: ModelMessage[],
    fitting: Fitting,
  ): Promise<ModelMessage[] | undefined> {
    const { budget, notices, signal } = fitting;
    const tokens = budget.messageTokens(messages);
    const summaryTokens = Math.min(
      MAX_SUMMARY_TOKENS,
      Math.floor(budget.limit / 10),
    );
    const { cut, request } = chooseCut(messages, {
      tokens,
      limit: budget.limit,
      fixedTokens: budget.fixedTokens,
      summaryTokens,
      prompt: fitting.prompt,
      promptTokens: budget.estimate([fitting.prompt]) - budget.fixedTokens,
    }) ?? {};
    if (cut === undefined) return undefined;
    let answer: { text: string; usage: AgentUsage } | undefined;
    try {
      answer = await this.#summaryAnswer(messages.slice(0, cut), {
        limit: budget.limit,
        summaryTokens,
        signal,
      });
    } catch (error) {
      if (signal?.aborted) throw error;
    }
    if (!answer?.text.trim()) {
      // It would fail again (an endpoint refusing the transcript, a model
      // that answers nothing): not again in this run, rather than each step.
      fitting.summaryFailed = true;
      return undefined;
    }
    const summary = cleanSummary(clipSummary(answer.text, summaryTokens));
    const summarized = withSummary(summary, messages.slice(cut), request);
    budget.forget(messages.slice(0, cut));
    notices.push({
      type: "context-summarized",
      messages: cut,
      tokensBefore: Math.round(budget.estimate(messages)),
      tokensAfter: Math.round(budget.estimate(summarized)),
      usage: answer.usage,
      summary,
    });
    return summarized;
  }

  // The summarizer's answer about `messages`, told in a transcript that fits
  // `limit` with room for the instructions and the answer.
  #summaryAnswer(
    messages: ModelMessage[],
    { limit, summaryTokens, signal }: {
      limit: number;
      summaryTokens: number;
      signal?: AbortSignal;
    },
  ): Promise<{ text: string; usage: AgentUsage }> {
    const readable = transcript(
      messages,
      limit - 2 * summaryTokens - estimateTokens(SUMMARIZER_INSTRUCTIONS),
    );
    return streamAnswer(this.#model, {
      instructions: SUMMARIZER_INSTRUCTIONS,
      messages: [{
        role: "user",
        content: summaryRequest(readable, summaryTokens),
      }],
      // A model that writes on and on is cut off (and clipped after).
      maxChars: summaryTokens * CHARS_PER_TOKEN * 1.5,
      signal,
    });
  }

  // The step a too-long reply ended: its text so far, cut for "length" (an
  // error part the cancelled request streamed is no failure of the run).
  #cutStep(state: RunState): AgentEvent {
    state.error = undefined;
    state.steps++;
    state.finishReason = "length";
    return {
      type: "step-finish",
      step: state.steps,
      finishReason: "length",
      usage: {},
    };
  }

  #toEvent(part: StreamPart, state: RunState): AgentEvent | undefined {
    switch (part.type) {
      case "start-step":
        state.stepText = "";
        state.stepTokens = 0;
        return undefined;
      case "text-delta":
        state.stepText += part.text;
        state.stepTokens += estimateTokens(part.text);
        return { type: "text-delta", text: part.text };
      case "reasoning-delta":
        state.stepTokens += estimateTokens(part.text);
        return { type: "reasoning-delta", text: part.text };
      case "tool-input-delta": // a call's arguments can go on without end too
        state.stepTokens += estimateTokens(part.delta ?? "");
        return undefined;
      case "tool-call":
        if (part.invalid) return undefined; // its tool-error follows and tells all
        return { type: "tool-call", ...this.#base(part) };
      case "tool-result": {
        const envelope = part.output as Envelope;
        state.record(part, false, envelope.text);
        return {
          type: "tool-result",
          ...this.#base(part),
          output: envelope.output,
          modelText: envelope.text,
        };
      }
      case "tool-error": {
        const modelText = errorText(part.error);
        state.record(part, true, modelText);
        return {
          type: "tool-error",
          ...this.#base(part),
          error: errorMessage(part.error),
          modelText,
        };
      }
      case "finish-step": {
        const usage = usageOf(part.usage);
        state.steps++;
        state.finishReason = finishReasonOf(part.finishReason);
        return {
          type: "step-finish",
          step: state.steps,
          finishReason: state.finishReason,
          usage,
        };
      }
      case "finish":
        state.usage = usageOf(part.totalUsage);
        return undefined;
      case "error":
        state.error = part.error;
        return undefined;
      default:
        return undefined;
    }
  }

  #base(part: StreamPart) {
    return {
      toolCallId: part.toolCallId!,
      toolName: part.toolName!,
      kind: this.#kinds.get(part.toolName!) ?? "other",
      input: part.input,
    };
  }
}

/**
 * The messages a step sent, then the assistant's text of a reply cut short;
 * undefined without text (a cut tool call alone is no message to keep, and
 * endpoints refuse empty ones).
 */
function withReply(
  sent: ModelMessage[],
  text: string,
): ModelMessage[] | undefined {
  if (!text.trim()) return undefined;
  return [...sent, { role: "assistant", content: [{ type: "text", text }] }];
}

/** What keeping one run within the budget carries from step to step. */
interface Fitting {
  /** The run's budget (a reset during the run makes a new one for the next). */
  budget: ContextBudget;
  /** The run's own user message. */
  prompt: ModelMessage;
  /** Events to yield with the run's own. */
  notices: AgentEvent[];
  /** A summary call failed or answered nothing: do not try again this run. */
  summaryFailed: boolean;
  signal: AbortSignal | undefined;
}

/** The stream part fields this file reads (the SDK's union is wider). */
interface StreamPart {
  type: string;
  text: string;
  /** A tool call's arguments, piece by piece. */
  delta?: string;
  toolCallId?: string;
  toolName?: string;
  input?: unknown;
  output?: unknown;
  error?: unknown;
  invalid?: boolean;
  finishReason?: string;
  usage?: SdkUsage;
  totalUsage?: SdkUsage;
}

interface SdkUsage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

/** What a run accumulates for its result. */
class RunState {
  steps = 0;
  stepText = "";
  /** The estimate of the step's text and reasoning so far. */
  stepTokens = 0;
  finishReason: AgentFinishReason = "other";
  usage: AgentUsage = {};
  toolCalls: AgentToolCallRecord[] = [];
  error: unknown = undefined;

  record(part: StreamPart, isError: boolean, modelText: string): void {
    this.toolCalls.push({
      toolCallId: part.toolCallId!,
      toolName: part.toolName!,
      input: part.input,
      isError,
      modelText,
    });
  }

  result(): AgentResult {
    return {
      text: this.stepText,
      finishReason: this.finishReason,
      steps: this.steps,
      toolCalls: this.toolCalls,
      usage: this.usage,
    };
  }
}

function toSdkTool(
  item: Tool<unknown, unknown>,
  options: {
    childOf: { toolCallId: string; task: number } | undefined;
    /** The most its output may take, in tokens: more is cut. */
    outputCap: number;
  },
) {
  const { childOf, outputCap } = options;
  return tool<unknown, Envelope, Record<string, never>>({
    description: item.description,
    inputSchema: jsonSchema<unknown>(item.inputSchema),
    execute: (input, { toolCallId, abortSignal }): Promise<Envelope> =>
      runInToolCall(
        childOf === undefined
          ? toolCallId
          : childToolCallId(childOf.toolCallId, childOf.task, toolCallId),
        async () => {
          try {
            const output = await item.execute(input, { signal: abortSignal });
            const text = cutOutput(renderSafely(item, output), outputCap, {
              toolName: item.name,
              input,
              output,
            });
            return { output, text };
          } catch (error) {
            if (abortSignal?.aborted) throw error;
            throw asToolError(item.name, error);
          }
        },
      ),
    toModelOutput: ({ output }) => ({
      type: "text" as const,
      value: output.text,
    }),
  });
}

function renderSafely(item: Tool<unknown, unknown>, output: unknown): string {
  try {
    return item.toModelText(output);
  } catch {
    return JSON.stringify(output) ?? String(output);
  }
}

/** The text the SDK sends the model for a failed call (it uses `String(error)`). */
function errorText(error: unknown): string {
  if (typeof error === "string") return error;
  if (error instanceof Error) return error.toString();
  return JSON.stringify(error) ?? "unknown error";
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : errorText(error);
}

function usageOf(usage: SdkUsage | undefined): AgentUsage {
  const out: AgentUsage = {};
  if (usage?.inputTokens !== undefined) out.inputTokens = usage.inputTokens;
  if (usage?.outputTokens !== undefined) out.outputTokens = usage.outputTokens;
  if (usage?.totalTokens !== undefined) out.totalTokens = usage.totalTokens;
  return out;
}

function finishReasonOf(reason: string | undefined): AgentFinishReason {
  switch (reason) {
    case "stop":
    case "length":
    case "content-filter":
    case "tool-calls":
    case "error":
      return reason;
    default:
      return "other";
  }
}

/** Finds our EndpointError in the SDK's wrapping, or explains an SDK API error. */
function isSdkError(error: unknown): boolean {
  return error instanceof Error && error.name.startsWith("AI_");
}

// A run's failure as an EndpointError naming the URL: every error the model's
// stream ends with comes from the endpoint's answer (an error chunk, a body
// cut short, something that is no Chat Completions stream), not from a tool.
function endpointErrorOf(error: unknown, url: string): unknown {
  for (
    let e = error, depth = 0;
    e instanceof Error && depth < 8;
    e = e.cause, depth++
  ) {
    if (e instanceof EndpointError) return e;
    // Deno's permission gate (e.g. no --allow-net): the setup's fault, not the answer's.
    if (isError(e, "notCapable")) return e;
  }
  if (!(error instanceof Error) || error.name === "AbortError") return error;
  const status = "statusCode" in error && typeof error.statusCode === "number"
    ? error.statusCode
    : undefined;
  const at = "url" in error && typeof error.url === "string" ? error.url : url;
  return new EndpointError(
    `Model endpoint ${at} gave an unusable answer${
      status ? ` (${status})` : ""
    }: ${error.message}; check that it serves OpenAI-compatible chat completions, or try again`,
    { url: at, status, cause: error },
  );
}

/** An image for {@linkcode askAboutImage}. */
export interface ImageQuestion {
  data: Uint8Array;
  mediaType: string;
  prompt: string;
  signal?: AbortSignal;
}

/** Sends one image with a prompt to a vision model and returns its answer. */
export async function askAboutImage(
  model: ChatModel,
  question: ImageQuestion,
): Promise<string> {
  const { text } = await streamAnswer(model, {
    signal: question.signal,
    messages: [{
      role: "user",
      content: [
        { type: "text", text: question.prompt },
        { type: "file", mediaType: question.mediaType, data: question.data },
      ],
    }],
  });
  return text;
}

/** The most a summary of the earlier conversation may take, in tokens. */
const MAX_SUMMARY_TOKENS = 4_000;

/** What follows a cancelled prompt kept in the conversation (keepCancelled). */
export const CANCELLED_REPLY =
  "[The user cancelled this request before it was finished.]";

/** The answer to a conversation compacted whole into its summary. */
const COMPACTED_REPLY =
  "[The conversation so far is summarized above; I go on from there.]";

/**
 * One model call without tools, streamed like the loop's own requests:
 * servers that only stream work, and those that only answer JSON are replayed
 * as a stream by the endpoint fetch.
 */
async function streamAnswer(
  model: ChatModel,
  request: {
    instructions?: string;
    messages: ModelMessage[];
    /** Stop reading (and stop the request) once the text is this long. */
    maxChars?: number;
    signal?: AbortSignal;
  },
): Promise<{ text: string; usage: AgentUsage }> {
  const enough = new AbortController();
  const result = streamText({
    model: model.languageModel,
    instructions: request.instructions,
    messages: request.messages,
    maxRetries: 0,
    abortSignal: request.signal
      ? AbortSignal.any([request.signal, enough.signal])
      : enough.signal,
    onError: () => {},
  });
  let text = "";
  let usage: AgentUsage = {};
  for await (const part of result.stream) {
    if (part.type === "text-delta") text += part.text;
    if (part.type === "finish") usage = usageOf(part.totalUsage);
    if (part.type === "error" && !enough.signal.aborted) {
      throw endpointErrorOf(part.error, model.url);
    }
    if (text.length > (request.maxChars ?? Infinity)) {
      enough.abort(new Error("the answer is long enough"));
      break;
    }
  }
  request.signal?.throwIfAborted();
  return { text, usage };
}
