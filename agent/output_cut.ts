// Cuts a tool output that cannot fit the model's context. Without it, one
// forced ReadFile of a 28 MB file made a 38 MB request (95 times a 100,000
// token budget) that the endpoint refused, and every later request carried it
// again. The head and the tail are kept (where a file starts and where a log
// ends are what a model needs most), with a note in between saying what was
// left out and how to read it.
import { CHARS_PER_TOKEN, estimateTokens } from "./context_budget.ts";

/**
 * The least an output may keep, in tokens (about 32 KB of ASCII text): a small
 * budget still sees small outputs whole.
 */
export const OUTPUT_FLOOR_TOKENS = 8_192;

/** Tokens kept aside for the note between the head and the tail. */
const NOTE_TOKENS = 150;

/**
 * The most one output may take of a request of `contextTokens`, when every
 * request also sends `fixedTokens` (instructions, tool schemas): what is left,
 * less an eighth for the prompt and the rest of the conversation.
 */
export function outputTokenCap(
  contextTokens: number,
  fixedTokens: number,
): number {
  return Math.max(
    OUTPUT_FLOOR_TOKENS,
    Math.floor(contextTokens * 7 / 8 - fixedTokens),
  );
}

/** What a cut left out, for a tool's own advice on reading it. */
export interface OutputCut {
  /** Lines of the output left out (counting a partial line as one). */
  lines: number;
  /** Lines of the output kept before the cut. */
  headLines: number;
  /** The first and the last line left out (their starts, at most 40 characters). */
  first: string;
  last: string;
}

/** Advice on reading what was left out, by tool. */
export interface CutAdvice {
  toolName?: string;
  input?: unknown;
  output?: unknown;
}

/**
 * `text` as it is when its estimate is within `maxTokens`, else its head and
 * tail (cut at line ends where lines are not too long) around a note saying
 * how much was left out and how to read it.
 */
export function cutOutput(
  text: string,
  maxTokens: number,
  advice: CutAdvice = {},
): string {
  // Every character is at most one token: most outputs end here at once.
  if (text.length <= maxTokens || estimateTokens(text) <= maxTokens) {
    return text;
  }
  const half = Math.max(1, (maxTokens - NOTE_TOKENS) / 2);
  const headEnd = _headEnd(text, half);
  const tailStart = Math.max(headEnd, _tailStart(text, half));
  const cut: OutputCut = {
    lines: _countLines(text, headEnd, tailStart),
    headLines: _countLines(text, 0, headEnd),
    first: _lineStart(text, headEnd),
    last: _lineStart(text, text.lastIndexOf("\n", tailStart - 2) + 1),
  };
  const note = `[... ${cut.lines} line${cut.lines === 1 ? "" : "s"} (${
    tailStart - headEnd
  } characters) left out here: this output is ${text.length} characters, more than fits in the model's context. ${
    _advice(cut, advice)
  }]`;
  const head = text.slice(0, headEnd);
  return `${head}${head.endsWith("\n") ? "" : "\n"}${note}\n${
    text.slice(tailStart)
  }`;
}

function _advice(cut: OutputCut, advice: CutAdvice): string {
  const { toolName, input, output } = advice;
  if (toolName === "ReadFile") {
    const from = /^\s*(\d+)\t/.exec(cut.first)?.[1];
    const to = /^\s*(\d+)\t/.exec(cut.last)?.[1];
    const path = (input as { path?: unknown } | undefined)?.path;
    if (from && to && typeof path === "string") {
      return `Lines ${from}-${to} of "${path}" are left out: read them in parts with ReadFile line: ${from}, limit: ${
        Math.max(1, cut.headLines)
      } (and so on), or search the file.`;
    }
  }
  if (toolName === "Shell") {
    const logPath = (output as { logPath?: unknown } | undefined)?.logPath;
    if (typeof logPath === "string") {
      return `The whole output is in "${logPath}": read the left-out part with ReadFile (line/limit) or search it, rather than running the command again.`;
    }
    return "To see the left-out part, run the command again with a smaller outputByteLimit (Shell then saves the whole output to a log file to read with ReadFile line/limit), or filter its output (grep, head, tail).";
  }
  return "Ask for less at once (a line range, a narrower pattern, a filtered command) to see the left-out part.";
}

// The end of a head of about `tokens` tokens: after its last newline when that
// keeps at least half of it, else at a character boundary.
function _headEnd(text: string, tokens: number): number {
  let cost = 0;
  let end = 0;
  for (; end < text.length; end++) {
    cost += text.charCodeAt(end) > 0x7f ? 1 : 1 / CHARS_PER_TOKEN;
    if (cost > tokens) break;
  }
  const newline = text.lastIndexOf("\n", end - 1);
  if (newline >= end / 2) return newline + 1;
  return _isHighSurrogate(text.charCodeAt(end - 1)) ? end - 1 : end;
}

