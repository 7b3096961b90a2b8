// The fetch every model request goes through: it retries 429, 5xx and
// connection failures with exponential backoff inside a total time budget,
// bounds the wait for headers and the gaps between body chunks, and turns a
// final failure into an EndpointError naming the URL and the status (a missing
// --allow-net into a NotCapable naming the flag, at once). The AI SDK is told
// not to retry, so these are the only retries and the budget holds.
import { EndpointError } from "./endpoint_error.ts";
import { asksForStream, jsonToSse } from "./_json_to_sse.ts";
import { withFinishReason } from "./_sse_finish.ts";
import { readBodyStart } from "./read_body.ts";
import { isError, runtimeError } from "../internal/runtime/runtime.ts";

/** Timing and retry settings of {@linkcode createEndpointFetch}. */
export interface EndpointFetchOptions {
  /** The fetch to wrap; defaults to the global one. */
  fetch?: typeof fetch;
  /** Retries after the first attempt. */
  maxRetries?: number;
  /** The first backoff delay; each later one doubles, up to 8 s. */
  initialDelayMs?: number;
  /**
   * Retries end within this long after the first attempt started: none starts
   * without a second to spare, and each waits at most for what is left.
   */
  retryBudgetMs?: number;
  /** How long to wait for the response headers, and then between body chunks. */
  requestTimeoutMs?: number;
  /** Told before each retry, e.g. to show "retrying in 2 s". */
  onRetry?: (notice: RetryNotice) => void;
  /** The longest line of a streamed answer, in bytes; defaults to 64 MiB. */
  maxAnswerLineBytes?: number;
}

/** What a retry is about to do. */
export interface RetryNotice {
  url: string;
  /** The failed attempt, 1-based. */
  attempt: number;
  status?: number;
  reason: string;
  delayMs: number;
}

/** The defaults: 5 attempts within 30 s, two minutes of silence at most. */
export const ENDPOINT_DEFAULTS: Required<
  Pick<
    EndpointFetchOptions,
    "maxRetries" | "initialDelayMs" | "retryBudgetMs" | "requestTimeoutMs"
  >
> = {
  maxRetries: 4,
  initialDelayMs: 500,
  retryBudgetMs: 30_000,
  requestTimeoutMs: 120_000,
};

const MAX_DELAY_MS = 8_000;
/** A retry is worth starting only with at least this long to get its answer. */
const MIN_RETRY_TIMEOUT_MS = 1_000;

type Attempt =
  | { kind: "response"; response: Response }
  | {
    kind: "retry";
    status?: number;
    reason: string;
    retryAfterMs?: number;
    timedOut?: boolean;
    cause?: unknown;
  };

/** Wraps `fetch` with the retries, timeouts and errors described above. */
export function createEndpointFetch(
  options: EndpointFetchOptions = {},
): typeof fetch {
  const settings = { ...ENDPOINT_DEFAULTS, ...definedOnly(options) };
  const base = options.fetch ?? globalThis.fetch;
  return async function endpointFetch(input, init = {}): Promise<Response> {
    const url = urlOf(input);
    const started = Date.now();
    for (let attempt = 1;; attempt++) {
      // A retry waits for its answer only as long as the budget has left, so
      // failing attempts end within the budget; the first gets the full time
      // (a local server may take a while to load its model).
      const left = settings.retryBudgetMs - (Date.now() - started);
      const timeoutMs = attempt === 1 ? settings.requestTimeoutMs : Math.min(
        settings.requestTimeoutMs,
        Math.max(left, MIN_RETRY_TIMEOUT_MS),
      );
      const outcome = await attemptOnce(
        { base, input, init, url },
        { timeoutMs, maxLineBytes: options.maxAnswerLineBytes },
      );
      if (outcome.kind === "response") return outcome.response;
      const delayMs = outcome.retryAfterMs ??
        Math.min(settings.initialDelayMs * 2 ** (attempt - 1), MAX_DELAY_MS);
      const elapsed = Date.now() - started;
      if (
        attempt > settings.maxRetries ||
        elapsed + delayMs + MIN_RETRY_TIMEOUT_MS > settings.retryBudgetMs
      ) {
        throw giveUp(url, outcome, {
          attempts: attempt,
          elapsedMs: elapsed,
          budgetMs: settings.retryBudgetMs,
        });
      }
      options.onRetry?.({
        url,
        attempt,
        status: outcome.status,
        reason: outcome.reason,
        delayMs,
      });
      await sleep(delayMs, init.signal ?? undefined);
    }
  };
}

/** One request as the caller made it, with the fetch that sends it. */
interface RequestSpec {
  base: typeof fetch;
  input: RequestInfo | URL;
  init: RequestInit;
  url: string;
}

