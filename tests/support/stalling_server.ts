// A local OpenAI-compatible endpoint that starts a streamed answer and then
// stops sending: the endpoint a stall (not a dead server) looks like.

/** A local OpenAI-compatible endpoint that can stall in the middle of a reply. */
export interface StallingServer {
  baseURL: string;
  close(): Promise<void>;
}

/**
 * Starts an endpoint on 127.0.0.1: a request whose last message mentions
 * "stall" gets the start of a streamed answer ("partial answer ") and then
 * nothing more until the server closes; any other gets "fine".
 */
export function startStallingServer(): StallingServer {
  const closing = new AbortController();
  const encoder = new TextEncoder();
  const chunk = (delta: unknown, finish: string | null = null) =>
    encoder.encode(
      `data: ${
        JSON.stringify({
          id: "chatcmpl-stall",
          object: "chat.completion.chunk",
          created: 1,
          model: "m",
          choices: [{ index: 0, delta, finish_reason: finish }],
        })
      }\n\n`,
    );
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    async (request) => {
      if (new URL(request.url).pathname.endsWith("/models")) {
        return Response.json({ data: [{ id: "m", object: "model" }] });
      }
      const body = await request.json() as {
        messages: { content: unknown }[];
      };
      const stall = JSON.stringify(body.messages.at(-1)?.content).includes(
        "stall",
      );
      const stream = new ReadableStream<Uint8Array>({
        async start(controller) {
          controller.enqueue(chunk({ role: "assistant", content: "" }));
          if (stall) {
            controller.enqueue(chunk({ content: "partial answer " }));
            await new Promise((resolve) =>
              closing.signal.addEventListener("abort", resolve, { once: true })
            );
          } else {
            controller.enqueue(chunk({ content: "fine" }));
            controller.enqueue(chunk({}, "stop"));
            controller.enqueue(encoder.encode("data: [DONE]\n\n"));
          }
          try {
            controller.close();
          } catch {
            // The client went away first.
          }
        },
      });
      return new Response(stream, {
        headers: { "content-type": "text/event-stream" },
      });
    },
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    async close() {
      closing.abort();
      await server.shutdown();
    },
  };
}
