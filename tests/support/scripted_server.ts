// A scripted OpenAI-compatible Chat Completions server for tests: real HTTP on
// 127.0.0.1, streamed SSE or plain JSON as the client asks, answers scripted per
// conversation, and every request recorded.
//
// A conversation is picked by a substring of its first user message; the reply
// sent is the one at the index of the turn (the number of assistant messages
// already in the request), so parallel conversations (subagents) never mix.

/** One tool call the scripted model makes. */
export interface ScriptedToolCall {
  name: string;
  /** An object (sent as JSON) or a raw string (sent as is, e.g. invalid JSON). */
  arguments: unknown;
  id?: string;
}

/** A failed attempt answered before the real reply. */
export interface ScriptedFailure {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/** What the model answers on one turn. */
export interface ScriptedReply {
  text?: string;
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Wait this long before answering. */
  delayMs?: number;
  /**
   * Wait until this settles before answering (or until the server closes):
   * for a reply that must still be pending when the test does something.
   */
  until?: Promise<unknown>;
  /** Never answer (until the client goes away). */
  hang?: boolean;
  /** Answer these failures first, one per attempt. */
  failures?: ScriptedFailure[];
  /** Computes the reply from the request (e.g. to echo a tool result). */
  compute?: (request: RecordedRequest) => ScriptedReply;
}

/** A conversation: matched by a substring of its first user message. */
export interface ScriptedConversation {
  match: string;
  replies: ScriptedReply[];
}

/** A request the server received. */
export interface RecordedRequest {
  /** The parsed JSON body. */
  body: ChatRequest;
  headers: Headers;
  /** The `match` of the conversation it was routed to, or null. */
  conversation: string | null;
  turn: number;
  /** `performance.now()` when it arrived. */
  at: number;
}

/** The parts of a Chat Completions request the tests look at. */
export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: {
    type: string;
    function: { name: string; description?: string; parameters: unknown };
  }[];
  [key: string]: unknown;
}

