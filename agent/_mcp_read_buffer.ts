// The MCP client SDK's stdio transport keeps at most 10 MiB of a line, copies
// its buffer at every chunk, and closes the transport (killing the server) at
// a longer one: one big tool result ended an editor's MCP server for the rest
// of the session. This buffer takes its place: lines are split in linear time,
// an answer up to MAX_ANSWER_BYTES is read (the agent cuts it to the model's
// context), and a longer one becomes an error answer to its request.
import type { Transport } from "@modelcontextprotocol/client";
import { JsonLineSplitter, type LongLine } from "../internal/json_lines.ts";

/** The longest line read from an MCP server, in bytes. */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

/** The SDK ReadBuffer's interface, as StdioClientTransport uses it. */
interface ReadBuffer {
  append(chunk: Uint8Array): void;
  readMessage(): unknown;
  clear(): void;
}

/**
 * Gives a stdio client transport the linear, bounded line reading above.
 * The SDK (pinned) keeps its buffer in `_readBuffer`; a transport without one
 * is left as it is.
 */
export function withLinearReads(
  transport: Transport,
  serverName: string,
  maxLineBytes: number = MAX_ANSWER_BYTES,
): Transport {
  const holder = transport as unknown as { _readBuffer?: ReadBuffer };
  if (holder._readBuffer !== undefined) {
    holder._readBuffer = new _LinearReadBuffer(maxLineBytes, serverName);
  }
  return transport;
}

class _LinearReadBuffer implements ReadBuffer {
  readonly #max: number;
  readonly #server: string;
  #splitter: JsonLineSplitter;
  #ready: unknown[] = [];
  readonly #decoder = new TextDecoder();

  constructor(max: number, server: string) {
    this.#max = max;
    this.#server = server;
    this.#splitter = new JsonLineSplitter(max);
  }

  append(chunk: Uint8Array): void {
    for (const line of this.#splitter.push(chunk)) {
      const message = line instanceof Uint8Array
        ? this.#parse(line)
        : this.#tooLong(line);
      if (message !== undefined) this.#ready.push(message);
    }
  }

  readMessage(): unknown {
    return this.#ready.length > 0 ? this.#ready.shift() : null;
  }

  clear(): void {
    this.#ready = [];
    this.#splitter = new JsonLineSplitter(this.#max);
  }

  // Like the SDK, a line that is no JSON (a server's stray log) is skipped.
  #parse(line: Uint8Array): unknown {
    try {
      return JSON.parse(this.#decoder.decode(line));
    } catch {
      return undefined;
    }
  }

  #tooLong(line: LongLine): unknown {
    const text =
      `MCP server "${this.#server}" sent a message of ${line.bytes} bytes, over the limit of ${this.#max} bytes; it was not read`;
    if (!line.response || line.id === undefined) {
      console.error(`fello acp: ${text}`);
      return undefined;
    }
    return {
      jsonrpc: "2.0",
      id: line.id,
      error: { code: -32603, message: text },
    };
  }
}
