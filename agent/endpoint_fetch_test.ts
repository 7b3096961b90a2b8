import assert from "node:assert/strict";
import { createEndpointFetch, type RetryNotice } from "./endpoint_fetch.ts";
import { EndpointError } from "./endpoint_error.ts";

/** A local server answering with `answer(n)` for the n-th request (0-based). */
function serve(answer: (n: number) => Response | Promise<Response>) {
  let count = 0;
  const closing = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => answer(count++),
  );
  const { port } = server.addr as Deno.NetAddr;
  return {
    url: `http://127.0.0.1:${port}/v1/chat/completions`,
    get count() {
      return count;
    },
    closing: closing.signal,
    async [Symbol.asyncDispose]() {
      closing.abort();
      await server.shutdown();
    },
  };
}

Deno.test("createEndpointFetch() retries 503 and 429 with backoff, then returns the answer", async () => {
  await using server = serve((n) =>
    n === 0
      ? new Response("overloaded", { status: 503 })
      : n === 1
      ? new Response("slow down", {
        status: 429,
        headers: { "retry-after-ms": "20" },
      })
      : new Response("fine")
  );
  const notices: RetryNotice[] = [];
  const fetch = createEndpointFetch({
    initialDelayMs: 10,
    onRetry: (n) => notices.push(n),
  });
  const response = await fetch(server.url, { method: "POST", body: "{}" });
  assert.equal(await response.text(), "fine");
  assert.equal(server.count, 3);
  assert.deepEqual(
    notices.map((n) => [n.attempt, n.status, n.reason, n.delayMs]),
    [
      [1, 503, "overloaded", 10],
      [2, 429, "slow down", 20],
    ],
  );
});

Deno.test("createEndpointFetch() gives up after maxRetries with an error naming the URL and status", async () => {
  await using server = serve(() =>
    Response.json({ error: { message: "model is loading" } }, { status: 500 })
  );
  const fetch = createEndpointFetch({ maxRetries: 2, initialDelayMs: 5 });
  const error = await fetch(server.url).then(() => undefined, (e) => e);
  assert.ok(error instanceof EndpointError);
  assert.equal(error.status, 500);
  assert.equal(error.attempts, 3);
  assert.equal(error.url, server.url);
  assert.match(
    error.message,
    new RegExp(
      `^Model endpoint ${server.url} answered 500: model is loading \\(3 attempts over`,
    ),
  );
});

Deno.test("createEndpointFetch() starts no retry that the time budget cannot fit", async () => {
  await using server = serve(() => new Response("busy", { status: 503 }));
  const fetch = createEndpointFetch({
    maxRetries: 10,
    initialDelayMs: 400,
    retryBudgetMs: 3400,
  });
  await assert.rejects(fetch(server.url), EndpointError);
  // Retry 1 waits 0.4 s, retry 2 0.8 s (it fits while it starts before
  // 1.6 s: slack for a loaded machine); retry 3 would come after at least
  // 1.2 s of waiting, wait 1.6 s and still need a second for its answer:
  // past 3.4 s, so it never starts.
  assert.equal(server.count, 3);
});

