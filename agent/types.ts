/**
 * The public types of the agent: its options, the events a run streams, the
 * result of a run, and the agent itself. None of them mention the AI SDK.
 *
 * @module
 */
import type { PlanEntry } from "../tools/plan/plan.ts";
import type {
  Backend,
  PermissionAnswer,
  PermissionMode,
  PermissionRequest,
  SandboxMode,
  Tool,
  ToolKind,
} from "../tools/types.ts";
import type { PermissionRules } from "../tools/permission_rules.ts";
import type { ProjectInstructionsFile } from "./project_instructions.ts";

/**
 * A permission request as the agent passes it on: with the tool call that asks.
 *
 * A type only: needs no permission.
 *
 * @example Mention the asking tool call
 * ```ts
 * import { type AgentPermissionRequest, createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function label(request: AgentPermissionRequest): string {
 *   return `${request.toolCallId ?? "?"}: ${request.description}`;
 * }
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "call-1", type: "function", function: { name: "WriteFile", arguments: '{"path":"a.txt","content":"hi"}' } }] },
 *   { content: "Done." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const asked: string[] = [];
 * const agent = createAgent({
 *   model: "qwen3",
 *   cwd: await Deno.makeTempDir(),
 *   approve: (request) => (asked.push(label(request)), false),
 *   fetch,
 * });
 * await agent.run("Write a.txt");
 * assert.match(asked[0], /^call-1: .*a\.txt/);
 * ```
 */
export interface AgentPermissionRequest extends PermissionRequest {
  /**
   * The id of the model's tool call that needs the permission. A Subagent
   * child's call is named `<Subagent call id>/<task>/<child's call id>`, from
   * the fields of its `subagent` event (each child is a conversation of its
   * own, whose ids may repeat the parent's).
   */
  toolCallId?: string;
}

/**
 * Decides a permission request of an agent's tools; may ask a person.
 *
 * Needs no permission itself; the tool still needs Deno's (e.g. `--allow-run`) for what is approved.
 *
 * @example Approve reads, refuse the rest
 * ```ts
 * import { type AgentApprove, createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "1", type: "function", function: { name: "Shell", arguments: '{"command":"ls"}' } }] },
 *   { content: "I may not run commands." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const approve: AgentApprove = (request) => request.action === "read";
 * const agent = createAgent({ model: "qwen3", approve, fetch });
 * const result = await agent.run("List the files");
 * assert.equal(result.toolCalls[0].isError, true);
 * ```
 */
export type AgentApprove = (
  request: AgentPermissionRequest,
) => PermissionAnswer | Promise<PermissionAnswer>;

/**
 * Options of {@linkcode createAgent}.
 *
 * Requires `--allow-net` for the endpoint when the agent runs, plus the tools' permissions.
 *
 * @example A read-only agent on a hosted endpoint
 * ```ts
 * import { type AgentOptions, createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const options: AgentOptions = {
 *   baseURL: "https://api.example.com/v1",
 *   apiKey: Deno.env.get("EXAMPLE_API_KEY"),
 *   model: "example-model",
 *   permissionMode: "readOnly",
 *   maxSteps: 20,
 * };
 * const agent = createAgent(options);
 * assert.ok(agent.tools.has("ReadFile"));
 * ```
 */