async function attemptOnce(
  request: RequestSpec,
  limits: { timeoutMs: number; maxLineBytes?: number },
): Promise<Attempt> {
  const { timeoutMs, maxLineBytes = MAX_ANSWER_LINE_BYTES } = limits;
  const { base, input, init, url } = request;
  const timeout = new AbortController();
  const signal = init.signal
    ? AbortSignal.any([init.signal, timeout.signal])
    : timeout.signal;
  const timer = setTimeout(() => timeout.abort(), timeoutMs);
  try {
    const response = await base(input, { ...init, signal });
    if (response.ok) {
      const streaming = asksForStream(init.body);
      if (streaming) refuseHtml(response, url);
      const json = streaming && isJson(response);
      const answer = json
        ? await jsonToSse(response, url) // a server that ignores `stream: true`
        : response;
      const timed = withIdleTimeout(answer, url, { timeoutMs, maxLineBytes });
      return {
        kind: "response",
        // An SSE answer that reached [DONE] is complete, finish_reason or not.
        response: streaming && !json ? withFinishReason(timed) : timed,
      };
    }
    const detail = await errorDetail(response);
    if (response.status === 429 || response.status >= 500) {
      return {
        kind: "retry",
        status: response.status,
        reason: detail,
        retryAfterMs: retryAfter(response),
      };
    }
    throw new EndpointError(
      `Model endpoint ${url} answered ${statusLine(response)}: ${detail}`,
      { url, status: response.status },
    );
  } catch (error) {
    if (init.signal?.aborted) throw init.signal.reason;
    if (timeout.signal.aborted) {
      return {
        kind: "retry",
        reason: `no answer within ${seconds(timeoutMs)}`,
        timedOut: true,
        cause: error,
      };
    }
    if (error instanceof TypeError) {
      return { kind: "retry", reason: networkReason(error), cause: error };
    }
    if (isError(error, "notCapable")) throw netDenied(url, error as Error);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

// Deno's own gate, not the endpoint: no retry can help, and its message
// ("run again with the --allow-net flag") names neither the flag's value nor
// the URL. Stays a NotCapable, so it reads as a setup problem, not the server's.
function netDenied(url: string, error: Error): Error {
  const host = new URL(url).host;
  return runtimeError(
    "notCapable",
    `Cannot reach the model endpoint ${url}: Deno denies network access to "${host}"; run deno again with --allow-net=${host} (or --allow-net)`,
    { cause: error },
  );
}

function giveUp(
  url: string,
  outcome: Extract<Attempt, { kind: "retry" }>,
  { attempts, elapsedMs, budgetMs }: {
    attempts: number;
    elapsedMs: number;
    budgetMs: number;
  },
): EndpointError {
  let tries = attempts === 1
    ? "1 attempt"
    : `${attempts} attempts over ${seconds(elapsedMs)}`;
  // A wait the endpoint asked for that the budget cannot give: say so.
  const asked = outcome.retryAfterMs;
  if (asked !== undefined && elapsedMs + asked > budgetMs) {
    tries += `; it asks to retry after ${seconds(asked)}, past the ${
      seconds(budgetMs)
    } retry budget`;
  }
  const message = outcome.status !== undefined
    ? `Model endpoint ${url} answered ${outcome.status}: ${outcome.reason} (${tries})`
    : outcome.timedOut
    ? `Model endpoint ${url} did not answer: ${outcome.reason} (${tries})`
    : `Cannot reach the model endpoint ${url}: ${outcome.reason} (${tries})`;
  return new EndpointError(message, {
    url,
    status: outcome.status,
    attempts,
    cause: outcome.cause,
  });
}

/**
 * The longest line a streamed answer may send: an SSE event is a line, and
 * the SDK's parser keeps a line whole until its newline, so a server sending
 * one without end would fill the memory (the reply cap counts parsed text).
 */
const MAX_ANSWER_LINE_BYTES = 64 * 1024 * 1024;

/**
 * Re-wraps a body so a stalled stream fails instead of hanging forever, and a
 * line without end fails instead of filling the memory.
 */
function withIdleTimeout(
  response: Response,
  url: string,
  limits: { timeoutMs: number; maxLineBytes: number },
): Response {
  const { timeoutMs: idleMs, maxLineBytes } = limits;
  if (!response.body) return response;
  const reader = response.body.getReader();
  let finished = false;
  /** Bytes since the last newline. */
  let lineBytes = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const timer = setTimeout(() => {
        finished = true;
        controller.error(
          new EndpointError(
            `Model endpoint ${url} stopped sending for ${seconds(idleMs)}`,
            { url },
          ),
        );
        reader.cancel().catch(() => {});
      }, idleMs);
      try {
        const { done, value } = await reader.read();
        if (finished) return;
        if (done) {
          finished = true;
          controller.close();
          return;
        }
        const newline = value.lastIndexOf(0x0a);
        lineBytes = newline < 0
          ? lineBytes + value.byteLength
          : value.byteLength - newline - 1;
        if (lineBytes > maxLineBytes) {
          finished = true;
          reader.cancel().catch(() => {});
          controller.error(
            new EndpointError(
              `Model endpoint ${url} sent a line of over ${maxLineBytes} bytes without an end`,
              { url, status: response.status },
            ),
          );
          return;
        }
        controller.enqueue(value);
      } catch (error) {
        if (!finished) controller.error(error);
        finished = true;
      } finally {
        clearTimeout(timer);
      }
    },
    cancel(reason) {
      finished = true;
      return reader.cancel(reason);
    },
  });
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

