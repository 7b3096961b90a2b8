// A reasoning model served without a reasoning parser (llama.cpp without
// --reasoning-format, older Ollama, LM Studio with its setting off) thinks in
// the answer itself: `<think>...</think>` first, then the answer. That block is
// reasoning. Only a block that opens the answer is: the AI SDK's
// extractReasoningMiddleware takes any `<think>` anywhere, and an answer that
// merely mentions the tag in code lost the rest of its text.
import type { LanguageModelMiddleware } from "ai";

type WrapStream = NonNullable<LanguageModelMiddleware["wrapStream"]>;
type StreamResult = Awaited<ReturnType<WrapStream>>;
type Part = StreamResult["stream"] extends ReadableStream<infer P> ? P
  : never;

const OPEN = "<think>";
const CLOSE = "</think>";

/** Moves a `<think>` block that opens a text part into reasoning parts. */
export const leadingThinkMiddleware: LanguageModelMiddleware = {
  specificationVersion: "v4",
  wrapStream: async ({ doStream }) => {
    const { stream, ...rest } = await doStream();
    const texts = new Map<string, LeadingThink>();
    return {
      ...rest,
      stream: stream.pipeThrough(
        new TransformStream<Part, Part>({
          transform(part, controller) {
            if (!_isText(part)) return controller.enqueue(part);
            let text = texts.get(part.id);
            if (text === undefined) {
              text = new LeadingThink(
                part.id,
                (out) => controller.enqueue(out),
              );
              texts.set(part.id, text);
            }
            text.take(part);
          },
          flush() {
            for (const text of texts.values()) text.end();
          },
        }),
      ),
    };
  },
};

type TextPart = Extract<
  Part,
  { type: "text-start" | "text-delta" | "text-end" }
>;

function _isText(part: Part): part is TextPart {
  return part.type === "text-start" || part.type === "text-delta" ||
    part.type === "text-end";
}

// One text part's stream: undecided while what came may still open with
// `<think>`, then thinking up to `</think>`, then text passed on as it comes.
class LeadingThink {
  #phase: "undecided" | "thinking" | "answer" | "text" = "undecided";
  #held = "";
  #start: TextPart | undefined;
  #started = false;
  #ended = false;
  readonly #reasoningId: string;

  constructor(
    readonly id: string,
    readonly emit: (part: Part) => void,
  ) {
    this.#reasoningId = `${id}-think`;
  }

  take(part: TextPart): void {
    if (part.type === "text-start") {
      this.#start = part;
    } else if (part.type === "text-delta") {
      this.#delta(part.delta);
    } else {
      this.end();
    }
  }

  /** The text part ended (or the stream did): nothing more is held back. */
  end(): void {
    if (this.#ended) return;
    this.#ended = true;
    if (this.#phase === "thinking") {
      this.#reason(this.#held);
      this.emit({ type: "reasoning-end", id: this.#reasoningId });
    } else if (this.#phase !== "answer") {
      this.#text(this.#held); // what only looked like the start of `<think>`
    }
    this.#held = "";
    if (this.#started) this.emit({ type: "text-end", id: this.id });
  }

  #delta(delta: string): void {
    if (this.#phase === "text") return this.#text(delta);
    this.#held += delta;
    if (this.#phase === "undecided") this.#decide();
    if (this.#phase === "thinking") this.#think();
    if (this.#phase === "answer") this.#answer();
  }

  #decide(): void {
    const lead = this.#held.trimStart();
    if (lead.startsWith(OPEN)) {
      this.#phase = "thinking";
      this.#held = lead.slice(OPEN.length);
      this.emit({ type: "reasoning-start", id: this.#reasoningId });
    } else if (!OPEN.startsWith(lead)) {
      this.#phase = "text";
      const held = this.#held;
      this.#held = "";
      this.#text(held);
    }
  }

  // Passes on the reasoning so far, keeping back what may be the start of
  // `</think>` split across deltas.
  #think(): void {
    const close = this.#held.indexOf(CLOSE);
    if (close === -1) {
      const keep = Math.min(this.#held.length, CLOSE.length - 1);
      this.#reason(this.#held.slice(0, this.#held.length - keep));
      this.#held = this.#held.slice(this.#held.length - keep);
      return;
    }
    this.#reason(this.#held.slice(0, close));
    this.emit({ type: "reasoning-end", id: this.#reasoningId });
    this.#held = this.#held.slice(close + CLOSE.length);
    this.#phase = "answer";
  }

  // The blank lines between `</think>` and the answer are neither.
  #answer(): void {
    const answer = this.#held.trimStart();
    if (answer === "") return;
    this.#held = "";
    this.#phase = "text";
    this.#text(answer);
  }

  #reason(delta: string): void {
    if (delta === "") return;
    this.emit({ type: "reasoning-delta", id: this.#reasoningId, delta });
  }

  #text(delta: string): void {
    if (delta === "") return;
    if (!this.#started) {
      this.#started = true;
      this.emit(this.#start ?? { type: "text-start", id: this.id });
    }
    this.emit({ type: "text-delta", id: this.id, delta });
  }
}