export interface AgentOptions {
  /** An OpenAI-compatible endpoint; defaults to a local Ollama, `http://127.0.0.1:11434/v1`. */
  baseURL?: string;
  /**
   * Start each conversation with a map of the workspace of about this many
   * tokens (at least 256) in the instructions; 0 (the default) sends none.
   */
  repoMapTokens?: number;
  /** Sent as a bearer token when present. */
  apiKey?: string;
  /** The model name, e.g. `"qwen3"`. */
  model: string;
  /** The workspace root; defaults to `Deno.cwd()`. */
  cwd?: string;
  /** What needs approval; defaults to `"ask"`. */
  permissionMode?: PermissionMode;
  /** When Shell runs commands in the OS sandbox; defaults to `"auto"` (see `createTools`). */
  sandbox?: SandboxMode;
  /** Lets sandboxed commands use the network; default false. */
  sandboxNetwork?: boolean;
  /** Answers permission requests; without it, asking means refusing. */
  approve?: AgentApprove;
  /**
   * Allow and deny rules applied before the mode, e.g.
   * `{ deny: ["Shell(rm *)"] }` (see {@linkcode PermissionRules}).
   */
  permissions?: PermissionRules;
  /** Added to the built-in system prompt. */
  instructions?: string;
  /**
   * The project's instructions files (`AGENTS.md`, or `CLAUDE.md` in a folder
   * without one) added to the system prompt, each under its path: by default
   * those {@linkcode findProjectInstructions} finds for `cwd` (the user's
   * config folder, then the repository root down to `cwd`), read at the first
   * run; `false` for none; or the files an earlier call found (to show them
   * before the run). They count against `contextTokens`, a quarter of it at most.
   */
  projectInstructions?: false | readonly ProjectInstructionsFile[];
  /** Model calls per run at most; defaults to 50. */
  maxSteps?: number;
  /** The model ImageAnalysis asks; defaults to `model`. */
  visionModel?: string;
  /** Model calls per Subagent task at most; defaults to 25. */
  subagentMaxSteps?: number;
  /**
   * How many tokens a request may take: the model's context window, less
   * room for its answer. When the conversation would pass it (estimated at 4
   * ASCII characters a token, other characters a token each), the oldest tool
   * calls are cleared (outputs become a short note, long input strings a
   * mark), down to half of it. When that is not enough (the model's own text
   * and the user's turns fill it), the model summarizes the oldest messages
   * and the summary replaces them (a `context-summarized` event). One tool
   * output longer than 7/8 of it (less instructions and tool schemas, at
   * least 8 192 tokens) is cut to its head and tail with a note; a reply
   * longer than it (at least 8 192 tokens) ends the run with finishReason
   * `"length"`. Defaults to 100 000; set your model's window (for Ollama, its
   * `num_ctx`).
   */
  contextTokens?: number;
  /**
   * The conversation to go on with, as an earlier agent's
   * {@linkcode Agent.history} gave it (e.g. saved to a file in between).
   * Checked when the agent is created.
   */
  history?: readonly AgentMessage[];
  /** Called with the whole plan each time the Plan tool replaces it. */
  onPlan?: (entries: PlanEntry[]) => void;
  /** Replaces the local disk and subprocesses, e.g. with an editor's over ACP. */
  backend?: Partial<Backend>;
  /** More tools to offer the model, e.g. from MCP servers. */
  extraTools?: Tool<unknown, unknown>[];
  /** The fetch used for model requests (retries and timeouts are added around it). */
  fetch?: typeof fetch;
  /**
   * Retries of a model request after 429, 5xx or a connection failure; a
   * whole number of at least 0, defaults to 4.
   */
  maxRetries?: number;
  /**
   * Longest wait for an answer to start, and between two chunks, in whole
   * milliseconds from 1 to 2 147 483 647 (setTimeout's limit); defaults to
   * 120 000.
   */
  requestTimeoutMs?: number;
}

/**
 * Options of one run.
 *
 * Requires `--allow-net` for the endpoint, plus the tools' permissions.
 *
 * @example Stop a run after a minute
 * ```ts
 * import { createAgent, type RunOptions } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [{ content: "Hello" }];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const options: RunOptions = { signal: AbortSignal.timeout(60_000) };
 * const result = await agent.run("List the TODOs", options);
 * assert.equal(result.text, "Hello");
 * ```
 */
export interface RunOptions {
  /** Aborts the model request, running tools (killing Shell processes) and subagents. */
  signal?: AbortSignal;
  /**
   * When the run is aborted, keeps its prompt (and the steps it completed)
   * in the conversation, followed by an assistant message saying it was
   * cancelled, so the model knows what was asked. By default an aborted run
   * keeps its completed steps only, and one that completed none leaves no
   * trace (the same prompt can be sent again).
   */
  keepCancelled?: boolean;
}

/**
 * How much of the context budget the conversation takes: the estimate of
 * the next request (instructions, tools and messages, the next prompt aside)
 * and the budget (`contextTokens`), in tokens.
 *
 * A type only: needs no permission.
 *
 * @example Say how full the context is
 * ```ts
 * import type { AgentContextUse } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const percent = (use: AgentContextUse) => Math.round(100 * use.tokens / use.limit);
 * assert.equal(percent({ tokens: 25_000, limit: 100_000 }), 25);
 * ```
 */
export interface AgentContextUse {
  /** The estimated size of the next request, in tokens. */
  tokens: number;
  /** The context budget, in tokens. */
  limit: number;
}

