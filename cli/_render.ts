// How "run" shows a run on a terminal: the answer as it streams, and for each
// tool call one line with its main argument and one with its outcome (with
// the last lines of a Shell's output and the first of an ImageAnalysis
// answer under it). Plans and the step cap get a short line too.
import type {
  AgentEvent,
  AgentResult,
  AgentRetryEvent,
  AgentSubagentEvent,
} from "../agent/types.ts";
import type { ShellResult } from "../tools/types.ts";
import { countChar } from "../internal/count_char.ts";
import { printable } from "../internal/printable.ts";

/** Lines of a Shell call's output shown under its outcome, from its end. */
export const SHELL_TAIL_LINES = 5;
/** Lines of an ImageAnalysis answer shown under its outcome. */
export const ANSWER_HEAD_LINES = 3;

const encoder = new TextEncoder();

/** Writes a string fully to a sync writer (stdout or stderr). */
export function writeAll(
  target: { writeSync(p: Uint8Array): number },
  text: string,
): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) bytes = bytes.subarray(target.writeSync(bytes));
}

/** Prints events as a readable transcript. */
export class TranscriptPrinter {
  #write: (text: string) => void;
  #color: boolean;
  #atLineStart = true;
  /** The call whose line was printed last, so a result right after it needs no label. */
  #lastCallId: string | undefined;
  #thinking = false;

  constructor(write: (text: string) => void, options: { color: boolean }) {
    this.#write = write;
    this.#color = options.color;
  }

  /** Shows one event. */
  handle(event: AgentEvent): void {
    switch (event.type) {
      case "text-delta":
        this.#text(event.text);
        this.#lastCallId = undefined;
        break;
      case "reasoning-delta":
        // The reasoning itself can be long; say once per step that it happens.
        if (!this.#thinking) this.#line(this.#paint("2", "(thinking…)"));
        this.#thinking = true;
        break;
      case "step-finish":
        this.#thinking = false;
        break;
      case "tool-call":
        this.#line(
          `${this.#paint("36", "●")} ${this.#paint("1", event.toolName)} ${
            mainArgument(event.toolName, event.input)
          }`,
        );
        this.#lastCallId = event.toolCallId;
        break;
      case "tool-result": {
        this.#outcome(
          event,
          outcome(event.toolName, event.output, event.modelText),
        );
        for (const line of excerpt(event.toolName, event.output)) {
          this.#line(`    ${this.#paint("2", line)}`);
        }
        break;
      }
      case "tool-error":
        this.#outcome(
          event,
          this.#paint("31", `error: ${firstLine(event.error, 160)}`),
        );
        break;
      case "plan":
        this.#line(this.#paint("2", "Plan:"));
        for (const entry of event.entries) {
          const mark = entry.status === "completed"
            ? "[x]"
            : entry.status === "in_progress"
            ? "[~]"
            : "[ ]";
          this.#line(`  ${mark} ${entry.content}`);
        }
        break;
      case "subagent":
        this.#subagent(event);
        break;
      case "context-summarized":
        this.#line(this.#paint("2", `(${summarized(event)})`));
        this.#lastCallId = undefined;
        break;
      case "subagent-context-summarized":
        this.#line(
          `${this.#paint("2", `  ↳ [${event.task + 1}]`)} ${
            this.#paint("2", `(${summarized(event)})`)
          }`,
        );
        this.#lastCallId = undefined;
        break;
      case "finish":
        this.#finish(event.result);
        break;
    }
  }

  /** The outcome line, labelled with its call when other lines came in between. */
  #outcome(
    event: { toolCallId: string; toolName: string; input: unknown },
    text: string,
  ): void {
    const label = event.toolCallId === this.#lastCallId
      ? ""
      : `${event.toolName} ${
        clip(mainArgument(event.toolName, event.input), 40)
      }: `;
    this.#line(`  ${this.#paint("2", "⎿")} ${label}${text}`);
    this.#lastCallId = undefined;
  }

  /** A child's calls and failures, indented under the Subagent call. */
  #subagent(event: AgentSubagentEvent): void {
    const child = event.event;
    const tag = this.#paint("2", `  ↳ [${event.task + 1}]`);
    if (child.type === "tool-call") {
      this.#line(
        `${tag} ${child.toolName} ${mainArgument(child.toolName, child.input)}`,
      );
    } else if (child.type === "tool-error") {
      this.#line(
        `${tag} ${child.toolName}: ${
          this.#paint("31", `error: ${firstLine(child.error, 120)}`)
        }`,
      );
    }
    this.#lastCallId = undefined;
  }

  #finish(result: AgentResult): void {
    if (!this.#atLineStart) this.#text("\n");
    if (result.finishReason === "tool-calls") {
      this.#line(this.#paint(
        "33",
        `(stopped after ${
          plural(result.steps, "step")
        }, the step limit; continue with another prompt or raise --max-steps)`,
      ));
    } else if (result.finishReason === "length") {
      this.#line(
        this.#paint(
          "33",
          "(the answer was cut: it reached the model's output limit or the context budget, --context-tokens)",
        ),
      );
    }
  }

  #text(text: string): void {
    if (text.length === 0) return;
    this.#write(text);
    this.#atLineStart = text.endsWith("\n");
  }

  #line(text: string): void {
    if (!this.#atLineStart) this.#write("\n");
    this.#write(`${text}\n`);
    this.#atLineStart = true;
  }

  #paint(code: string, text: string): string {
    return this.#color ? `\x1b[${code}m${text}\x1b[0m` : text;
  }
}

