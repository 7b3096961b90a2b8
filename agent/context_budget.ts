// Keeps a conversation within the model's context. Tool calls carry most of
// what a coding agent sends: outputs (whole files, long logs) and inputs (a
// WriteFile's content). Once a request would pass the budget, the oldest calls
// are cleared (the output becomes a short note, long input strings a mark)
// until the estimate is down to half the budget; when even the cleared calls
// are too many, the oldest steps of them are left out. Outputs the model has
// not answered yet are always sent. Clearing many at once, rather than one per
// step, keeps the start of the conversation unchanged for many steps, which
// endpoints' prompt caches need. Nothing here knows the AI SDK: messages are
// plain objects of its shape.

import { CHARS_PER_TOKEN, estimateTokens } from "../internal/tokens.ts";

export { CHARS_PER_TOKEN, estimateTokens };

/** What a cleared output says instead, to the model. */
export const CLEARED_OUTPUT =
  "[Output cleared to keep the conversation within the model's context. The call did run; if you need what it showed, read it again rather than repeating a write or a command.]";

/** What a cleared input string says instead. */
function clearedMark(length: number): string {
  return `[cleared: ${length} characters]`;
}

/** Whether `value` is an input string that clearing replaced. */
export function isClearedInput(value: unknown): boolean {
  return typeof value === "string" &&
    /^\[cleared: \d+ characters\]$/.test(value);
}

/** Input strings longer than this are cleared with their call. */
const LONG_INPUT_CHARS = 200;
/** How deep into an input's objects and arrays clearing looks. */
const MAX_INPUT_DEPTH = 16;

/** A message as the AI SDK keeps it (only the parts this file reads). */
export interface ContextMessage {
  role: string;
  content: unknown;
}

interface ToolPart {
  type: "tool-call" | "tool-result";
  toolCallId: string;
  input?: unknown;
  output?: unknown;
}

/**
 * Decides how much of a conversation's tool calls is still sent; one per
 * conversation. Calls are cleared oldest first and stay cleared, so the state
 * is how many: the first `#cleared` calls and results, in conversation order
 * (by position, not by id: some servers reuse ids from one answer to the
 * next).
 */
export class ContextBudget {
  readonly #budget: number;
  readonly #fixed: number;
  #cleared = 0;
  /** Token estimates of messages already seen (the SDK passes the same objects each step). */
  #estimates = new WeakMap<object, number>();

  /**
   * @param tokens The budget for a whole request, in tokens.
   * @param fixedTokens What every request sends besides the messages (the
   * instructions and the tools' descriptions and schemas), estimated with
   * {@linkcode estimateTokens}.
   */
  constructor(tokens: number, fixedTokens = 0) {
    this.#budget = tokens;
    this.#fixed = fixedTokens;
  }

  /** How many calls were cleared so far. */
  get clearedCalls(): number {
    return this.#cleared;
  }

  /** The budget for a whole request, in tokens. */
  get limit(): number {
    return this.#budget;
  }

  /** Goes back to `clearedCalls` (as read before), for a conversation put back as it was. */
  restore(clearedCalls: number): void {
    this.#cleared = clearedCalls;
  }

  /**
   * Notes that the first messages of the conversation, `leading`, were
   * replaced (by a summary): their calls no longer count as cleared ones.
   */
  forget(leading: readonly ContextMessage[]): void {
    const calls = leading.reduce((n, m) => n + toolCallCount(m), 0);
    this.#cleared = Math.max(0, this.#cleared - calls);
  }

  /** The estimate of a request carrying `messages`, what every request sends included. */
  estimate(messages: readonly ContextMessage[]): number {
    return this.#fixed + this.#sum(messages);
  }

  /** What every request sends besides the messages, in tokens. */
  get fixedTokens(): number {
    return this.#fixed;
  }

