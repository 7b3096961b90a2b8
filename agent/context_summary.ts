// The last resort of keeping a conversation within the model's context: when
// clearing old tool calls (_context_budget.ts) is not enough, because the
// model's own text and the user's turns fill it, the oldest messages are
// replaced by a summary the model writes of them. This file decides where to
// cut, what the summarizer reads and how the summary joins what is kept; the
// model call itself is in _ai_sdk.ts. Messages are plain objects of the AI
// SDK's shape, as in _context_budget.ts.
import {
  CHARS_PER_TOKEN,
  type ContextMessage,
  estimateTokens,
} from "./context_budget.ts";

/** What a summary starts with, so the model (and a later summary) knows it for one. */
export const SUMMARY_HEADING =
  "[Summary of the earlier conversation, written to keep it within the model's context]";

/** The summarizer's instructions. */
export const SUMMARIZER_INSTRUCTIONS =
  `You summarize the first part of a conversation between a user and a coding agent, so that the agent can go on without it. The agent will see your summary in place of those messages. Write it for the agent, in the language of the conversation, in short sections:
- The user's requests and constraints, in the user's own words where they matter.
- Where things stand: what is finished, what is in progress, what is left to do.
- What was done: files read, created or changed (with their paths), commands run and what they showed, decisions taken and why.
- Errors met, and whether and how they were solved.
Keep exact names: paths, identifiers, commands, error messages, numbers. If the text holds an earlier summary, carry over what still matters in it. Leave out greetings and whatever no longer matters. Answer with the summary only.`;

/** At most this many characters of one tool input or output reach the summarizer. */
const TOOL_CHARS = 1_500;
/** At most this many characters of one message's text reach the summarizer. */
const TEXT_CHARS = 8_000;

/**
 * Where to cut `messages` so that what is kept estimates at most `target`
 * tokens: the first index whose message starts a turn or a step (a user or an
 * assistant message, never a tool message, which must follow its call) with
 * the rest within `target`. Undefined when no cut leaves anything to
 * summarize and the rest within `target`.
 *
 * @param tokens Each message's estimate, in the order of `messages`.
 */
export function summaryCut(
  messages: readonly ContextMessage[],
  tokens: readonly number[],
  target: number,
): number | undefined {
  let rest = tokens.reduce((sum, t) => sum + t, 0);
  for (let cut = 1; cut < messages.length; cut++) {
    rest -= tokens[cut - 1];
    if (rest > target || messages[cut].role === "tool") continue;
    return cut;
  }
  return undefined;
}

/**
 * The latest cut, for when no cut reaches the target of
 * {@linkcode summaryCut} (a long prompt or output at the end): the last user
 * or assistant message, when the messages from it on estimate at most
 * `target` tokens.
 */
export function lastCut(
  messages: readonly ContextMessage[],
  tokens: readonly number[],
  target: number,
): number | undefined {
  let rest = 0;
  for (let cut = messages.length - 1; cut >= 1; cut--) {
    rest += tokens[cut];
    if (messages[cut].role !== "tool") return rest <= target ? cut : undefined;
  }
  return undefined;
}

/**
 * Where to cut `messages` for a summary, and whether the run's own `prompt`
 * comes back word for word after it (when it is among the messages summarized
 * and at most a quarter of the budget): down to half the budget
 * ({@linkcode summaryCut}), or else at the last turn or step
 * ({@linkcode lastCut}), with the prompt put back only if the result still
 * fits. Undefined when no cut helps.
 */
export function chooseCut<T extends ContextMessage>(
  messages: readonly T[],
  budget: {
    /** Each message's estimate, in order. */
    tokens: readonly number[];
    limit: number;
    fixedTokens: number;
    summaryTokens: number;
    prompt: T;
    promptTokens: number;
  },
): { cut: number; request?: T } | undefined {
  const { tokens, limit, fixedTokens, prompt, promptTokens } = budget;
  const lastUser = messages.findLastIndex((m) => m.role === "user");
  const withRequest = (cut: number) =>
    lastUser < cut && promptTokens <= limit / 4
      ? { cut, request: prompt }
      : { cut };
  const half = summaryCut(messages, tokens, limit / 2 - fixedTokens);
  if (half !== undefined) return withRequest(half);
  // The summary's heading and end mark take a few tokens more.
  const room = limit - fixedTokens - budget.summaryTokens - 50;
  const last = lastCut(messages, tokens, room - promptTokens);
  if (last !== undefined) return withRequest(last);
  const bare = lastCut(messages, tokens, room);
  return bare === undefined ? undefined : { cut: bare };
}

/**
 * What the summarizer is sent: the transcript and how long to write. Words
 * are asked at half the token allowance: paths and identifiers make long
 * words, and a summary past the allowance loses its end to clipSummary().
 */
export function summaryRequest(transcript: string, maxTokens: number): string {
  const words = Math.floor(maxTokens / 2);
  return `${transcript}\n\n---\nSummarize the conversation above in at most ${words} words.`;
}