/**
 * Token counts, when the endpoint reports them.
 *
 * A type only: needs no permission.
 *
 * @example Add up the tokens of several runs
 * ```ts
 * import type { AgentUsage } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function total(usages: AgentUsage[]): number {
 *   return usages.reduce((sum, usage) => sum + (usage.totalTokens ?? 0), 0);
 * }
 * assert.equal(total([{ totalTokens: 120 }, {}, { totalTokens: 30 }]), 150);
 * ```
 */
export interface AgentUsage {
  /** Tokens of the prompts sent. */
  inputTokens?: number;
  /** Tokens the model generated. */
  outputTokens?: number;
  /** Both together. */
  totalTokens?: number;
}

/**
 * Why the last model call of a run ended. `"tool-calls"` means the step cap was hit.
 *
 * A type only: needs no permission.
 *
 * @example Tell the user when the step cap stopped a run
 * ```ts
 * import type { AgentFinishReason } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function note(reason: AgentFinishReason): string {
 *   return reason === "tool-calls" ? "stopped at the step limit" : "done";
 * }
 * assert.equal(note("tool-calls"), "stopped at the step limit");
 * assert.equal(note("stop"), "done");
 * ```
 */
export type AgentFinishReason =
  | "stop"
  | "length"
  | "content-filter"
  | "tool-calls"
  | "error"
  | "other";

/**
 * What a finished run gives back.
 *
 * Requires `--allow-net` for the endpoint, plus the tools' permissions.
 *
 * @example Print the answer and what it cost
 * ```ts
 * import { type AgentResult, createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint that answers once and reports its token use.
 * const fetch = () =>
 *   Promise.resolve(Response.json({
 *     choices: [{ message: { role: "assistant", content: "createTools and more." } }],
 *     usage: { prompt_tokens: 900, completion_tokens: 12, total_tokens: 912 },
 *   }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const result: AgentResult = await agent.run("What does mod.ts export?");
 * assert.deepEqual([result.text, result.steps, result.usage.totalTokens], ["createTools and more.", 1, 912]);
 * ```
 */
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

/**
 * A tool call and its outcome, as {@linkcode AgentResult.toolCalls} lists it.
 *
 * A type only: needs no permission.
 *
 * @example List the failed tool calls of a run
 * ```ts
 * import { type AgentResult, type AgentToolCallRecord, createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function failures(result: AgentResult): AgentToolCallRecord[] {
 *   return result.toolCalls.filter((call) => call.isError);
 * }
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "1", type: "function", function: { name: "ReadFile", arguments: '{"path":"missing.txt"}' } }] },
 *   { content: "There is no such file." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", cwd: await Deno.makeTempDir(), fetch });
 * const [failed] = failures(await agent.run("Read missing.txt"));
 * assert.equal(failed.toolName, "ReadFile");
 * assert.match(failed.modelText, /missing\.txt/);
 * ```
 */
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

/**
 * A piece of the answer as it streams.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Stream the answer to stdout
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [{ content: "Hello" }];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const chunks: string[] = [];
 * for await (const event of agent.stream("Summarise README.md")) {
 *   if (event.type === "text-delta") chunks.push(event.text); // or write to Deno.stdout
 * }
 * assert.equal(chunks.join(""), "Hello");
 * ```
 */
export interface AgentTextEvent {
  /** The event kind. */
  type: "text-delta";
  /** The new text. */
  text: string;
}

/**
 * A piece of the model's reasoning, for models that send it.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Show the model's reasoning dimmed
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [{ reasoning_content: "The user wants a summary.", content: "Hello" }];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * let thoughts = "";
 * for await (const event of agent.stream("Summarise README.md")) {
 *   if (event.type === "reasoning-delta") thoughts += event.text; // e.g. console.log(`%c${event.text}`, "color: gray")
 * }
 * assert.equal(thoughts, "The user wants a summary.");
 * ```
 */
export interface AgentReasoningEvent {
  /** The event kind. */
  type: "reasoning-delta";
  /** The new reasoning text. */
  text: string;
}

/**
 * What every tool event tells about the call.
 *
 * A type only: needs no permission.
 *
 * @example Describe any tool event
 * ```ts
 * import type { AgentToolEventBase } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function describe(event: AgentToolEventBase): string {
 *   return `${event.toolName} (${event.kind}) ${JSON.stringify(event.input)}`;
 * }
 * const event: AgentToolEventBase = { toolCallId: "1", toolName: "ReadFile", kind: "read", input: { path: "a.ts" } };
 * assert.equal(describe(event), 'ReadFile (read) {"path":"a.ts"}');
 * ```
 */
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