  /** Each message's estimate, in order. */
  messageTokens(messages: readonly ContextMessage[]): number[] {
    return messages.map((message) => this.#sum([message]));
  }

  /**
   * The messages to send: calls cleared before stay cleared, and when the
   * estimate passes the budget, more are cleared, oldest first. When the
   * estimate is still past the budget (a cleared call still costs its name,
   * id and note), the oldest steps made only of cleared calls are left out
   * altogether, down to half the budget. Returns the same array when nothing
   * changes; never modifies `messages`.
   */
  fit<T extends ContextMessage>(messages: T[]): T[] {
    const fitted = this.#applied(messages);
    let tokens = this.#fixed + this.#sum(fitted);
    if (tokens <= this.#budget) return fitted;
    const { calls, results } = answeredParts(fitted);
    while (this.#cleared < results.length && tokens > this.#budget / 2) {
      const k = this.#cleared++;
      tokens -= saving(results[k]) + (calls[k] ? saving(calls[k]) : 0);
    }
    const cleared = this.#applied(fitted);
    return tokens > this.#budget ? this.#withoutOldSteps(cleared) : cleared;
  }

  // Leaves out the oldest steps whose calls are all cleared (an assistant
  // message of tool calls only, and the tool message answering it) until the
  // estimate is half the budget; nothing when even without all of them the
  // request would not fit (instructions or unanswered outputs over budget).
  // The count of cleared calls goes down by the calls left out: they are no
  // longer in the conversation.
  #withoutOldSteps<T extends ContextMessage>(messages: T[]): T[] {
    const steps: { at: number; calls: number; tokens: number }[] = [];
    let before = 0;
    for (let i = 0; i + 1 < messages.length; i++) {
      const calls = callsOnly(messages[i]);
      const answer = messages[i + 1];
      if (
        calls !== undefined && answer.role === "tool" &&
        toolResultCount(answer) === calls && before + calls <= this.#cleared
      ) {
        steps.push({ at: i, calls, tokens: this.#sum([messages[i], answer]) });
      }
      before += toolCallCount(messages[i]);
    }
    let tokens = this.#fixed + this.#sum(messages);
    const floor = steps.reduce((rest, step) => rest - step.tokens, tokens);
    if (steps.length === 0 || floor > this.#budget) return messages;
    const gone = new Set<number>();
    for (const step of steps) {
      if (tokens <= this.#budget / 2) break;
      gone.add(step.at).add(step.at + 1);
      tokens -= step.tokens;
      this.#cleared -= step.calls;
    }
    return messages.filter((_, index) => !gone.has(index));
  }

  #sum(messages: readonly ContextMessage[]): number {
    let tokens = 0;
    for (const message of messages) {
      let estimate = this.#estimates.get(message);
      if (estimate === undefined) {
        estimate = estimateTokens(JSON.stringify(message));
        this.#estimates.set(message, estimate);
      }
      tokens += estimate;
    }
    return tokens;
  }

  // Copies the messages that hold a cleared call not cleared yet in them.
  #applied<T extends ContextMessage>(messages: T[]): T[] {
    if (this.#cleared === 0) return messages;
    const seen = { "tool-call": 0, "tool-result": 0 };
    let changed = false;
    const out = messages.map((message) => {
      if (!Array.isArray(message.content)) return message;
      let copied: unknown[] | undefined;
      message.content.forEach((part, index) => {
        if (!isToolPart(part) || seen[part.type]++ >= this.#cleared) return;
        const cleared = clearedPart(part);
        if (cleared === part) return;
        copied ??= [...message.content as unknown[]];
        copied[index] = cleared;
      });
      if (copied === undefined) return message;
      changed = true;
      return { ...message, content: copied };
    });
    return changed ? out : messages;
  }
}

const CLEARED = { type: "text", value: CLEARED_OUTPUT } as const;
const CLEARED_TOKENS = estimateTokens(JSON.stringify(CLEARED));

// How many tokens clearing the part saves.
function saving(part: ToolPart): number {
  const cleared = clearedPart(part);
  if (cleared === part) return 0;
  return estimateTokens(JSON.stringify(part)) -
    estimateTokens(JSON.stringify(cleared));
}

// The part with its output (or its long input strings) cleared, or the part
// itself when that would not make it shorter.
function clearedPart(part: ToolPart): ToolPart {
  if (part.type === "tool-result") {
    if (isCleared(part.output)) return part;
    const tokens = estimateTokens(JSON.stringify(part.output) ?? "");
    return tokens <= CLEARED_TOKENS ? part : { ...part, output: CLEARED };
  }
  const input = clearedInput(part.input);
  return input === part.input ? part : { ...part, input };
}

// The long strings anywhere in an input's objects and arrays (a Subagent's
// prompts sit in an array of tasks) become a mark; the input itself when
// none is long.
function clearedInput(input: unknown, depth = 0): unknown {
  if (typeof input !== "object" || input === null || depth > MAX_INPUT_DEPTH) {
    return input;
  }
  let copy: Record<string, unknown> | unknown[] | undefined;
  for (const [key, value] of Object.entries(input)) {
    const cleared = typeof value === "string"
      ? value.length > LONG_INPUT_CHARS ? clearedMark(value.length) : value
      : clearedInput(value, depth + 1);
    if (cleared === value) continue;
    copy ??= Array.isArray(input) ? [...input] : { ...input };
    (copy as Record<string, unknown>)[key] = cleared;
  }
  return copy ?? input;
}

function isCleared(output: unknown): boolean {
  return typeof output === "object" && output !== null &&
    (output as { value?: unknown }).value === CLEARED_OUTPUT;
}

function isToolPart(part: unknown): part is ToolPart {
  if (typeof part !== "object" || part === null) return false;
  const type = (part as { type?: unknown }).type;
  return type === "tool-call" || type === "tool-result";
}

// How many tool calls an assistant message holds when it holds nothing else
// (no text a later step may build on); undefined otherwise.
function callsOnly(message: ContextMessage): number | undefined {
  if (message.role !== "assistant" || !Array.isArray(message.content)) {
    return undefined;
  }
  const parts = message.content;
  if (parts.length === 0) return undefined;
  return parts.every((part) => isToolPart(part) && part.type === "tool-call")
    ? parts.length
    : undefined;
}

function toolResultCount(message: ContextMessage): number {
  return countParts(message, "tool-result");
}

function toolCallCount(message: ContextMessage): number {
  return countParts(message, "tool-call");
}

function countParts(message: ContextMessage, type: ToolPart["type"]): number {
  if (!Array.isArray(message.content)) return 0;
  return message.content.filter((part) =>
    isToolPart(part) && part.type === type
  )
    .length;
}

// The tool calls and results the model has answered, each in conversation
// order. A tool message after the last assistant message has not been
// answered: it is the next step's request, or the end of a run stopped at
// its step cap or aborted (then a user message follows it).
function answeredParts(
  messages: ContextMessage[],
): { calls: ToolPart[]; results: ToolPart[] } {
  const lastTool = messages.findLastIndex((m) => m.role === "tool");
  const lastAssistant = messages.findLastIndex((m) => m.role === "assistant");
  const answered = lastTool > lastAssistant
    ? messages.slice(0, lastTool)
    : messages;
  const calls: ToolPart[] = [];
  const results: ToolPart[] = [];
  for (const message of answered) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (!isToolPart(part)) continue;
      (part.type === "tool-call" ? calls : results).push(part);
    }
  }
  return { calls, results };
}
