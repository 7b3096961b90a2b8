// Scripts for the context-summary tests: how the scripted server tells the
// summarizer's requests apart (their transcript starts "## User"), and a long
// run of steps that goes on however many of its steps a summary took away.
import {
  type Agent,
  type AgentEvent,
  type AgentOptions,
  createAgent,
} from "../../mod.ts";
import {
  type ChatRequest,
  contentText,
  type RecordedRequest,
  type ScriptedReply,
} from "./scripted_server.ts";

/** The `match` of the summarizer's conversation: its transcript's first heading. */
export const SUMMARIZER_MATCH = "## User";

/** Whether the request is one asking for a summary. */
export function isSummarizer(request: RecordedRequest): boolean {
  return request.conversation === SUMMARIZER_MATCH;
}

/** The text of every user message of a request, one per line. */
export function userText(request: RecordedRequest | ChatRequest): string {
  const body = "conversation" in request
    ? (request as RecordedRequest).body
    : request as ChatRequest;
  return body.messages.filter((m) => m.role === "user")
    .map((m) => contentText(m.content) || String(m.content)).join("\n");
}

/**
 * A step of a long run: says something long and reads the log after the
 * newest one the request still shows (`l0`, `l1`, ...), `size(index)`
 * characters long, until `steps` logs; then answers "all read".
 */
export function logStep(
  request: RecordedRequest,
  { steps = 30, size = () => 400 }: {
    steps?: number;
    size?: (index: number) => number;
  } = {},
): ScriptedReply {
  const done = [
    ...JSON.stringify(request.body.messages).matchAll(/"label\\":\\"l(\d+)/g),
  ].map((m) => Number(m[1]));
  const index = done.length === 0 ? 0 : Math.max(...done) + 1;
  return index < steps
    ? {
      text: `Step ${index}: ${"thinking aloud ".repeat(400)}`,
      toolCalls: [{
        name: "fetch_log",
        arguments: { label: `l${index}`, size: size(index) },
      }],
    }
    : { text: "all read" };
}

/**
 * An agent for the scripted server at `baseURL`, its context
 * `contextTokens`, with `more` options if given.
 */
export function budgetAgent(
  baseURL: string,
  cwd: string,
  contextTokens: number,
  more: Partial<AgentOptions> = {},
): Agent {
  return createAgent({ baseURL, model: "m", cwd, contextTokens, ...more });
}

/** Prompts "Turn 1: go on" to "Turn `turns`: go on"; resolves to every event. */
export async function goOn(agent: Agent, turns: number): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for (let turn = 1; turn <= turns; turn++) {
    for await (const event of agent.stream(`Turn ${turn}: go on`)) {
      events.push(event);
    }
  }
  return events;
}
