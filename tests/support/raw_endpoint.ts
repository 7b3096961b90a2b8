// A bare Chat Completions endpoint on 127.0.0.1 for answers the scripted
// server cannot give: raw SSE as a given server writes it (its dialect), HTML,
// error chunks, bodies split mid-character or cut off mid-stream.

/** A chunk's `delta`, as servers write it. */
export interface Delta {
  role?: string | null;
  content?: string | null;
  reasoning_content?: string | null;
  reasoning?: string | null;
  tool_calls?: unknown[];
}

/** The parts of a chat request body the tests look at. */
export interface ChatBody {
  messages: {
    role: string;
    content?: unknown;
    reasoning_content?: string;
    tool_calls?: {
      id: string;
      function: { name: string; arguments: string };
    }[];
    tool_call_id?: string;
  }[];
  [key: string]: unknown;
}

/** One Chat Completions chunk as a JSON object; `null` has no choices. */
export function chunk(
  delta: Delta | null,
  finish: string | null = null,
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    id: "chatcmpl-raw",
    object: "chat.completion.chunk",
    created: 1,
    model: "m",
    choices: delta === null ? [] : [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

/** One chunk framed as an SSE event. */
export function event(
  delta: Delta | null,
  finish: string | null = null,
): string {
  return `data: ${JSON.stringify(chunk(delta, finish))}\n\n`;
}

/**
 * Frames chunks as SSE events (`eol` "\r\n" for CRLF servers), a string as
 * is (a comment or a raw line); ends with `data: [DONE]` unless `done` is false.
 */
export function frames(
  items: (Record<string, unknown> | string)[],
  { done = true, eol = "\n" }: { done?: boolean; eol?: string } = {},
): string {
  const lines = items.map((item) =>
    typeof item === "string"
      ? `${item}${eol}${eol}`
      : `data: ${JSON.stringify(item)}${eol}${eol}`
  );
  if (done) lines.push(`data: [DONE]${eol}${eol}`);
  return lines.join("");
}

/** A plain closing answer with this text, as SSE. */
export function answerText(text: string): string {
  return frames([
    chunk({ role: "assistant", content: "" }),
    chunk({ content: text }),
    chunk({}, "stop"),
  ]);
}

/** An SSE response with this body. */
export function sse(body: string | ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    headers: { "content-type": "text/event-stream" },
  });
}

/** A running raw endpoint. */
export interface RawServer extends AsyncDisposable {
  baseURL: string;
  /** The parsed bodies of the chat requests, in order. */
  bodies: ChatBody[];
}

/** An endpoint whose n-th chat request (from 0) gets `reply(n, body)`. */
export function startRawServer(
  reply: (n: number, body: ChatBody) => Response | Promise<Response>,
): RawServer {
  const bodies: ChatBody[] = [];
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      const body = await request.json() as ChatBody;
      bodies.push(body);
      return await reply(bodies.length - 1, body);
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    bodies,
    [Symbol.asyncDispose]: () => server.shutdown(),
  };
}

/** `text` as a stream of pieces `size` bytes long, one per tick. */
export function dribble(
  text: string,
  size: number,
): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (at >= bytes.length) return controller.close();
      controller.enqueue(bytes.slice(at, at + size));
      at += size;
    },
  });
}

/**
 * An endpoint whose answer is cut off: it promises a longer body than it
 * sends, sends one chunk of text and closes the connection.
 */
export function startCutServer(): { baseURL: string } & AsyncDisposable {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const serving = (async () => {
    for await (const connection of listener) {
      const buffer = new Uint8Array(65536);
      await connection.read(buffer); // the request (small enough for one read)
      const body = event({ role: "assistant", content: "Partial ans" });
      await connection.write(
        new TextEncoder().encode(
          "HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\n" +
            `content-length: ${body.length + 10_000}\r\n\r\n${body}`,
        ),
      );
      await new Promise((r) => setTimeout(r, 30));
      connection.close();
    }
  })().catch(() => {});
  const { port } = listener.addr as Deno.NetAddr;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    [Symbol.asyncDispose]: async () => {
      listener.close();
      await serving;
    },
  };
}

/**
 * An endpoint whose every answer never ends: an SSE event each millisecond,
 * its delta `delta(first)` (`first` true for the first event of an answer),
 * until the endpoint is disposed.
 */
export function startEndlessServer(
  delta: (first: boolean) => Delta,
): RawServer {
  let stop = false;
  const encoder = new TextEncoder();
  const server = startRawServer(() => {
    let first = true;
    return sse(
      new ReadableStream({
        async pull(controller) {
          await new Promise((resolve) => setTimeout(resolve, 1));
          if (stop) return controller.close();
          controller.enqueue(encoder.encode(event(delta(first))));
          first = false;
        },
      }),
    );
  });
  return {
    ...server,
    [Symbol.asyncDispose]: () => {
      stop = true;
      return server[Symbol.asyncDispose]();
    },
  };
}
