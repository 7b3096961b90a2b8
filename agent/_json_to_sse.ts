// Some OpenAI-compatible servers ignore `stream: true` and answer one JSON
// chat completion. The agent always streams, so such an answer is replayed as
// the equivalent server-sent events: one chunk with the whole message, one
// with the finish reason and usage, then [DONE].
import { EndpointError } from "./endpoint_error.ts";
import { readBodyStart } from "./read_body.ts";

/**
 * The most of a JSON answer read: far more than any reply a context holds,
 * and a body that never ends stops there.
 */
const MAX_JSON_ANSWER_BYTES = 32 * 1024 * 1024;

interface Completion {
  id?: string;
  created?: number;
  model?: string;
  choices?: {
    index?: number;
    message?: {
      role?: string;
      content?: string | null;
      reasoning_content?: string;
      tool_calls?: {
        id?: string;
        type?: string;
        function?: { name?: string; arguments?: unknown };
      }[];
    };
    finish_reason?: string | null;
  }[];
  usage?: unknown;
}

/** Whether a request asked for a stream, from its JSON body text. */
export function asksForStream(body: unknown): boolean {
  return typeof body === "string" && /"stream"\s*:\s*true/.test(body);
}

/**
 * Turns a plain JSON completion answer into an SSE answer with the same
 * content. A JSON error sent with status 200 (some proxies do) fails as an
 * EndpointError with the server's message.
 */
export async function jsonToSse(
  response: Response,
  url: string,
): Promise<Response> {
  const body = await readBodyStart(response, MAX_JSON_ANSWER_BYTES);
  if (body.cut) {
    throw new EndpointError(
      `Model endpoint ${url} answered 200 with a JSON body over ${MAX_JSON_ANSWER_BYTES} bytes, not a stream of chat completions; check the base URL`,
      { url, status: 200 },
    );
  }
  const completion = JSON.parse(body.text) as Completion & {
    error?: { message?: unknown } | string;
  };
  if (completion.choices === undefined && completion.error !== undefined) {
    const { error } = completion;
    const message = typeof error === "string" ? error : String(error.message);
    throw new EndpointError(
      `Model endpoint ${url} answered 200 with an error: ${message}`,
      { url, status: 200 },
    );
  }
  const base = {
    id: completion.id ?? "chatcmpl-replayed",
    object: "chat.completion.chunk",
    created: completion.created ?? Math.floor(Date.now() / 1000),
    model: completion.model ?? "",
  };
  const chunks = (completion.choices ?? []).flatMap((choice, position) => {
    const index = choice.index ?? position;
    const message = choice.message ?? {};
    const delta: Record<string, unknown> = {
      role: "assistant",
      content: message.content ?? "",
    };
    if (message.reasoning_content) {
      delta.reasoning_content = message.reasoning_content;
    }
    if (message.tool_calls?.length) {
      delta.tool_calls = message.tool_calls.map((call, i) => ({
        index: i,
        ...call,
        // Some servers send the arguments as an object rather than JSON text.
        function: {
          ...call.function,
          arguments: argumentsText(call.function?.arguments),
        },
      }));
    }
    return [
      { ...base, choices: [{ index, delta, finish_reason: null }] },
      {
        ...base,
        choices: [{
          index,
          delta: {},
          finish_reason: choice.finish_reason ?? "stop",
        }],
      },
    ];
  });
  if (completion.usage) {
    chunks.push({ ...base, choices: [], usage: completion.usage } as never);
  }
  const text =
    chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") +
    "data: [DONE]\n\n";
  const headers = new Headers(response.headers);
  headers.set("content-type", "text/event-stream");
  headers.delete("content-length");
  return new Response(text, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
}

function argumentsText(value: unknown): string {
  if (typeof value === "string") return value;
  return value === undefined ? "{}" : JSON.stringify(value);
}
