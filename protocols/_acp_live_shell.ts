// Shell commands run locally (the editor offers no terminal) shown live: a
// command still running after a second turns its tool call `in_progress`, and
// its output so far streams into the call's content (the last part, at most a
// few updates a second). The result replaces it at the end. A quick command
// shows only its result.
import type * as acp from "@agentclientprotocol/sdk";
import { currentToolCallId } from "../agent/tool_call_scope.ts";
import { createLocalProcesses } from "../tools/shell/local_processes.ts";
import type { ProcessBackend } from "../tools/types.ts";

/** How long a command runs before it is shown live. */
const LIVE_AFTER_MS = 1000;
/** How often the output so far is sent, at most. */
const LIVE_INTERVAL_MS = 250;
/** The most of the output sent live: its end, where a build's news is. */
const LIVE_TAIL_CHARS = 20_000;

/**
 * The local process backend, reporting each command of a tool call through
 * `update` while it runs.
 */
export function liveLocalProcesses(
  update: (update: acp.SessionUpdate) => Promise<void>,
): ProcessBackend {
  const local = createLocalProcesses();
  return {
    sandbox: () => local.sandbox!(),
    async run(request, signal) {
      const toolCallId = currentToolCallId();
      if (toolCallId === undefined) return await local.run(request, signal);
      const send = (fields: Omit<acp.ToolCallUpdate, "toolCallId">) =>
        update({
          sessionUpdate: "tool_call_update",
          toolCallId,
          kind: "execute",
          ...fields,
        }).catch(() => {}); // a closed connection: the run ends anyway
      const live = new LiveText((text) =>
        send({
          content: [{ type: "content", content: { type: "text", text } }],
        })
      );
      const start = setTimeout(() => {
        send({ status: "in_progress" });
        live.start();
      }, LIVE_AFTER_MS);
      try {
        return await local.run(
          { ...request, onOutput: (text) => live.add(text) },
          signal,
        );
      } finally {
        clearTimeout(start);
        live.stop();
      }
    },
  };
}

/** The end of a growing text, sent at most every LIVE_INTERVAL_MS once started. */
class LiveText {
  #text = "";
  #started = false;
  #stopped = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #send: (text: string) => Promise<void>;

  constructor(send: (text: string) => Promise<void>) {
    this.#send = send;
  }

  add(text: string): void {
    this.#text += text;
    if (this.#text.length > 2 * LIVE_TAIL_CHARS) {
      this.#text = this.#text.slice(-LIVE_TAIL_CHARS);
    }
    if (this.#started) this.#schedule();
  }

  /** Sends from now on: what came so far, then what comes. */
  start(): void {
    this.#started = true;
    if (this.#text !== "") this.#schedule();
  }

  /** No more updates: the tool's result follows. */
  stop(): void {
    this.#stopped = true;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #schedule(): void {
    if (this.#stopped) return;
    this.#timer ??= setTimeout(() => {
      this.#timer = undefined;
      this.#send(this.#text.slice(-LIVE_TAIL_CHARS));
    }, LIVE_INTERVAL_MS);
  }
}