/**
 * The messages as a plain-text transcript for the summarizer, at most
 * `maxTokens` by {@linkcode estimateTokens}. Long tool inputs, outputs and
 * texts are cut short; when the whole is still too long, the first message
 * (an earlier summary, or the first request) and the newest ones are kept.
 */
export function transcript(
  messages: readonly ContextMessage[],
  maxTokens: number,
): string {
  const blocks = messages.map(renderMessage);
  const tokens = blocks.map(estimateTokens);
  let total = tokens.reduce((sum, t) => sum + t, 0);
  if (total <= maxTokens) return blocks.join("\n\n");
  // The first block (at most a quarter) and as many of the newest as fit; a
  // quarter of maxTokens in characters is within a quarter in tokens.
  const head = clip(blocks[0], Math.floor(maxTokens / 4));
  total = estimateTokens(head);
  let from = blocks.length;
  while (from > 1 && total + tokens[from - 1] <= maxTokens) {
    total += tokens[--from];
  }
  const kept = [head];
  if (from > 1) kept.push(`[… ${from - 1} messages left out …]`);
  kept.push(...blocks.slice(from));
  return kept.join("\n\n");
}

/**
 * The kept messages with the summary in front. `request`, the user's current
 * request when it was among the messages summarized, comes back right after
 * the summary, so the model still reads it word for word. The summary is
 * merged into the first message when that is the user's (some chat templates
 * refuse two user messages in a row), else it is a user message of its own.
 */
export function withSummary<T extends ContextMessage>(
  summary: string,
  kept: readonly T[],
  request?: T,
): T[] {
  const text = `${SUMMARY_HEADING}\n\n${
    cleanSummary(summary)
  }\n\n${SUMMARY_END}`;
  const [first, ...rest] = request ? [request, ...kept] : kept;
  if (first?.role !== "user") {
    return [{ role: "user", content: text } as T, ...kept];
  }
  const content = typeof first.content === "string"
    ? `${text}\n\n${first.content}`
    : [{ type: "text", text }, ...asArray(first.content)];
  return [{ ...first, content }, ...rest];
}

/**
 * A summary as the model reads it: without the marks a summarizer may echo
 * from an earlier summary it read, trimmed.
 */
export function cleanSummary(summary: string): string {
  return summary.replaceAll(SUMMARY_END, "").replaceAll(SUMMARY_HEADING, "")
    .trim();
}

/** Where a summary ends, for the model reading the message it leads. */
const SUMMARY_END = "[End of the summary]";

/**
 * A message text that withSummary() made, split into the summary and the
 * user's own words after it; undefined for any other text.
 */
export function splitSummary(
  text: string,
): { summary: string; own: string } | undefined {
  if (!text.startsWith(SUMMARY_HEADING)) return undefined;
  const end = text.indexOf(SUMMARY_END);
  if (end < 0) return { summary: text, own: "" };
  return {
    summary: text.slice(0, end).trimEnd(),
    own: text.slice(end + SUMMARY_END.length).trimStart(),
  };
}

/** The summary cut to `maxTokens`, for a model that wrote more than it was asked. */
export function clipSummary(summary: string, maxTokens: number): string {
  if (estimateTokens(summary) <= maxTokens) return summary;
  // Non-ASCII characters count a token each: cutting at maxTokens characters
  // is always within the budget; keep as much ASCII as fits.
  let end = Math.min(summary.length, maxTokens * CHARS_PER_TOKEN);
  while (end > maxTokens && estimateTokens(summary.slice(0, end)) > maxTokens) {
    end = Math.max(maxTokens, Math.floor(end * 0.8));
  }
  return `${summary.slice(0, end)} […]`;
}

function renderMessage(message: ContextMessage): string {
  const lines: string[] = [];
  for (const part of asArray(message.content)) {
    const line = renderPart(part);
    if (line) lines.push(line);
  }
  const title = message.role === "tool"
    ? "Tool results"
    : message.role[0].toUpperCase() + message.role.slice(1);
  return `## ${title}\n${clip(lines.join("\n"), TEXT_CHARS)}`;
}

function renderPart(part: unknown): string {
  if (typeof part === "string") return part;
  if (typeof part !== "object" || part === null) return "";
  const p = part as Record<string, unknown>;
  switch (p.type) {
    case "text":
      return String(p.text ?? "");
    case "tool-call":
      return `→ called ${p.toolName} ${
        clip(JSON.stringify(p.input) ?? "", TOOL_CHARS)
      }`;
    case "tool-result":
      return `← ${p.toolName}: ${clip(outputText(p.output), TOOL_CHARS)}`;
    case "image":
    case "file":
      return `[${p.type}]`;
    default:
      return ""; // reasoning and the like: the model's own scratch work
  }
}

function outputText(output: unknown): string {
  if (typeof output !== "object" || output === null) return String(output);
  const value = (output as { value?: unknown }).value;
  return typeof value === "string" ? value : JSON.stringify(value) ?? "";
}

function asArray(content: unknown): unknown[] {
  return Array.isArray(content) ? content : [content];
}

function clip(text: string, chars: number): string {
  return text.length <= chars
    ? text
    : `${text.slice(0, chars)} […${text.length - chars} characters cut]`;
}
