/**
 * The public types of the agent: its options, the events a run streams, the
 * result of a run, and the agent itself. None of them mention the AI SDK.
 *
 * @module
 */
import type { PlanEntry } from "../tools/plan.ts";
import type {
  Backend,
  PermissionAnswer,
  PermissionMode,
  PermissionRequest,
  Tool,
  ToolKind,
} from "../tools/types.ts";

/** A permission request as the agent passes it on: with the tool call that asks. */
export interface AgentPermissionRequest extends PermissionRequest {
  /**
   * The id of the model's tool call that needs the permission. Inside a
   * Subagent it is the id of the Subagent call, the one the caller has seen.
   */
  toolCallId?: string;
}

/** Decides a permission request of an agent's tools; may ask a person. */
export type AgentApprove = (
  request: AgentPermissionRequest,
) => PermissionAnswer | Promise<PermissionAnswer>;

/** Options of {@linkcode createAgent}. */
export interface AgentOptions {
  /** An OpenAI-compatible endpoint; defaults to a local Ollama, `http://127.0.0.1:11434/v1`. */
  baseURL?: string;
  /** Sent as a bearer token when present. */
  apiKey?: string;
  /** The model name, e.g. `"qwen3"`. */
  model: string;
  /** The workspace root; defaults to `Deno.cwd()`. */
  cwd?: string;
  /** What needs approval; defaults to `"ask"`. */
  permissionMode?: PermissionMode;
  /** Answers permission requests; without it, asking means refusing. */
  approve?: AgentApprove;
  /** Added to the built-in system prompt. */
  instructions?: string;
  /** Model calls per run at most; defaults to 50. */
  maxSteps?: number;
  /** The model ImageAnalysis asks; defaults to `model`. */
  visionModel?: string;
  /** Model calls per Subagent task at most; defaults to 25. */
  subagentMaxSteps?: number;
  /** Called with the whole plan each time the Plan tool replaces it. */
  onPlan?: (entries: PlanEntry[]) => void;
  /** Replaces the local disk and subprocesses, e.g. with an editor's over ACP. */
  backend?: Partial<Backend>;
  /** More tools to offer the model, e.g. from MCP servers. */
  extraTools?: Tool<unknown, unknown>[];
  /** The fetch used for model requests (retries and timeouts are added around it). */
  fetch?: typeof fetch;
  /** Retries of a model request after 429, 5xx or a connection failure; defaults to 4. */
  maxRetries?: number;
  /** Longest wait for an answer to start, and between two chunks; defaults to 120 000 ms. */
  requestTimeoutMs?: number;
}

/** Options of one run. */
export interface RunOptions {
  /** Aborts the model request, running tools (killing Shell processes) and subagents. */
  signal?: AbortSignal;
}

/** Token counts, when the endpoint reports them. */
export interface AgentUsage {
  /** Tokens of the prompts sent. */
  inputTokens?: number;
  /** Tokens the model generated. */
  outputTokens?: number;
  /** Both together. */
  totalTokens?: number;
}

/** Why the last model call of a run ended. `"tool-calls"` means the step cap was hit. */
export type AgentFinishReason =
  | "stop"
  | "length"
  | "content-filter"
  | "tool-calls"
  | "error"
  | "other";

/** What a finished run gives back. */
export interface AgentResult {
  /** The final assistant text (that of the last model call). */
  text: string;
  /** Why the last model call ended; `"tool-calls"` when the step cap stopped the run. */
  finishReason: AgentFinishReason;
  /** Model calls made. */
  steps: number;
  /** Tool calls made, in order of their results. */
  toolCalls: AgentToolCallRecord[];
  /** Tokens used by the whole run. */
  usage: AgentUsage;
}

/** A tool call and its outcome, as {@linkcode AgentResult.toolCalls} lists it. */
export interface AgentToolCallRecord {
  /** The model's id for the call. */
  toolCallId: string;
  /** The tool called. */
  toolName: string;
  /** The arguments the model gave. */
  input: unknown;
  /** Whether it failed (a ToolError, refused permission, invalid input, unknown tool). */
  isError: boolean;
  /** The text the model saw. */
  modelText: string;
}