/** One message of a Chat Completions request. */
export interface ChatMessage {
  role: string;
  content?: unknown;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

/** A running scripted server. */
export interface ScriptedServer {
  /** The base URL to give the agent, e.g. `http://127.0.0.1:4321/v1`. */
  baseURL: string;
  requests: RecordedRequest[];
  /** Adds a conversation while running. */
  add(conversation: ScriptedConversation): void;
  close(): Promise<void>;
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * Starts a scripted server on a free port of 127.0.0.1; `ignoreStream` makes
 * it answer plain JSON even to streamed requests.
 */
export function startScriptedServer(
  conversations: ScriptedConversation[] = [],
  options: { ignoreStream?: boolean } = {},
): ScriptedServer {
  const script = [...conversations];
  const requests: RecordedRequest[] = [];
  const failuresSent = new Map<string, number>();
  // Deno.serve does not abort a request's signal when the client goes away
  // (and warns when it is read), so slow replies end when the server closes.
  const closing = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const url = new URL(request.url);
      if (request.method === "GET" && url.pathname.endsWith("/models")) {
        return Response.json({
          object: "list",
          data: [{ id: "scripted-model", object: "model" }],
        });
      }
      if (
        request.method !== "POST" || !url.pathname.endsWith("/chat/completions")
      ) {
        return new Response("not found", { status: 404 });
      }
      const body = await request.json() as ChatRequest;
      const conversation = findConversation(script, body.messages);
      const turn = body.messages.filter((m) => m.role === "assistant").length;
      const recorded: RecordedRequest = {
        body,
        headers: request.headers,
        conversation: conversation?.match ?? null,
        turn,
        at: performance.now(),
      };
      requests.push(recorded);
      let reply = conversation?.replies[turn];
      if (!reply) {
        return errorResponse(
          400,
          `no scripted reply for turn ${turn} of ${
            JSON.stringify(firstUserText(body.messages))
          }`,
        );
      }
      const key = `${conversation!.match}#${turn}`;
      const sent = failuresSent.get(key) ?? 0;
      const failure = reply.failures?.[sent];
      if (failure) {
        failuresSent.set(key, sent + 1);
        return new Response(
          failure.body ??
            JSON.stringify({
              error: { message: `scripted ${failure.status}` },
            }),
          {
            status: failure.status,
            headers: { "content-type": "application/json", ...failure.headers },
          },
        );
      }
      if (reply.compute) reply = { ...reply, ...reply.compute(recorded) };
      if (reply.hang) return await hang(closing.signal);
      if (reply.delayMs) await delay(reply.delayMs, closing.signal);
      if (reply.until) await untilOrClosed(reply.until, closing.signal);
      // Like some real servers, `ignoreStream` answers plain JSON regardless.
      return body.stream && !options.ignoreStream
        ? streamed(body, reply)
        : plain(body, reply);
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  const close = async () => {
    closing.abort();
    await server.shutdown();
  };
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    add: (conversation) => void script.push(conversation),
    close,
    [Symbol.asyncDispose]: close,
  };
}

/** A base URL where nothing listens (the port was just freed). */
export function unusedBaseURL(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `http://127.0.0.1:${port}/v1`;
}

/** The text of a message's content, whether a string or parts. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((part) => (part?.type === "text" ? String(part.text) : ""))
    .join("");
}

/** The tool messages of a request, in order. */
export function toolMessages(request: RecordedRequest): ChatMessage[] {
  return request.body.messages.filter((m) => m.role === "tool");
}

function firstUserText(messages: ChatMessage[]): string {
  const first = messages.find((m) => m.role === "user");
  return first ? contentText(first.content) : "";
}

function findConversation(
  script: ScriptedConversation[],
  messages: ChatMessage[],
): ScriptedConversation | undefined {
  const text = firstUserText(messages);
  return script.find((conversation) => text.includes(conversation.match));
}

function errorResponse(status: number, message: string): Response {
  return Response.json({ error: { message } }, { status });
}

function toolCallsOf(reply: ScriptedReply, turn: string) {
  return (reply.toolCalls ?? []).map((call, index) => ({
    id: call.id ?? `call_${turn}_${index}`,
    type: "function",
    function: {
      name: call.name,
      arguments: typeof call.arguments === "string"
        ? call.arguments
        : JSON.stringify(call.arguments),
    },
  }));
}

function finishReason(reply: ScriptedReply): string {
  return reply.toolCalls?.length ? "tool_calls" : "stop";
}

const USAGE = { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 };

function plain(body: ChatRequest, reply: ScriptedReply): Response {
  const id = crypto.randomUUID().slice(0, 8);
  const calls = toolCallsOf(reply, id);
  return Response.json({
    id: `chatcmpl-${id}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [{
      index: 0,
      message: {
        role: "assistant",
        content: reply.text ?? null,
        ...(reply.reasoning ? { reasoning_content: reply.reasoning } : {}),
        ...(calls.length ? { tool_calls: calls } : {}),
      },
      finish_reason: finishReason(reply),
    }],
    usage: USAGE,
  });
}

function streamed(body: ChatRequest, reply: ScriptedReply): Response {
  const id = crypto.randomUUID().slice(0, 8);
  const base = {
    id: `chatcmpl-${id}`,
    object: "chat.completion.chunk",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
  };
  const chunk = (delta: unknown, finish: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const events: unknown[] = [chunk({ role: "assistant", content: "" })];
  if (reply.reasoning) {
    events.push(chunk({ reasoning_content: reply.reasoning }));
  }
  for (const piece of pieces(reply.text ?? "")) {
    events.push(chunk({ content: piece }));
  }
  toolCallsOf(reply, id).forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, ...call }] }));
  });
  events.push(chunk({}, finishReason(reply)));
  const options = body.stream_options as
    | { include_usage?: boolean }
    | undefined;
  if (options?.include_usage) {
    events.push({ ...base, choices: [], usage: USAGE });
  }
  const encoder = new TextEncoder();
  const text = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") +
    "data: [DONE]\n\n";
  return new Response(encoder.encode(text), {
    headers: {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
    },
  });
}

/** Splits text in a few pieces so clients see several deltas. */
function pieces(text: string): string[] {
  if (text.length === 0) return [];
  const size = Math.max(1, Math.ceil(text.length / 3));
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}

function untilOrClosed(
  promise: Promise<unknown>,
  signal: AbortSignal,
): Promise<void> {
  return new Promise((resolve) => {
    promise.then(() => resolve(), () => resolve());
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}

function hang(signal: AbortSignal): Promise<Response> {
  return new Promise((resolve) => {
    signal.addEventListener(
      "abort",
      () => resolve(new Response(null, { status: 499 })),
      { once: true },
    );
  });
}

/**
 * A server that answers every prompt (up to `turns` of them) with "heard: "
 * and the user messages of the request, joined by " | ".
 */
export function startEchoServer(turns = 10): ScriptedServer {
  return startScriptedServer([{
    match: "",
    replies: Array.from({ length: turns }, () => ({
      compute: (request) => ({
        text: `heard: ${
          request.body.messages.filter((m) => m.role === "user")
            .map((m) => contentText(m.content) || String(m.content)).join(" | ")
        }`,
      }),
    })),
  }]);
}

/** The text the model saw as the result of tool call `toolCallId` ("" if none). */
export function toolResultText(
  server: ScriptedServer,
  toolCallId: string,
): string {
  for (const request of server.requests) {
    const message = toolMessages(request).find((m) =>
      m.tool_call_id === toolCallId
    );
    if (message) return contentText(message.content);
  }
  return "";
}

/** A reply in which the model calls the tool `name` with `args`. */
export function callsTool(name: string, args: unknown): ScriptedReply {
  return { toolCalls: [{ name, arguments: args }] };
}

/** The replies of a model that makes one tool call, then answers `text`. */
export function callThen(
  call: ScriptedToolCall,
  text: string,
): ScriptedReply[] {
  return [{ toolCalls: [call] }, { text }];
}

/** The text the model saw for each tool call of a request, in order. */
export function toolTexts(request: RecordedRequest): string[] {
  return toolMessages(request).map((message) => contentText(message.content));
}
