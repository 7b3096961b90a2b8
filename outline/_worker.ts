// The outline worker: reads a file, parses it with a lazily loaded grammar
// (cached for the worker's life), extracts the symbols. The tree is deleted,
// or kept (a few small files) so an edited file re-parses incrementally.
// The pool replaces a worker that crashes or that parsed a huge file, because
// WASM memory never shrinks.
import { parentPort } from "node:worker_threads";
import type { Node, Parser, Tree } from "web-tree-sitter";
import { createParser, type GrammarId } from "../grammars/grammars.ts";
import { languageForExtension } from "./languages/_registry.ts";
import { MARKDOWN_EXTENSIONS, outlineMarkdown } from "./_markdown.ts";
import { TreeKeeper } from "./_incremental.ts";
import { sha256 } from "./_sha256.ts";
import { packOutline } from "./_transfer.ts";
import type {
  OutlineFailure,
  OutlineRequest,
  WorkerReply,
  WorkerRequest,
} from "./_protocol.ts";
import type { OutlineResult, OutlineSymbol } from "./types.ts";

/** A NUL byte in this many leading bytes marks a binary file (as git decides). */
const BINARY_PROBE_BYTES = 8000;

class Failure extends Error {
  constructor(readonly failure: OutlineFailure, message: string) {
    super(message);
  }
}

const parsers = new Map<string, Promise<Parser>>();
const keeper = new TreeKeeper();

function _parserKey(grammar: GrammarId, request: OutlineRequest): string {
  return `${request.grammarsDir ?? ""}\0${grammar}`;
}

function _parserFor(
  grammar: GrammarId,
  request: OutlineRequest,
): Promise<Parser> {
  const key = _parserKey(grammar, request);
  let parser = parsers.get(key);
  if (parser === undefined) {
    parser = createParser(grammar, {
      grammarsDir: request.grammarsDir,
      module: request.grammar,
      runtime: request.runtime,
    });
    parser.catch(() => parsers.delete(key));
    parsers.set(key, parser);
  }
  return parser;
}

interface Outlined {
  result: OutlineResult;
  size: number;
  incremental?: boolean;
  hash?: string;
  /** Keeps or deletes the tree: run after the reply is posted. */
  cleanup?: () => void;
}

async function _outline(
  request: OutlineRequest,
): Promise<Outlined> {
  const markdown = MARKDOWN_EXTENSIONS.includes(request.extension);
  const spec = markdown ? undefined : languageForExtension(request.extension);
  // Instantiate the runtime and grammar while the file is being read (a
  // failed load is reported below, after the read's own errors).
  const parserReady = spec === undefined
    ? undefined
    : _parserFor(spec.grammar, request);
  const bytes = await _read(request.path);
  const hash = request.hash ? await sha256(bytes) : undefined;
  if (bytes.subarray(0, BINARY_PROBE_BYTES).includes(0)) {
    throw new Failure("binary", "it is a binary file");
  }
  const text = new TextDecoder().decode(bytes);
  const totalLines = _countLines(bytes);
  if (markdown) {
    return {
      result: {
        language: "Markdown",
        totalLines,
        symbols: outlineMarkdown(text, totalLines),
      },
      size: bytes.length,
      hash,
    };
  }
  if (spec === undefined || parserReady === undefined) {
    throw new Failure("parse", `no language for "${request.extension}"`);
  }
  const parser = await parserReady;
  const { symbols, incremental, cleanup } = _parseAndExtract(parser, text, {
    request,
    key: _parserKey(spec.grammar, request),
    extract: spec.extract,
  });
  return {
    result: { language: spec.name, totalLines, symbols },
    size: bytes.length,
    incremental,
    hash,
    cleanup,
  };
}

// Parses (from the kept tree of the same file when there is one), extracts,
// and returns how to keep the new tree for next time or delete it: deleting
// a large tree takes tens of milliseconds, so that waits until the reply is
// on its way.
function _parseAndExtract(
  parser: Parser,
  text: string,
  { request, key, extract }: {
    request: OutlineRequest;
    key: string;
    extract: (root: Node, source: string) => OutlineSymbol[];
  },
): { symbols: OutlineSymbol[]; incremental: boolean; cleanup: () => void } {
  const oldTree = keeper.take(request.path, key, text);
  const deadline = performance.now() + request.budgetMs;
  let tree: Tree | null;
  try {
    tree = parser.parse(text, oldTree, {
      progressCallback: () => performance.now() > deadline,
    });
  } finally {
    oldTree?.delete();
  }
  if (tree === null) {
    parser.reset();
    throw new Failure(
      "budget",
      `parsing took longer than the ${request.budgetMs} ms budget`,
    );
  }
  try {
    const symbols = extract(tree.rootNode, text);
    const done = tree;
    return {
      symbols,
      incremental: oldTree !== null,
      cleanup: () => keeper.keep(request.path, key, text, done),
    };
  } catch (error) {
    tree.delete();
    throw error;
  }
}

async function _read(path: string): Promise<Uint8Array<ArrayBuffer>> {
  try {
    return await Deno.readFile(path);
  } catch (error) {
    const reason = error instanceof Deno.errors.NotFound
      ? "the file does not exist"
      : error instanceof Deno.errors.IsADirectory
      ? "it is a folder"
      : error instanceof Error
      ? error.message
      : String(error);
    throw new Failure("read", reason);
  }
}

// Lines as ReadFile counts them: a final newline ends the last line.
function _countLines(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let count = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) {
    count++;
  }
  return bytes[bytes.length - 1] === 10 ? count : count + 1;
}

async function _handle(
  request: OutlineRequest,
): Promise<{ reply: WorkerReply; cleanup?: () => void }> {
  try {
    const { result, size, incremental, hash, cleanup } = await _outline(
      request,
    );
    const reply: WorkerReply = {
      type: "result",
      id: request.id,
      outline: packOutline(result),
      recycle: size > request.recycleBytes,
      incremental: incremental ?? false,
      ...(hash === undefined ? {} : { hash }),
    };
    return { reply, cleanup };
  } catch (error) {
    const failure = error instanceof Failure ? error.failure : "parse";
    const message = error instanceof Error ? error.message : String(error);
    return {
      reply: {
        type: "error",
        id: request.id,
        failure,
        message,
        recycle: failure !== "read" && failure !== "binary",
      },
    };
  }
}

// The pool may post a second job before the first is answered: run them one
// at a time, in order, so replies come back in the order of the requests.
let queue: Promise<void> = Promise.resolve();

parentPort?.on("message", (request: WorkerRequest) => {
  queue = queue.then(() => _serve(request)).catch((error) => {
    // Unexpected: crash the worker (the pool replaces it) rather than leave
    // the jobs behind this one waiting forever.
    setTimeout(() => {
      throw error;
    });
  });
});

async function _serve(request: WorkerRequest): Promise<void> {
  if (request.crash) {
    // A real uncaught error, exactly what a bug or a WASM trap would raise
    // (thrown outside the promise chain, so it is not a mere rejection).
    setTimeout(() => {
      throw new Error("outline worker crashed on request");
    });
    return new Promise(() => {}); // the jobs after it never start
  }
  const { reply, cleanup } = await _handle(request);
  parentPort?.postMessage(
    reply,
    reply.type === "result" ? [reply.outline.numbers.buffer] : [],
  );
  cleanup?.();
}
