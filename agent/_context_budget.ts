// Keeps a conversation within the model's context. Tool outputs (whole files,
// long command logs) are most of what a coding agent sends; once the request
// would pass the budget (estimated at 4 characters a token), the outputs of
// the oldest calls are replaced by a short note until the estimate is down to
// half the budget. Outputs the model has not answered yet are always kept.
// Clearing many at once, rather than one per step, keeps the start of the
// conversation unchanged for many steps, which endpoints' prompt caches need.
// Nothing here knows the AI SDK: messages are plain objects of its shape.

/** Characters per token in the estimate (code and English average 3-4). */
export const CHARS_PER_TOKEN = 4;

/** What a cleared output says instead, to the model. */
export const CLEARED_OUTPUT =
  "[This output was cleared to keep the conversation within the model's context. Call the tool again if you need it.]";

/** A message as the AI SDK keeps it (only the parts this file reads). */
export interface ContextMessage {
  role: string;
  content: unknown;
}

interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  output: unknown;
}

/** Decides which tool outputs a conversation still sends; one per conversation. */
export class ContextBudget {
  readonly #budgetChars: number;
  readonly #fixedChars: number;
  /** Calls whose output is cleared: once cleared, always cleared. */
  readonly #cleared = new Set<string>();

  /**
   * @param tokens The budget for a whole request, in tokens.
   * @param fixedChars What every request sends besides the messages (the
   * instructions and the tools' descriptions and schemas).
   */
  constructor(tokens: number, fixedChars = 0) {
    this.#budgetChars = tokens * CHARS_PER_TOKEN;
    this.#fixedChars = fixedChars;
  }

  /** How many outputs were cleared so far. */
  get clearedOutputs(): number {
    return this.#cleared.size;
  }

  /**
   * The messages to send: outputs cleared before stay cleared, and when the
   * estimate passes the budget, more are cleared, oldest first. Returns the
   * same array when nothing changes; never modifies `messages`.
   */
  fit<T extends ContextMessage>(messages: T[]): T[] {
    const fitted = this.#applied(messages);
    let chars = this.#fixedChars + sumChars(fitted);
    if (chars <= this.#budgetChars) return fitted;
    const target = this.#budgetChars / 2;
    // The last tool message holds outputs the model has not seen yet.
    const lastTool = fitted.findLastIndex((m) => m.role === "tool");
    for (let i = 0; i < lastTool && chars > target; i++) {
      for (const part of toolResults(fitted[i])) {
        if (this.#cleared.has(part.toolCallId)) continue;
        this.#cleared.add(part.toolCallId);
        chars -= JSON.stringify(part.output).length - CLEARED_CHARS;
        if (chars <= target) break;
      }
    }
    return this.#applied(fitted);
  }

  // Copies the messages that hold a cleared output, with the note instead.
  #applied<T extends ContextMessage>(messages: T[]): T[] {
    if (this.#cleared.size === 0) return messages;
    let changed = false;
    const out = messages.map((message) => {
      const parts = toolResults(message);
      if (!parts.some((part) => this.#isUncleared(part))) return message;
      changed = true;
      const content = (message.content as unknown[]).map((part) =>
        isToolResult(part) && this.#isUncleared(part)
          ? { ...part, output: CLEARED }
          : part
      );
      return { ...message, content };
    });
    return changed ? out : messages;
  }

  // A part whose call is cleared but whose output is not the note yet.
  #isUncleared(part: ToolResultPart): boolean {
    return this.#cleared.has(part.toolCallId) && !isClearedOutput(part.output);
  }
}

const CLEARED = { type: "text", value: CLEARED_OUTPUT } as const;
const CLEARED_CHARS = JSON.stringify(CLEARED).length;

function isClearedOutput(output: unknown): boolean {
  return typeof output === "object" && output !== null &&
    (output as { value?: unknown }).value === CLEARED_OUTPUT;
}

function toolResults(message: ContextMessage): ToolResultPart[] {
  if (message.role !== "tool" || !Array.isArray(message.content)) return [];
  return message.content.filter(isToolResult);
}

function isToolResult(part: unknown): part is ToolResultPart {
  return typeof part === "object" && part !== null &&
    (part as { type?: unknown }).type === "tool-result" &&
    typeof (part as { toolCallId?: unknown }).toolCallId === "string";
}

function sumChars(messages: ContextMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    chars += typeof message.content === "string"
      ? message.content.length
      : JSON.stringify(message.content).length;
  }
  return chars;
}
