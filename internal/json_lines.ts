// Splits a protocol's stdin into newline-delimited JSON messages, in linear
// time, before the SDK sees them. The official SDKs end the whole connection
// at one over-long line (MCP's ReadBuffer at 10 MiB, ACP's ndJsonStream at 32
// MiB) and MCP's copies its buffer at every chunk. Here an over-long line is
// dropped as it streams (only its first and last bytes are kept, to find the
// request's id) and reported, so the server can answer that one request with
// an error (or, for an answer to one of its own requests, fail that request)
// and go on serving.
import { concatBytes } from "./concat_bytes.ts";

/** What is known of a line over the limit. */
export interface LongLine {
  /** Its length in bytes, without the newline. */
  bytes: number;
  /** The request's id, when one was found at its start or end. */
  id?: string | number;
  /** The request's method, when one was found at its start. */
  method?: string;
  /** Whether it is an answer (a result or error member, no method). */
  response?: boolean;
}

/** How much of an over-long line's start and end is kept to find its id. */
const EDGE_BYTES = 4096;
const NEWLINE = 0x0a;

/**
 * The lines of `input` no longer than `maxLineBytes`, each as one chunk
 * ending in "\n"; each longer line is left out and passed to `onLongLine`
 * once it ends, which may give a line to put in its place.
 */
export function jsonLines(
  input: ReadableStream<Uint8Array>,
  options: {
    maxLineBytes: number;
    onLongLine: (
      line: LongLine,
    ) => Uint8Array | void | Promise<Uint8Array | void>;
  },
): ReadableStream<Uint8Array> {
  const { onLongLine } = options;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  const splitter = new JsonLineSplitter(options.maxLineBytes);
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      reader ??= input.getReader();
      // Read until at least one line is out (or the input ends).
      while (true) {
        const { done, value } = await reader.read();
        const items = done ? [splitter.end()] : splitter.push(value);
        let out = false;
        for (const item of items) {
          const line = item instanceof Uint8Array || !item
            ? item
            : await onLongLine(item);
          if (line) controller.enqueue(line);
          out ||= line !== undefined;
        }
        if (done) return controller.close();
        if (out) return;
      }
    },
    async cancel(reason) {
      await reader?.cancel(reason);
    },
  });
}

/**
 * Splits chunks of bytes into lines in linear time: each line no longer than
 * `maxLineBytes` whole (ending in "\n"), what is known of each longer one.
 */
export class JsonLineSplitter {
  readonly #line: _PendingLine;

  constructor(maxLineBytes: number) {
    this.#line = new _PendingLine(maxLineBytes);
  }

  /** The lines `chunk` ends, in order. */
  push(chunk: Uint8Array): (Uint8Array | LongLine)[] {
    const out: (Uint8Array | LongLine)[] = [];
    let start = 0;
    for (
      let at = chunk.indexOf(NEWLINE);
      at >= 0;
      at = chunk.indexOf(NEWLINE, start)
    ) {
      this.#line.add(chunk.subarray(start, at));
      start = at + 1;
      const line = this.#line.end();
      if (line) out.push(line);
    }
    this.#line.add(chunk.subarray(start));
    return out;
  }

  /** The last line, when the input ends without a newline. */
  end(): Uint8Array | LongLine | undefined {
    return this.#line.end();
  }
}

/** The line being read: its pieces while within the limit, else its edges. */
class _PendingLine {
  readonly #max: number;
  #pieces: Uint8Array[] = [];
  #bytes = 0;
  #head: Uint8Array | undefined;
  #tail: Uint8Array[] = [];
  #tailBytes = 0;

  constructor(max: number) {
    this.#max = max;
  }

  add(piece: Uint8Array): void {
    if (piece.byteLength === 0) return;
    this.#bytes += piece.byteLength;
    if (this.#head === undefined) {
      // A copy: a stream may reuse its chunks' memory.
      this.#pieces.push(piece.slice());
      if (this.#bytes <= this.#max) return;
      const all = concatBytes(this.#pieces, this.#bytes);
      this.#head = all.slice(0, EDGE_BYTES);
      this.#pieces = [];
      this.#keepTail(all.subarray(all.byteLength - EDGE_BYTES));
      return;
    }
    this.#keepTail(piece);
  }

  /** The line with its newline, what is known of it when too long, or undefined when empty. */
  end(): Uint8Array | LongLine | undefined {
    const bytes = this.#bytes;
    const head = this.#head;
    const tail = concatBytes(this.#tail, this.#tailBytes);
    const pieces = this.#pieces;
    this.#pieces = [];
    this.#bytes = 0;
    this.#head = undefined;
    this.#tail = [];
    this.#tailBytes = 0;
    if (head !== undefined) return { bytes, ...requestOf(head, tail) };
    if (bytes === 0) return undefined;
    pieces.push(new Uint8Array([NEWLINE]));
    return concatBytes(pieces, bytes + 1);
  }

  #keepTail(piece: Uint8Array): void {
    this.#tail.push(piece.slice(-EDGE_BYTES));
    this.#tailBytes += Math.min(piece.byteLength, EDGE_BYTES);
    while (this.#tailBytes - this.#tail[0].byteLength >= EDGE_BYTES) {
      this.#tailBytes -= this.#tail.shift()!.byteLength;
    }
  }
}

const SCALAR = String.raw`(-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|null|true|false)`;
const LEADING_PAIR = new RegExp(
  String.raw`^\s*[{,]\s*"([^"\\]*)"\s*:\s*${SCALAR}`,
);
const NEXT_KEY = /^\s*[{,]\s*"([^"\\]*)"\s*:/;
const TRAILING_ID = new RegExp(
  String.raw`[{,]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$`,
);

/**
 * The id and method of a JSON-RPC message from its first and last bytes: the
 * scalar members before the first object or array member, then an `"id"` as
 * its last member (the MCP SDK puts it there); an answer when that first
 * other member is `result` or `error` and there is no method.
 */
export function requestOf(
  head: Uint8Array,
  tail: Uint8Array,
): Omit<LongLine, "bytes"> {
  const found: Omit<LongLine, "bytes"> = {};
  let text = new TextDecoder().decode(head);
  for (
    let pair = LEADING_PAIR.exec(text);
    pair;
    pair = LEADING_PAIR.exec(text)
  ) {
    const value = JSON.parse(pair[2]);
    if (
      pair[1] === "id" &&
      (typeof value === "number" || typeof value === "string")
    ) {
      found.id = value;
    }
    if (pair[1] === "method" && typeof value === "string") found.method = value;
    text = text.slice(pair[0].length);
  }
  const next = NEXT_KEY.exec(text)?.[1];
  if (found.method === undefined && (next === "result" || next === "error")) {
    found.response = true;
  }
  if (found.id === undefined) {
    const id = TRAILING_ID.exec(new TextDecoder().decode(tail))?.[1];
    if (id !== undefined) found.id = JSON.parse(id);
  }
  return found;
}