/**
 * The model called a tool; it runs next.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Show each tool call as it starts
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "1", type: "function", function: { name: "ReadFile", arguments: '{"path":"deno.json"}' } }] },
 *   { content: "It names the package." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const started: string[] = [];
 * for await (const event of agent.stream("Summarise deno.json")) {
 *   if (event.type === "tool-call") started.push(`→ ${event.toolName}`);
 * }
 * assert.deepEqual(started, ["→ ReadFile"]);
 * ```
 */
export interface AgentToolCallEvent extends AgentToolEventBase {
  /** The event kind. */
  type: "tool-call";
}

/**
 * A tool finished.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Show what each tool gave the model
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "1", type: "function", function: { name: "ReadFile", arguments: '{"path":"deno.json"}' } }] },
 *   { content: "It names the package." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const given: string[] = [];
 * for await (const event of agent.stream("Summarise deno.json")) {
 *   if (event.type === "tool-result") given.push(event.modelText);
 * }
 * assert.match(given[0], /"name": "@fello\/agent"/);
 * ```
 */
export interface AgentToolResultEvent extends AgentToolEventBase {
  /** The event kind. */
  type: "tool-result";
  /** The tool's result object, e.g. a ShellResult. */
  output: unknown;
  /** The text the model sees. */
  modelText: string;
}

/**
 * A tool call failed; the model sees the error and goes on.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Show failed tool calls
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "1", type: "function", function: { name: "ReadFile", arguments: '{"path":"missing.txt"}' } }] },
 *   { content: "There is no such file." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const failed: string[] = [];
 * for await (const event of agent.stream("Read missing.txt")) {
 *   if (event.type === "tool-error") failed.push(`${event.toolName}: ${event.error}`);
 * }
 * assert.match(failed[0], /^ReadFile: .*missing\.txt/);
 * ```
 */
export interface AgentToolErrorEvent extends AgentToolEventBase {
  /** The event kind. */
  type: "tool-error";
  /** The error message. */
  error: string;
  /** The text the model sees. */
  modelText: string;
}

/**
 * The Plan tool replaced the plan.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Print the plan as a checklist
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "1", type: "function", function: { name: "Plan", arguments: JSON.stringify({ entries: [
 *     { content: "Read the test", priority: "high", status: "completed" },
 *     { content: "Fix the parser", priority: "high", status: "pending" },
 *   ] }) } }] },
 *   { content: "Planned." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const lines: string[] = [];
 * for await (const event of agent.stream("Plan the fix")) {
 *   if (event.type !== "plan") continue;
 *   for (const entry of event.entries) {
 *     lines.push(`${entry.status === "completed" ? "[x]" : "[ ]"} ${entry.content}`);
 *   }
 * }
 * assert.deepEqual(lines, ["[x] Read the test", "[ ] Fix the parser"]);
 * ```
 */
export interface AgentPlanEvent {
  /** The event kind. */
  type: "plan";
  /** The whole new plan. */
  entries: PlanEntry[];
}

/**
 * A model request failed and is retried after a delay.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Tell the user the endpoint is being retried
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint that is busy once, then answers.
 * let calls = 0;
 * const fetch = () =>
 *   Promise.resolve(
 *     calls++ === 0
 *       ? new Response("busy", { status: 503, headers: { "retry-after": "0" } })
 *       : Response.json({ choices: [{ message: { role: "assistant", content: "Hello" } }] }),
 *   );
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const notices: string[] = [];
 * for await (const event of agent.stream("Summarise README.md")) {
 *   if (event.type === "retry") notices.push(`retrying in ${event.delayMs} ms: ${event.reason}`);
 * }
 * assert.deepEqual(notices, ["retrying in 0 ms: busy"]);
 * ```
 */
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

/**
 * One model call ended.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Count tokens per model call
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint that answers and reports its token use.
 * const fetch = () =>
 *   Promise.resolve(Response.json({
 *     choices: [{ message: { role: "assistant", content: "Hello" } }],
 *     usage: { prompt_tokens: 40, completion_tokens: 2, total_tokens: 42 },
 *   }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const steps: string[] = [];
 * for await (const event of agent.stream("Summarise README.md")) {
 *   if (event.type === "step-finish") {
 *     steps.push(`step ${event.step}: ${event.usage.totalTokens ?? "?"} tokens`);
 *   }
 * }
 * assert.deepEqual(steps, ["step 1: 42 tokens"]);
 * ```
 */
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

