/**
 * The error an agent run fails with when the model endpoint cannot be used:
 * it cannot be reached, keeps failing after the retries, or refuses the request.
 * Its message names the URL and the status so a person can fix the setup.
 *
 * Requires `--allow-net` for the endpoint.
 *
 * @example Tell a setup problem from other failures
 * ```ts
 * import { createAgent, EndpointError } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * // Port 9 (discard) has no server: the endpoint cannot be reached.
 * const agent = createAgent({ baseURL: "http://127.0.0.1:9/v1", model: "m", maxRetries: 0 });
 * await assert.rejects(agent.run("Hello"), (error) => {
 *   assert.ok(error instanceof EndpointError);
 *   assert.match(error.message, /127\.0\.0\.1:9/);
 *   return true;
 * });
 * ```
 */
export class EndpointError extends Error {
  /** The URL that failed, e.g. `http://127.0.0.1:11434/v1/chat/completions`. */
  readonly url: string;
  /** The HTTP status of the last answer, or `undefined` when none came. */
  readonly status: number | undefined;
  /** How many requests were made before giving up. */
  readonly attempts: number;

  /** Creates an endpoint error; `message` should name the URL and the status. */
  constructor(
    message: string,
    details: {
      url: string;
      status?: number;
      attempts?: number;
      cause?: unknown;
    },
  ) {
    super(message, { cause: details.cause });
    this.name = "EndpointError";
    this.url = details.url;
    this.status = details.status;
    this.attempts = details.attempts ?? 1;
  }
}
