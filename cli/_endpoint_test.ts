import assert from "node:assert/strict";
import { EndpointError } from "../agent/endpoint_error.ts";
import { FALLBACK_MODEL, resolveEndpoint, resolveModel } from "./_endpoint.ts";

const env = (vars: Record<string, string>) => (name: string) => vars[name];

Deno.test("resolveEndpoint() prefers flags, then FELLO_*, then OPENAI_*, then a local Ollama", () => {
  assert.deepEqual(resolveEndpoint({}, env({})), {
    baseURL: "http://127.0.0.1:11434/v1",
  });
  assert.deepEqual(
    resolveEndpoint(
      {},
      env({
        OPENAI_BASE_URL: "https://api.example.com/v1/",
        OPENAI_API_KEY: "sk-o",
      }),
    ),
    { baseURL: "https://api.example.com/v1", apiKey: "sk-o" },
  );
  assert.deepEqual(
    resolveEndpoint(
      {},
      env({
        OPENAI_BASE_URL: "https://api.example.com/v1",
        FELLO_BASE_URL: "http://gpu:8000/v1",
        OPENAI_API_KEY: "sk-o",
        FELLO_API_KEY: "sk-f",
        FELLO_MODEL: "qwen3",
      }),
    ),
    { baseURL: "http://gpu:8000/v1", apiKey: "sk-f", model: "qwen3" },
  );
  assert.deepEqual(
    resolveEndpoint(
      {
        "base-url": "http://flag/v1",
        "api-key": "sk-flag",
        model: "flag-model",
      },
      env({ FELLO_BASE_URL: "http://env/v1", FELLO_MODEL: "env-model" }),
    ),
    { baseURL: "http://flag/v1", apiKey: "sk-flag", model: "flag-model" },
  );
});

Deno.test("resolveEndpoint() refuses a base URL that is not http(s)", () => {
  assert.throws(
    () => resolveEndpoint({ "base-url": "localhost:11434" }, env({})),
    /not an http\(s\) URL/,
  );
});

Deno.test("resolveModel() asks the endpoint for its models when none is configured", async () => {
  const requests: Request[] = [];
  const fetch = (input: RequestInfo | URL, init?: RequestInit) => {
    requests.push(new Request(input, init));
    return Promise.resolve(
      Response.json({ data: [{ id: "llama3.2" }, { id: "qwen3" }] }),
    );
  };
  assert.equal(
    await resolveModel({ baseURL: "http://h/v1", model: "set" }, { fetch }),
    "set",
  );
  assert.equal(requests.length, 0);
  assert.equal(
    await resolveModel({ baseURL: "http://h/v1", apiKey: "k" }, { fetch }),
    "llama3.2",
  );
  assert.equal(requests[0].url, "http://h/v1/models");
  assert.equal(requests[0].headers.get("authorization"), "Bearer k");
});

Deno.test("resolveModel() falls back to qwen3 when the endpoint lists no models", async () => {
  const empty = () => Promise.resolve(Response.json({ data: [] }));
  assert.equal(
    await resolveModel({ baseURL: "http://h/v1" }, { fetch: empty }),
    FALLBACK_MODEL,
  );
  const missing = () => Promise.resolve(new Response("no", { status: 404 }));
  assert.equal(
    await resolveModel({ baseURL: "http://h/v1" }, { fetch: missing }),
    "qwen3",
  );
});

Deno.test("resolveModel() fails with an EndpointError when the endpoint cannot be reached", async () => {
  const refused = () => Promise.reject(new TypeError("fetch failed"));
  await assert.rejects(
    resolveModel({ baseURL: "http://h/v1" }, { fetch: refused }),
    (error: unknown) =>
      error instanceof EndpointError &&
      /^Cannot reach the model endpoint http:\/\/h\/v1\/models/.test(
        error.message,
      ),
  );
});