/**
 * The oldest messages of the conversation were replaced by a summary the
 * model wrote of them, because even with old tool outputs cleared the request
 * passed `contextTokens`. The summary is one more model call; its tokens are
 * in `usage`, not in the run's.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Tell the user the conversation was summarized
 * ```ts
 * import type { AgentContextSummarizedEvent, AgentEvent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function notice(event: AgentEvent): string | undefined {
 *   if (event.type !== "context-summarized") return undefined;
 *   return `summarized ${event.messages} messages: ${event.tokensBefore} → ${event.tokensAfter} tokens`;
 * }
 * const event: AgentContextSummarizedEvent = {
 *   type: "context-summarized",
 *   messages: 14,
 *   tokensBefore: 30_500,
 *   tokensAfter: 6_200,
 *   usage: { totalTokens: 31_000 },
 *   summary: "We renamed the parser's options...",
 * };
 * assert.equal(notice(event), "summarized 14 messages: 30500 → 6200 tokens");
 * ```
 */
export interface AgentContextSummarizedEvent {
  /** The event kind. */
  type: "context-summarized";
  /** How many of the oldest messages the summary replaced. */
  messages: number;
  /** The request's estimated size before, in tokens. */
  tokensBefore: number;
  /** The request's estimated size after, in tokens. */
  tokensAfter: number;
  /** Tokens of the call that wrote the summary. */
  usage: AgentUsage;
  /** The summary, as the model now reads it in place of those messages. */
  summary: string;
}

/**
 * The run ended; the last event of a run.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Keep the result of a streamed run
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [{ content: "Hello" }];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * let text = "";
 * for await (const event of agent.stream("Summarise README.md")) {
 *   if (event.type === "finish") text = event.result.text;
 * }
 * assert.equal(text, "Hello");
 * ```
 */
export interface AgentFinishEvent {
  /** The event kind. */
  type: "finish";
  /** What the run gives back. */
  result: AgentResult;
}

/**
 * A tool event of a Subagent's child, to show the child's progress.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Show what the Subagent children do
 * ```ts
 * import { createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "1", type: "function", function: { name: "Subagent", arguments: JSON.stringify({ tasks: [
 *     { description: "deno.json", prompt: "Summarise deno.json" },
 *   ] }) } }] },
 *   { tool_calls: [{ id: "2", type: "function", function: { name: "ReadFile", arguments: '{"path":"deno.json"}' } }] },
 *   { content: "It names the package." },
 *   { content: "The helper says: it names the package." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * const seen: string[] = [];
 * for await (const event of agent.stream("Summarise deno.json with a helper")) {
 *   if (event.type === "subagent") {
 *     seen.push(`task ${event.task} (${event.description}): ${event.event.type}`);
 *   }
 * }
 * assert.deepEqual(seen, ["task 0 (deno.json): tool-call", "task 0 (deno.json): tool-result"]);
 * ```
 */
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

/**
 * A Subagent's child summarized the oldest messages of its own conversation
 * (as {@linkcode AgentContextSummarizedEvent} says of the parent's). The
 * parent's conversation is unchanged.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Tell the user a helper summarized
 * ```ts
 * import type { AgentEvent, AgentSubagentContextSummarizedEvent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function notice(event: AgentEvent): string | undefined {
 *   if (event.type !== "subagent-context-summarized") return undefined;
 *   return `task ${event.task} summarized ${event.messages} messages`;
 * }
 * const event: AgentSubagentContextSummarizedEvent = {
 *   type: "subagent-context-summarized",
 *   toolCallId: "call-1",
 *   task: 0,
 *   description: "Review every module",
 *   messages: 9,
 *   tokensBefore: 30_000,
 *   tokensAfter: 5_000,
 *   usage: {},
 *   summary: "Reviewed tools/ so far...",
 * };
 * assert.equal(notice(event), "task 0 summarized 9 messages");
 * ```
 */
export interface AgentSubagentContextSummarizedEvent
  extends Omit<AgentContextSummarizedEvent, "type"> {
  /** The event kind. */
  type: "subagent-context-summarized";
  /** The id of the Subagent call the child works for. */
  toolCallId: string;
  /** The task's position in that call, 0-based. */
  task: number;
  /** The task's description. */
  description: string;
}