/** A retry notice, e.g. "(503: overloaded; retrying in 2.0 s)". */
export function describeRetry(event: AgentRetryEvent): string {
  const seconds = (event.delayMs / 1000).toFixed(1);
  return `(${event.status ?? "no answer"}: ${
    firstLine(event.reason, 120)
  }; retrying in ${seconds} s)`;
}

/** The argument that says what a call does, e.g. the path or the command. */
export function mainArgument(toolName: string, input: unknown): string {
  const fields = typeof input === "object" && input !== null
    ? input as Record<string, unknown>
    : {};
  switch (toolName) {
    case "Shell":
      return clip(
        [fields.command, ...(Array.isArray(fields.args) ? fields.args : [])]
          .join(" "),
        120,
      );
    case "search":
      return clip(
        `${JSON.stringify(fields.pattern ?? "")}${
          fields.path ? ` in ${fields.path}` : ""
        }`,
        120,
      );
    case "Plan":
      return `${
        Array.isArray(fields.entries) ? fields.entries.length : 0
      } entries`;
    case "Subagent": {
      const tasks = Array.isArray(fields.tasks) ? fields.tasks : [];
      const names = tasks.map((t) =>
        (t as { description?: unknown })?.description
      ).join(", ");
      return clip(`${plural(tasks.length, "task")}: ${names}`, 120);
    }
  }
  if (typeof fields.path === "string") return fields.path;
  const firstString = Object.values(fields).find((v) => typeof v === "string");
  return clip(
    typeof firstString === "string" ? firstString : JSON.stringify(input) ?? "",
    120,
  );
}

function outcome(toolName: string, output: unknown, modelText: string): string {
  if (toolName === "Shell" && typeof output === "object" && output !== null) {
    const result = output as ShellResult;
    const how = result.timedOut
      ? "timed out"
      : result.aborted
      ? "cancelled"
      : result.exitCode === null
      ? `killed by ${result.signal}`
      : `exit ${result.exitCode}`;
    const lines = countLines(result.output);
    const shown = lines ? `, ${plural(lines, "line")} of output` : "";
    if (!result.truncated) return `${how}${shown}`;
    const log = result.logPath ? `; all of it in ${result.logPath}` : "";
    return `${how}${shown} (truncated${log})`;
  }
  if (
    toolName === "ReadFile" && typeof output === "object" && output !== null
  ) {
    const { startLine, endLine } = output as {
      startLine?: unknown;
      endLine?: unknown;
    };
    if (typeof startLine === "number" && typeof endLine === "number") {
      const count = Math.max(0, endLine - startLine + 1);
      return `read ${plural(count, "line")} (${startLine}-${endLine})`;
    }
  }
  const counted = countOf(toolName, output, modelText);
  if (counted !== undefined) return counted;
  // The rest of an edit's result is its diff, shown when it was approved.
  if (toolName === "EditFile" || toolName === "EditSymbol") {
    return firstLine(modelText, 100) || "done";
  }
  const lines = countLines(modelText);
  const more = lines > 1 ? ` (+${plural(lines - 1, "line")})` : "";
  return `${firstLine(modelText, 100) || "done"}${more}`;
}