Deno.test("createEndpointFetch() gives a retry only the time left in the budget", async () => {
  await using server = serve(async (n) => {
    if (n === 0) return new Response("busy", { status: 503 });
    // The retry hangs until the server closes.
    await new Promise((r) => server.closing.addEventListener("abort", r));
    return new Response("too late");
  });
  const fetch = createEndpointFetch({
    initialDelayMs: 100,
    retryBudgetMs: 2500,
    requestTimeoutMs: 60_000,
  });
  const started = performance.now();
  // The retry starts about 0.1 s in and gets the 2.4 s left (less when the
  // machine is slow, never under the 1 s minimum, never the 60 s timeout).
  await assert.rejects(
    fetch(server.url),
    /did not answer: no answer within (1\.\d|2(\.[0-4])?) s \(2 attempts/,
  );
  assert.ok(
    performance.now() - started < 10_000,
    "ends near the 2.5 s budget, not the 60 s timeout",
  );
});

Deno.test("createEndpointFetch() does not retry a 401 and quotes the API's message", async () => {
  await using server = serve(() =>
    Response.json({ error: { message: "Incorrect API key provided" } }, {
      status: 401,
    })
  );
  const fetch = createEndpointFetch({ initialDelayMs: 5 });
  await assert.rejects(fetch(server.url), (error: unknown) => {
    assert.ok(error instanceof EndpointError);
    assert.equal(error.status, 401);
    assert.match(
      error.message,
      /answered 401 Unauthorized: Incorrect API key provided$/,
    );
    return true;
  });
  assert.equal(server.count, 1);
});

Deno.test("createEndpointFetch() names --allow-net for the host when Deno denies the network, without retrying", async () => {
  let calls = 0;
  const fetch = createEndpointFetch({
    initialDelayMs: 5,
    fetch: () => {
      calls++;
      // What Deno's fetch throws without --allow-net (and no prompt).
      throw new Deno.errors.NotCapable(
        'Requires net access to "127.0.0.1:4000", run again with the --allow-net flag',
      );
    },
  });
  await assert.rejects(
    fetch("http://127.0.0.1:4000/v1/chat/completions"),
    (error: unknown) => {
      assert.ok(error instanceof Deno.errors.NotCapable);
      assert.match(
        error.message,
        /Deno denies network access to "127\.0\.0\.1:4000"; run deno again with --allow-net=127\.0\.0\.1:4000/,
      );
      return true;
    },
  );
  assert.equal(calls, 1);
});

Deno.test("createEndpointFetch() fails a body that stalls between chunks", async () => {
  await using server = serve(() => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: first\n\n"));
        // ...and nothing more until the server closes.
      },
    });
    return new Response(body, {
      headers: { "content-type": "text/event-stream" },
    });
  });
  const fetch = createEndpointFetch({ requestTimeoutMs: 200 });
  const response = await fetch(server.url);
  const reader = response.body!.getReader();
  const first = await reader.read();
  assert.equal(new TextDecoder().decode(first.value), "data: first\n\n");
  await assert.rejects(reader.read(), /stopped sending for 0\.2 s/);
});

Deno.test("createEndpointFetch() fails an answer line that never ends", async () => {
  const piece = new TextEncoder().encode("x".repeat(1000));
  await using server = serve(() => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode("data: {}\n\ndata: "));
      },
      pull: (controller) => controller.enqueue(piece),
    });
    return new Response(body, {
      headers: { "content-type": "text/event-stream" },
    });
  });
  const fetch = createEndpointFetch({ maxAnswerLineBytes: 50_000 });
  const response = await fetch(server.url);
  await assert.rejects(
    response.text(),
    /sent a line of over 50000 bytes without an end/,
  );
});

Deno.test("createEndpointFetch() passes an abort through at once, without retrying", async () => {
  await using server = serve(async () => {
    await new Promise((r) => setTimeout(r, 100));
    return new Response("late", { status: 503 });
  });
  const fetch = createEndpointFetch({ initialDelayMs: 5_000 });
  const controller = new AbortController();
  const pending = fetch(server.url, { signal: controller.signal });
  setTimeout(() => controller.abort(), 20);
  await assert.rejects(
    pending,
    (error: unknown) => (error as Error).name === "AbortError",
  );
});

Deno.test("createEndpointFetch() reports an HTML error page by its title, on one line", async () => {
  await using server = serve(() =>
    new Response(
      "<!DOCTYPE html>\n<html>\n<head><title>404 Not Found</title></head>\n" +
        "<body><h1>Not Found</h1></body>\n</html>\n",
      { status: 404, headers: { "content-type": "text/html" } },
    )
  );
  const error = await createEndpointFetch()(server.url).then(
    () => undefined,
    (e) => e,
  );
  assert.ok(error instanceof EndpointError);
  assert.equal(error.status, 404);
  assert.match(
    error.message,
    /answered 404 Not Found: a web page \("404 Not Found"\)/,
  );
  assert.doesNotMatch(error.message, /<|\n/);
});