// The start of a tail of about `tokens` tokens: after a newline when that
// keeps at least half of it, else at a character boundary.
function _tailStart(text: string, tokens: number): number {
  let cost = 0;
  let start = text.length;
  for (; start > 0; start--) {
    cost += text.charCodeAt(start - 1) > 0x7f ? 1 : 1 / CHARS_PER_TOKEN;
    if (cost > tokens) break;
  }
  const newline = text.indexOf("\n", start);
  if (newline >= 0 && newline < start + (text.length - start) / 2) {
    return newline + 1;
  }
  return _isHighSurrogate(text.charCodeAt(start - 1)) ? start + 1 : start;
}

function _isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

// Lines that start in [from, to): newlines counted, a partial last line too.
function _countLines(text: string, from: number, to: number): number {
  if (to <= from) return 0;
  let lines = 0;
  for (let at = text.indexOf("\n", from); at >= 0 && at < to; lines++) {
    at = text.indexOf("\n", at + 1);
  }
  return text.charCodeAt(to - 1) === 0x0a ? lines : lines + 1;
}

function _lineStart(text: string, from: number): string {
  const end = text.indexOf("\n", from);
  return text.slice(from, Math.min(end < 0 ? text.length : end, from + 40));
}

/** A message as the AI SDK keeps it (only the parts read here). */
interface Message {
  role: string;
  content: unknown;
}

interface ResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName?: string;
  output: { type: string; value: unknown };
}

/**
 * `messages` with every text tool output over `maxTokens` cut (a conversation
 * saved before outputs were cut, or one made under a larger budget, would
 * otherwise fail every request); the same array when none is. Never modifies
 * `messages`.
 */
export function cutLongOutputs<T extends Message>(
  messages: T[],
  maxTokens: number,
): T[] {
  let out: T[] | undefined;
  messages.forEach((message, index) => {
    if (message.role !== "tool" || !Array.isArray(message.content)) return;
    let copied: unknown[] | undefined;
    message.content.forEach((part: unknown, at: number) => {
      if (!_isLongResult(part, maxTokens)) return;
      const input = _callInput(messages, index, part.toolCallId);
      const value = cutOutput(part.output.value as string, maxTokens, {
        toolName: part.toolName,
        input,
      });
      if (value === part.output.value) return;
      copied ??= [...message.content as unknown[]];
      copied[at] = { ...part, output: { ...part.output, value } };
    });
    if (copied === undefined) return;
    out ??= [...messages];
    out[index] = { ...message, content: copied };
  });
  return out ?? messages;
}

function _isLongResult(part: unknown, maxTokens: number): part is ResultPart {
  if (typeof part !== "object" || part === null) return false;
  const { type, output } = part as Partial<ResultPart>;
  return type === "tool-result" && typeof output === "object" &&
    output !== null &&
    (output.type === "text" || output.type === "error-text") &&
    typeof output.value === "string" && output.value.length > maxTokens;
}

// The input of the call a tool message at `index` answers (the assistant
// message before it), for advice naming the file.
function _callInput(
  messages: Message[],
  index: number,
  toolCallId: string,
): unknown {
  const call = messages[index - 1];
  if (call?.role !== "assistant" || !Array.isArray(call.content)) return;
  const part = call.content.find((p: { type?: string; toolCallId?: string }) =>
    p?.type === "tool-call" && p.toolCallId === toolCallId
  );
  return part?.input;
}

/**
 * `messages` with the outputs the model has not answered yet (the tool
 * messages after the last assistant message) cut to share `maxTokens`
 * between them, each keeping at least {@linkcode OUTPUT_FLOOR_TOKENS}: one
 * output within its own cap, but many of them at once, would otherwise pass
 * the context, and the clearing never takes unanswered outputs. The same
 * array when they fit.
 */
export function shareUnansweredOutputs<T extends Message>(
  messages: T[],
  maxTokens: number,
): T[] {
  const lastAssistant = messages.findLastIndex((m) => m.role === "assistant");
  if (lastAssistant < 0) return messages;
  const unanswered = messages.slice(lastAssistant + 1);
  let count = 0;
  let tokens = 0;
  for (const message of unanswered) {
    if (message.role !== "tool" || !Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (!_isLongResult(part, 0)) continue;
      count++;
      tokens += estimateTokens(part.output.value as string);
    }
  }
  if (tokens <= maxTokens) return messages;
  const share = Math.max(OUTPUT_FLOOR_TOKENS, Math.floor(maxTokens / count));
  const cut = cutLongOutputs(messages.slice(lastAssistant), share);
  return [...messages.slice(0, lastAssistant), ...cut];
}