// One line for what a search or an outline found.
function countOf(
  toolName: string,
  output: unknown,
  modelText: string,
): string | undefined {
  const fields = typeof output === "object" && output !== null
    ? output as Record<string, unknown>
    : {};
  if (toolName === "search" && Array.isArray(fields.matches)) {
    const files = new Set(
      fields.matches.map((m) => (m as { path?: unknown })?.path),
    ).size;
    const found = fields.matches.length === 0
      ? "no match"
      : `${plural(fields.matches.length, "match", "matches")} in ${
        plural(files, "file")
      }`;
    return `${found}${fields.truncated === true ? " (more not shown)" : ""}`;
  }
  if (toolName === "rg" && typeof fields.output === "string") {
    if (fields.exitCode === 1) return "no match";
    const lines = countLines(fields.output);
    const cut = fields.truncated === true ? " (truncated)" : "";
    return `exit ${fields.exitCode}, ${plural(lines, "line")}${cut}`;
  }
  if (toolName === "file_outline" && typeof output === "string") {
    const header = "─── Symbols ───\n";
    const at = modelText.indexOf(header);
    if (at === -1) return undefined;
    const symbols = modelText.slice(at + header.length).split("\n")
      .filter((line) => /\(lines? \d+/.test(line)).length;
    const total = /^Total lines: (\d+)$/m.exec(modelText.slice(0, at))?.[1];
    return `${plural(symbols, "symbol")}${
      total === undefined ? "" : ` in ${plural(Number(total), "line")}`
    }`;
  }
  return undefined;
}

/**
 * The lines shown under an outcome: a Shell call's last lines of output,
 * an ImageAnalysis answer's first ones; escaped and clipped.
 */
function excerpt(toolName: string, output: unknown): string[] {
  if (typeof output !== "object" || output === null) return [];
  if (toolName === "Shell") {
    const text = (output as Partial<ShellResult>).output;
    return typeof text === "string"
      ? lastLines(text, SHELL_TAIL_LINES).map(shown)
      : [];
  }
  if (toolName === "ImageAnalysis") {
    const answer = (output as { answer?: unknown }).answer;
    if (typeof answer !== "string") return [];
    const lines = answer.trim().split("\n").filter((line) => line.trim());
    const head = lines.slice(0, ANSWER_HEAD_LINES).map(shown);
    const more = lines.length - head.length;
    return more > 0 ? [...head, `… ${plural(more, "more line")}`] : head;
  }
  return [];
}

// The last `count` lines of `text`, final newlines aside, found from its end
// (an output may hold a million lines).
function lastLines(text: string, count: number): string[] {
  let end = text.length;
  while (end > 0 && (text[end - 1] === "\n" || text[end - 1] === "\r")) end--;
  if (end === 0) return [];
  let start = 0;
  let at = end; // the newline before the lines found so far
  for (let found = 0; found < count && at > 0; found++) {
    const newline = text.lastIndexOf("\n", at - 1);
    if (newline === -1) break;
    at = newline;
    if (found === count - 1) start = newline + 1;
  }
  return text.slice(start, end).split("\n");
}

// A line of output as shown: control characters escaped (tabs kept), CR of a
// CRLF line dropped, clipped to a terminal line.
function shown(line: string): string {
  const text = line.replace(/\r$/, "").split("\t").map(printable).join("\t");
  return text.length > 160 ? `${text.slice(0, 159)}…` : text;
}

// "1 line", "2 lines"; "1 match", "2 matches".
function plural(count: number, noun: string, nouns = `${noun}s`): string {
  return `${count} ${count === 1 ? noun : nouns}`;
}

// Lines, final newlines aside (trimmed by hand: /\n+$/ takes time quadratic
// in a run of newlines that does not end the text).
function countLines(text: string): number {
  let end = text.length;
  while (end > 0 && text[end - 1] === "\n") end--;
  return end === 0 ? 0 : countChar(text, "\n", 0, end) + 1;
}

function firstLine(text: string, max: number): string {
  return clip(text.trim().split("\n")[0] ?? "", max);
}

function clip(text: string, max: number): string {
  const flat = text.replaceAll(/\s+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

// What a summary of the oldest messages did, for one line.
function summarized(
  event: { messages: number; tokensBefore: number; tokensAfter: number },
): string {
  return `summarized the oldest ${
    plural(event.messages, "message")
  } to stay within the context: about ${event.tokensBefore} → ${event.tokensAfter} tokens`;
}
