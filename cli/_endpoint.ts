// Where the model lives, as the commands that talk to one (run, acp) read it:
// flags first, then FELLO_* variables, then OPENAI_* ones, then a local Ollama.
// Also finds a model when none is named, and words endpoint failures.
import { DEFAULT_BASE_URL } from "../agent/agent.ts";
import { EndpointError } from "../agent/endpoint_error.ts";
import { createEndpointFetch } from "../agent/endpoint_fetch.ts";
import { readBodyStart } from "../agent/read_body.ts";
import { runtime } from "../internal/runtime/runtime.ts";

/** The `node:util` parseArgs options for the endpoint flags. */
export const ENDPOINT_FLAGS = {
  model: { type: "string" },
  "base-url": { type: "string" },
  "api-key": { type: "string" },
} as const;

/** The help lines for {@linkcode ENDPOINT_FLAGS}. */
export const ENDPOINT_USAGE =
  `  --model NAME            the model (env FELLO_MODEL; default: the endpoint's first model,
                          or qwen3 when it lists none)
  --base-url URL          an OpenAI-compatible endpoint (env FELLO_BASE_URL or OPENAI_BASE_URL;
                          default ${DEFAULT_BASE_URL}, a local Ollama)
  --api-key KEY           sent as a bearer token (env FELLO_API_KEY or OPENAI_API_KEY)`;

/** The endpoint settings a command runs with. */
export interface EndpointSettings {
  baseURL: string;
  apiKey?: string;
  /** Undefined when neither a flag nor the environment names one. */
  model?: string;
}

/** Parsed flag values, as parseArgs returns them for {@linkcode ENDPOINT_FLAGS}. */
export interface EndpointFlagValues {
  model?: string;
  "base-url"?: string;
  "api-key"?: string;
}

/** Reads an environment variable; a missing `--allow-env` reads as unset. */
export type EnvReader = (name: string) => string | undefined;

/** Combines flags and environment into settings; throws a usage error for a bad URL. */
export function resolveEndpoint(
  values: EndpointFlagValues,
  env: EnvReader = readEnv,
): EndpointSettings {
  const pick = (...candidates: (string | undefined)[]) =>
    candidates.map((c) => c?.trim()).find((c) => c);
  const baseURL =
    pick(values["base-url"], env("FELLO_BASE_URL"), env("OPENAI_BASE_URL")) ??
      DEFAULT_BASE_URL;
  if (!URL.canParse(baseURL) || !/^https?:$/.test(new URL(baseURL).protocol)) {
    throw new TypeError(
      `the base URL "${baseURL}" is not an http(s) URL; pass --base-url like ${DEFAULT_BASE_URL} (or set FELLO_BASE_URL)`,
    );
  }
  const settings: EndpointSettings = { baseURL: baseURL.replace(/\/+$/, "") };
  const apiKey = pick(
    values["api-key"],
    env("FELLO_API_KEY"),
    env("OPENAI_API_KEY"),
  );
  if (apiKey) settings.apiKey = apiKey;
  const model = pick(values.model, env("FELLO_MODEL"));
  if (model) settings.model = model;
  return settings;
}

/** The model used when none is configured and the endpoint lists none. */
export const FALLBACK_MODEL: string = "qwen3";

/**
 * The model to use: the configured one, or else the first the endpoint lists
 * at `GET /models` (Ollama, vLLM and hosted providers answer it), or else
 * {@linkcode FALLBACK_MODEL} when the endpoint cannot list its models. Throws
 * an EndpointError only when the endpoint cannot be reached at all.
 */
export async function resolveModel(
  settings: EndpointSettings,
  options: { fetch?: typeof fetch; signal?: AbortSignal } = {},
): Promise<string> {
  if (settings.model) return settings.model;
  const headers: Record<string, string> = {};
  if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
  // One attempt: without a model there is nothing to wait for, so fail fast.
  const get = createEndpointFetch({
    fetch: options.fetch,
    maxRetries: 0,
    requestTimeoutMs: 15_000,
  });
  let response: Response;
  try {
    response = await get(`${settings.baseURL}/models`, {
      headers,
      signal: options.signal,
    });
  } catch (error) {
    // An HTTP answer means the server is there; the chat request will tell more.
    if (error instanceof EndpointError && error.status !== undefined) {
      return FALLBACK_MODEL;
    }
    throw error;
  }
  // A list of models is small: a body past a few MB is no such list (and one
  // that never ends would be read for ever).
  const body = await readBodyStart(response, MAX_MODELS_BYTES)
    .then(({ text }) => JSON.parse(text)).catch(() => undefined) as
      | { data?: { id?: unknown }[] }
      | undefined;
  const first = body?.data?.find((m) => typeof m?.id === "string")?.id;
  return typeof first === "string" ? first : FALLBACK_MODEL;
}

/** The most of a GET /models answer read, in bytes. */
const MAX_MODELS_BYTES = 4 * 1024 * 1024;

/** One line telling a person what failed and how to point fello elsewhere. */
export function describeEndpointFailure(error: EndpointError): string {
  return `${error.message}; ${hintFor(error)}`;
}

// What to do: the server's words say what went wrong, the status who can fix it.
function hintFor({ status, message }: EndpointError): string {
  if (status === 401 || status === 403) {
    return "check --api-key (or FELLO_API_KEY / OPENAI_API_KEY)";
  }
  if (status === 404) {
    return "check --model and --base-url (or FELLO_MODEL / FELLO_BASE_URL)";
  }
  if (status === 429) {
    return "the endpoint limits how often it may be asked: wait, then run again";
  }
  if (status === 400 && CONTEXT_WORDS.test(message)) {
    return "the conversation is larger than the model's context window: pass --context-tokens below it (e.g. --context-tokens 3000 for a 4096-token model)";
  }
  if (status === undefined && SILENCE_WORDS.test(message)) {
    return "the server is there but went silent: check that it is not stuck or overloaded (a model still loading?), then run again";
  }
  if (status === undefined) {
    return "start the server, or point fello at another with --base-url (or FELLO_BASE_URL), --model and --api-key";
  }
  return "the server answered but cannot serve the request: check --base-url and --model, or try again later";
}

// How the endpoint fetch says a server took the request but never answered,
// or stopped in the middle of its answer.
const SILENCE_WORDS = /\bdid not answer\b|\bstopped sending\b/;

// How servers say a request is over the model's context (vLLM, llama.cpp,
// OpenAI, LiteLLM).
const CONTEXT_WORDS =
  /context (?:length|size|window)|exceed_context|maximum context|too many tokens|prompt is too long/i;

function readEnv(name: string): string | undefined {
  try {
    return runtime.env.get(name);
  } catch {
    return undefined;
  }
}