/**
 * What {@linkcode Agent.stream} yields.
 *
 * A type only: needs no permission (running the agent needs `--allow-net` and the tools' permissions).
 *
 * @example Handle the events of a run in one switch
 * ```ts
 * import { type AgentEvent, createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * function show(event: AgentEvent): string | undefined {
 *   switch (event.type) {
 *     case "text-delta":
 *       return event.text;
 *     case "tool-call":
 *       return `\n→ ${event.toolName}\n`;
 *     case "finish":
 *       return `\n(${event.result.steps} steps)\n`;
 *   }
 * }
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [
 *   { tool_calls: [{ id: "1", type: "function", function: { name: "ReadFile", arguments: '{"path":"deno.json"}' } }] },
 *   { content: "It names the package." },
 * ];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * let shown = "";
 * for await (const event of agent.stream("Summarise deno.json")) shown += show(event) ?? "";
 * assert.equal(shown, "\n→ ReadFile\nIt names the package.\n(2 steps)\n");
 * ```
 */
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
  | AgentContextSummarizedEvent
  | AgentSubagentContextSummarizedEvent
  | AgentFinishEvent;

/**
 * One message of a conversation: the user's prompt, the model's answer (text
 * and tool calls) or the tools' results, in the shape the AI SDK sends them.
 * Save it as JSON and give it back; its content is not meant to be edited.
 *
 * A type only: needs no permission.
 *
 * @example Save a conversation and go on with it in a later process
 * ```ts
 * import { type AgentMessage, createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [{ content: "Its tasks are test, bench and ok." }, { content: "test." }];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent = createAgent({ model: "qwen3", fetch });
 * await agent.run("Read deno.json and remember its tasks");
 * const file = await Deno.makeTempFile({ suffix: ".json" });
 * await Deno.writeTextFile(file, JSON.stringify(agent.history));
 *
 * const history: AgentMessage[] = JSON.parse(await Deno.readTextFile(file));
 * const later = createAgent({ model: "qwen3", history, fetch });
 * await later.run("Which task runs the tests?");
 * assert.equal(later.history.length, 4); // two questions, two answers
 * ```
 */
export interface AgentMessage {
  /** Who speaks: the user, the model (`assistant`) or the tools (`tool`). */
  role: "user" | "assistant" | "tool";
  /** A string, or the message's parts (text, tool calls, tool results). */
  content: unknown;
}

/**
 * A conversation with a model that uses the built-in tools.
 *
 * Requires `--allow-net` for the endpoint, plus the permissions of the tools it uses (`--allow-read`, `--allow-write`, `--allow-run`).
 *
 * @example Hold a conversation, then start over
 * ```ts
 * import { type Agent, createAgent } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // A stand-in endpoint: each request gets the next reply, as a model would give it.
 * const replies: object[] = [{ content: "tools/." }, { content: "Shell." }];
 * const fetch = () =>
 *   Promise.resolve(Response.json({ choices: [{ message: { role: "assistant", ...replies.shift() } }] }));
 * const agent: Agent = createAgent({ model: "qwen3", permissionMode: "readOnly", fetch });
 * await agent.run("Which files define the tools?");
 * await agent.run("And which of them run subprocesses?"); // continues the conversation
 * assert.equal(agent.history.length, 4);
 * agent.reset();
 * assert.equal(agent.history.length, 0);
 * assert.ok([...agent.tools.keys()].includes("Subagent"));
 * ```
 */
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
  /**
   * The conversation so far, as the next run sends it (old tool calls cleared
   * or summarized): a copy, plain JSON, to save and give back as
   * `createAgent({ history })`.
   */
  readonly history: AgentMessage[];
  /** The permission mode in force; assign to switch it for later tool calls. */
  permissionMode: PermissionMode;
  /**
   * The model asked; assign to switch it for later requests (a run going on
   * keeps its model). ImageAnalysis follows it unless `visionModel` was given.
   */
  model: string;
  /**
   * Summarizes the conversation now: what came before its last prompt (all
   * of it, when it holds one) is replaced by the model's summary. Resolves
   * to the summary's event, or undefined when there was nothing to
   * summarize; rejects when the endpoint fails or the summary is empty.
   */
  compact(
    options?: RunOptions,
  ): Promise<AgentContextSummarizedEvent | undefined>;
  /** How much of the context budget the conversation takes now. */
  contextUse(): Promise<AgentContextUse>;
}