/**
 * The most useful short text of an error answer, on one line: the API's
 * message, a web page's title, or the body's start.
 */
async function errorDetail(response: Response): Promise<string> {
  let text = "";
  try {
    text = (await readBodyStart(response, MAX_ERROR_BODY_BYTES)).text.trim();
  } catch {
    return statusLine(response);
  }
  try {
    const parsed = JSON.parse(text);
    const message = parsed?.error?.message ?? parsed?.message ?? parsed?.error;
    if (typeof message === "string" && message) return oneLine(message);
  } catch {
    // Not JSON: show the text itself.
  }
  if (isHtml(response, text)) return webPageDetail(text);
  return text ? oneLine(text).slice(0, 300) : statusLine(response);
}

/**
 * How much of an error answer is read: its message is all that is shown (300
 * characters), and a body that never ends must not keep the run waiting.
 */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

// A proxy's or web server's error page: its markup would spread over many
// lines and hide the status, so only its title (or its text) is kept.
function webPageDetail(html: string): string {
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1];
  const words = oneLine(
    title ??
      html.replace(/<(script|style)\b[\s\S]*?<\/\1>/gi, " ")
        .replace(/<[^>]*>/g, " "),
  ).slice(0, 120);
  return `a web page${
    words ? ` ("${words}")` : ""
  }, not an API's answer (an OpenAI-compatible API's base URL usually ends in /v1)`;
}

function isHtml(response: Response, text: string): boolean {
  return (response.headers.get("content-type")?.includes("text/html") ??
    false) || /^<(!doctype|html)\b/i.test(text);
}

/** Collapses line breaks and runs of spaces, so a detail fits one line. */
function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

// A web page where the API was expected: a proxy's login page, or a web UI
// at the base URL.
function refuseHtml(response: Response, url: string): void {
  if (!response.headers.get("content-type")?.includes("text/html")) return;
  response.body?.cancel().catch(() => {});
  throw new EndpointError(
    `Model endpoint ${url} answered 200 with a web page (text/html), not a stream of chat completions; check the base URL (an OpenAI-compatible API's usually ends in /v1)`,
    { url, status: 200 },
  );
}

function isJson(response: Response): boolean {
  return response.headers.get("content-type")?.includes("application/json") ??
    false;
}

function statusLine(response: Response): string {
  return `${response.status}${
    response.statusText ? ` ${response.statusText}` : ""
  }`;
}

/** Honors Retry-After (seconds or a date) and retry-after-ms, as OpenAI sends them. */
function retryAfter(response: Response): number | undefined {
  const ms = Number(response.headers.get("retry-after-ms"));
  if (Number.isFinite(ms) && ms > 0) return ms;
  const header = response.headers.get("retry-after");
  if (!header) return undefined;
  const secondsValue = Number(header);
  if (Number.isFinite(secondsValue)) return Math.max(0, secondsValue * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/**
 * Deno says "fetch failed" and keeps the reason in the causes, ending like
 * "...: tcp connect error: Connection refused (os error 111)".
 */
function networkReason(error: TypeError): string {
  let deepest: unknown = error;
  for (
    let depth = 0;
    depth < 5 && deepest instanceof Error && deepest.cause;
    depth++
  ) {
    deepest = deepest.cause;
  }
  const message = deepest instanceof Error ? deepest.message : String(deepest);
  const last = message.split(": ").at(-1) ?? message;
  return last.replace(/\s*\(os error \d+\)$/, "").toLowerCase() ||
    "connection failed";
}

function urlOf(input: RequestInfo | URL): string {
  if (typeof input === "string") return input;
  if (input instanceof URL) return input.href;
  return input.url;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== undefined),
  ) as Partial<T>;
}
