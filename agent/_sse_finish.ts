// Minimal OpenAI-compatible gateways and proxies end a complete answer with
// `data: [DONE]` but never set `finish_reason`, and the AI SDK's provider
// fails such a stream ("Response stream ended without a finish reason"). A
// stream that reached [DONE] is complete: it gets the finish reason it left
// out ("tool_calls" when it sent tool calls, else "stop") just before [DONE].
// A stream cut before [DONE] is left alone, so it still fails.

const DONE = /^data: ?\[DONE\]\r?$/;
const FINISH = /"finish_reason"\s*:\s*"/;
const TOOL_CALL = /"tool_calls"\s*:\s*\[\s*\{/;
/** A chunk that reports a failure: the stream did not complete. */
const ERROR = /^data: ?\{\s*"error"\s*:/;

/**
 * Returns `response` with a `finish_reason` chunk added before `[DONE]` when
 * its stream of chat completion chunks set none.
 */
export function withFinishReason(response: Response): Response {
  if (response.body === null) return response;
  let finished = false;
  let toolCalls = false;
  // The current line's pieces: joined once, when its newline arrives.
  let pieces: string[] = [];
  const line = (text: string): string => {
    if (text.startsWith("data:")) {
      if (DONE.test(text)) {
        if (finished) return text;
        finished = true;
        return `data: ${_finishChunk(toolCalls)}\n\n${text}`;
      }
      finished ||= FINISH.test(text) || ERROR.test(text);
      toolCalls ||= TOOL_CALL.test(text);
    }
    return text;
  };
  const body = response.body
    .pipeThrough(new TextDecoderStream())
    .pipeThrough(
      new TransformStream<string, string>({
        transform(chunk, controller) {
          const lines = chunk.split("\n");
          if (lines.length === 1) {
            pieces.push(chunk);
            return;
          }
          pieces.push(lines[0]);
          lines[0] = pieces.join("");
          pieces = [lines.pop()!];
          controller.enqueue(lines.map(line).join("\n") + "\n");
        },
        flush(controller) {
          const rest = pieces.join("");
          if (rest !== "") controller.enqueue(line(rest));
        },
      }),
    )
    .pipeThrough(new TextEncoderStream());
  return new Response(body, {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}

function _finishChunk(toolCalls: boolean): string {
  return JSON.stringify({
    object: "chat.completion.chunk",
    choices: [{
      index: 0,
      delta: {},
      finish_reason: toolCalls ? "tool_calls" : "stop",
    }],
  });
}