/** A piece of the answer as it streams. */
export interface AgentTextEvent {
  /** The event kind. */
  type: "text-delta";
  /** The new text. */
  text: string;
}

/** A piece of the model's reasoning, for models that send it. */
export interface AgentReasoningEvent {
  /** The event kind. */
  type: "reasoning-delta";
  /** The new reasoning text. */
  text: string;
}

/** What every tool event tells about the call. */
export interface AgentToolEventBase {
  /** The model's id for the call; the same in its call and its result. */
  toolCallId: string;
  /** The tool called. */
  toolName: string;
  /** The tool's kind (`"other"` for an unknown tool name). */
  kind: ToolKind;
  /** The arguments the model gave. */
  input: unknown;
}

/** The model called a tool; it runs next. */
export interface AgentToolCallEvent extends AgentToolEventBase {
  /** The event kind. */
  type: "tool-call";
}

/** A tool finished. */
export interface AgentToolResultEvent extends AgentToolEventBase {
  /** The event kind. */
  type: "tool-result";
  /** The tool's result object, e.g. a ShellResult. */
  output: unknown;
  /** The text the model sees. */
  modelText: string;
}

/** A tool call failed; the model sees the error and goes on. */
export interface AgentToolErrorEvent extends AgentToolEventBase {
  /** The event kind. */
  type: "tool-error";
  /** The error message. */
  error: string;
  /** The text the model sees. */
  modelText: string;
}

/** The Plan tool replaced the plan. */
export interface AgentPlanEvent {
  /** The event kind. */
  type: "plan";
  /** The whole new plan. */
  entries: PlanEntry[];
}

/** A model request failed and is retried after a delay. */
export interface AgentRetryEvent {
  /** The event kind. */
  type: "retry";
  /** The URL that failed. */
  url: string;
  /** The failed attempt, 1-based. */
  attempt: number;
  /** The HTTP status, when an answer came. */
  status?: number;
  /** What went wrong, e.g. "connection refused". */
  reason: string;
  /** The wait before the next attempt. */
  delayMs: number;
}

/** One model call ended. */
export interface AgentStepEvent {
  /** The event kind. */
  type: "step-finish";
  /** The number of the model call, 1-based. */
  step: number;
  /** Why the model call ended. */
  finishReason: AgentFinishReason;
  /** Tokens of this model call. */
  usage: AgentUsage;
}

/** The run ended; the last event of a run. */
export interface AgentFinishEvent {
  /** The event kind. */
  type: "finish";
  /** What the run gives back. */
  result: AgentResult;
}

/** A tool event of a Subagent's child, to show the child's progress. */
export interface AgentSubagentEvent {
  /** The event kind. */
  type: "subagent";
  /** The id of the Subagent call the child works for. */
  toolCallId: string;
  /** The task's position in that call, 0-based. */
  task: number;
  /** The task's description. */
  description: string;
  /** The child's own tool event. */
  event: AgentToolCallEvent | AgentToolResultEvent | AgentToolErrorEvent;
}

/** What {@linkcode Agent.stream} yields. */
export type AgentEvent =
  | AgentTextEvent
  | AgentReasoningEvent
  | AgentToolCallEvent
  | AgentToolResultEvent
  | AgentToolErrorEvent
  | AgentPlanEvent
  | AgentSubagentEvent
  | AgentRetryEvent
  | AgentStepEvent
  | AgentFinishEvent;

/** A conversation with a model that uses the built-in tools. */
export interface Agent {
  /**
   * Runs the prompt to the end and resolves to the result. Rejects with the
   * signal's reason when aborted and with an `EndpointError` when the model
   * endpoint fails.
   */
  run(prompt: string, options?: RunOptions): Promise<AgentResult>;
  /** Runs the prompt, yielding events as they happen; the last one is `finish`. */
  stream(prompt: string, options?: RunOptions): AsyncIterable<AgentEvent>;
  /** Forgets the conversation; the next run starts over. */
  reset(): void;
  /** The tools offered to the model, by name. */
  readonly tools: ReadonlyMap<string, Tool<unknown, unknown>>;
  /** The current plan, as the last Plan call left it. */
  readonly plan: readonly PlanEntry[];
  /** The permission mode in force; assign to switch it for later tool calls. */
  permissionMode: PermissionMode;
}
