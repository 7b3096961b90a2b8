// The outline worker: reads a file, parses it with a lazily loaded grammar
// (cached for the worker's life), extracts the symbols. The tree is deleted,
// or kept (a few small files) so an edited file re-parses incrementally.
// The pool replaces a worker that crashes or that parsed a huge file, because
// WASM memory never shrinks.
import {
  asUtf8,
  looksBinary,
  MAX_OUTLINE_BYTES,
  readUpTo,
  TOO_BIG_REASON,
  TooBig,
} from "./_file_bytes.ts";
import { threadPort } from "../internal/thread_port.ts";
import type { Edit, Node, Parser, Range, Tree } from "web-tree-sitter";
import { createParser, type GrammarId } from "../grammars/grammars.ts";
import { type LanguageId, loadLanguageSpec } from "./languages/_loaders.ts";
import {
  type Kept,
  type TextEdit,
  textEdit,
  TreeKeeper,
} from "./_incremental.ts";
import type { LanguageSpec } from "./languages/_language.ts";
import { identifiersOf } from "./_identifiers.ts";
import { rangesOutside } from "./_code_ranges.ts";
import { sha256 } from "./_sha256.ts";
import { packOutline } from "./_transfer.ts";
import { standsAlone } from "./_pieces.ts";
import { capSymbols, MAX_SYMBOLS } from "./_symbol_cap.ts";
import type {
  OutlineFailure,
  OutlineRequest,
  SyntaxRequest,
  WorkerProgress,
  WorkerReply,
  WorkerRequest,
} from "./_protocol.ts";
import {
  addedErrors,
  type SyntaxErrors,
  syntaxErrors,
} from "./_syntax_errors.ts";
import type { OutlineResult, OutlineSymbol } from "./types.ts";
import { isError, runtime } from "../internal/runtime/runtime.ts";

class Failure extends Error {
  constructor(readonly failure: OutlineFailure, message: string) {
    super(message);
  }
}

const parsers = new Map<string, Promise<Parser>>();
const keeper = new TreeKeeper();

/** What loading a grammar needs from a request. */
type GrammarRequest = Pick<
  OutlineRequest,
  "grammarsDir" | "grammar" | "runtime"
>;

function _parserKey(grammar: GrammarId, request: GrammarRequest): string {
  return `${request.grammarsDir ?? ""}\0${grammar}`;
}

function _parserFor(
  grammar: GrammarId,
  request: GrammarRequest,
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
  /** The outline covers only the piece asked for. */
  partial?: boolean;
  hash?: string;
  /** The identifiers used, when asked for. */
  names?: string[];
  /** Keeps or deletes the tree: run after the reply is posted. */
  cleanup?: () => void;
}

async function _outline(
  request: OutlineRequest,
): Promise<Outlined> {
  // Load the language and instantiate the runtime and grammar while the file
  // is being read (a failed load is reported below, after the read's own
  // errors). No language: Markdown, outlined without a grammar.
  const ready = request.language === undefined
    ? undefined
    : _load(request.language, request);
  ready?.catch(() => {}); // awaited below, maybe after another await
  const bytes = request.bytes === undefined
    ? _read(request.path)
    : new Uint8Array(request.bytes);
  _beat(request.id);
  const hash = request.hash ? await sha256(bytes) : undefined;
  // A later piece starts mid-file: only the start of a file tells binary.
  if (
    !request.piece?.lineOffset &&
    looksBinary(bytes)
  ) {
    throw new Failure("binary", "it is a binary file");
  }
  if (ready === undefined) {
    return _outlineMarkdown(request, bytes, hash);
  }
  _refuseLongLine(bytes, request.piece?.lineOffset ?? 0);
  const { spec, parser } = await ready;
  if (request.piece) return _outlinePiece(parser, spec, bytes, request);
  const text = new TextDecoder().decode(bytes);
  const { symbols, names, incremental, cleanup } = _parseAndExtract(
    parser,
    text,
    {
      request,
      key: _parserKey(spec.grammar, request),
      prepare: spec.prepare,
      codeBodies: spec.codeBodies,
      extract: spec.extract,
    },
  );
  return {
    result: { language: spec.name, totalLines: _countLines(bytes), symbols },
    size: bytes.length,
    names,
    incremental,
    hash,
    cleanup,
  };
}

async function _load(
  id: LanguageId,
  request: GrammarRequest,
): Promise<{ spec: LanguageSpec; parser: Parser }> {
  const spec = await loadLanguageSpec(id);
  return { spec, parser: await _parserFor(spec.grammar, request) };
}

async function _outlineMarkdown(
  request: OutlineRequest,
  bytes: Uint8Array,
  hash: string | undefined,
): Promise<Outlined> {
  const markdown = await import("./languages/markdown/markdown.ts");
  if (!markdown.MARKDOWN_EXTENSIONS.includes(request.extension)) {
    throw new Failure("parse", `no language for "${request.extension}"`);
  }
  const totalLines = _countLines(bytes);
  const { symbols, omitted } = markdown.outlineMarkdownUpTo(
    new TextDecoder().decode(bytes),
    totalLines,
    request.maxSymbols ?? MAX_SYMBOLS,
  );
  return {
    result: {
      language: "Markdown",
      totalLines,
      symbols,
      ...(omitted ? { omitted } : {}),
    },
    size: bytes.length,
    hash,
  };
}

// Parses (from the kept tree of the same file when there is one, else
// without the code bodies when the language can tell them), extracts, and
// returns how to keep the new tree for next time or delete it: deleting a
// large tree takes tens of milliseconds, so that waits until the reply is on
// its way.
function _parseAndExtract(
  parser: Parser,
  text: string,
  { request, key, prepare, codeBodies, extract }: {
    request: OutlineRequest;
    key: string;
    prepare?: (source: string) => string;
    codeBodies?: (parsed: string) => [number, number][] | undefined;
    extract: (root: Node, source: string) => OutlineSymbol[];
  },
): {
  symbols: OutlineSymbol[];
  names?: string[];
  incremental: boolean;
  cleanup: () => void;
} {
  const parsed = prepare ? prepare(text) : text;
  _beat(request.id);
  const budget = _budget(request);
  // The repo map's identifiers are in the bodies; a kept tree re-parses
  // faster; and a syntax check wants the whole tree kept, not this one.
  if (
    codeBodies !== undefined && !request.names &&
    !keeper.has(request.path, key)
  ) {
    const tree = _parseOutsideBodies(parser, parsed, codeBodies, budget);
    if (tree !== undefined) {
      try {
        const symbols = _named(extract(tree.rootNode, text));
        return { symbols, incremental: false, cleanup: () => tree.delete() };
      } catch (error) {
        tree.delete();
        throw error;
      }
    }
  }
  const { tree, incremental } = _parseAsFresh(parser, parsed, {
    oldTree: keeper.take(request.path, key, parsed),
    budget,
  });
  try {
    const symbols = _named(extract(tree.rootNode, text));
    return {
      symbols,
      ...(request.names ? { names: identifiersOf(tree) } : {}),
      incremental,
      cleanup: () =>
        keeper.keep(request.path, {
          parser: key,
          text: parsed,
          source: text,
          tree,
        }),
    };
  } catch (error) {
    tree.delete();
    throw error;
  }
}

// The tree of `parsed` without its code bodies, or undefined when the scan
// cannot tell them or that tree has an error (which a scan that misplaced a
// body would cause): the whole text is parsed then.
function _parseOutsideBodies(
  parser: Parser,
  parsed: string,
  codeBodies: (parsed: string) => [number, number][] | undefined,
  budget: Budget,
): Tree | undefined {
  let bodies: [number, number][] | undefined;
  try {
    bodies = codeBodies(parsed);
  } catch {
    // A fault of the scan costs its speed, never the outline.
    return undefined;
  }
  if (bodies === undefined || bodies.length === 0) return undefined;
  const tree = _parseWithin(parser, parsed, null, budget, {
    includedRanges: rangesOutside(parsed, bodies),
  });
  if (!tree.rootNode.hasError) return tree;
  tree.delete();
  return undefined;
}

// Parses `text` from `oldTree` (edited to match it), which it deletes; the
// tree is the one a fresh parse gives, since error recovery depends on the
// old tree: a text with errors is parsed again from scratch.
function _parseAsFresh(
  parser: Parser,
  text: string,
  { oldTree, budget }: { oldTree: Tree | null; budget: Budget },
): { tree: Tree; incremental: boolean } {
  try {
    const tree = _parseWithin(parser, text, oldTree, budget);
    if (oldTree === null || !tree.rootNode.hasError) {
      return { tree, incremental: oldTree !== null };
    }
    tree.delete();
  } finally {
    oldTree?.delete();
  }
  return { tree: _parseWithin(parser, text, null, budget), incremental: false };
}

/** New errors listed in a reply at most. */
const MAX_ADDED = 50;

// A syntax check (see SyntaxRequest). The new text is parsed from the kept
// tree of the file, edited to match (after an earlier check or outline of
// it, the tree of the old text). The old text's errors count only when the
// new text has some: from the kept tree when it is the old text's, else
// from a parse of its own. The new tree is kept for the next check or
// outline of the file.
async function _syntax(
  request: SyntaxRequest,
): Promise<{ reply: WorkerReply; cleanup?: () => void }> {
  const { spec, parser } = await _load(request.language, request);
  const key = _parserKey(spec.grammar, request);
  const prepare = spec.prepare ?? ((source: string) => source);
  const budget = _budget(request);
  const { path, version } = request;
  const kept = keeper.takeKept(path, key);
  const { oldText, newText } = _syntaxTexts(request, kept);
  _refuseLongTextLine(newText);
  if (kept !== null && !spec.parseWhole && kept.source === oldText) {
    const quick = _syntaxFromRegion(parser, {
      request,
      newText,
      kept,
      prepare,
      budget,
    });
    if (quick !== undefined) return quick;
  }
  const newParsed = prepare(newText);
  let before: SyntaxErrors | undefined;
  let base: Tree | null = null;
  if (kept !== null) {
    // Kept trees are as a fresh parse gives them (see _parseAsFresh).
    if (kept.source === oldText) {
      before = syntaxErrors(kept.tree.rootNode, oldText);
    }
    kept.tree.edit(textEdit(kept.text, newParsed) as Edit);
    base = kept.tree;
  }
  const { tree, incremental } = _parseAsFresh(parser, newParsed, {
    oldTree: base,
    budget,
  });
  let after: SyntaxErrors;
  try {
    after = syntaxErrors(tree.rootNode, newText);
    if (after.count > 0 && before === undefined && oldText !== undefined) {
      before = _errorsOf(parser, prepare(oldText), { source: oldText, budget });
    }
  } catch (error) {
    tree.delete();
    throw error;
  }
  const added = after.count > (before?.count ?? 0)
    ? addedErrors(before?.listed ?? [], after.listed).slice(0, MAX_ADDED)
    : [];
  return {
    reply: {
      type: "syntax",
      id: request.id,
      before: before?.count ?? 0,
      after: after.count,
      added,
      recycle: newText.length > request.recycleBytes,
      incremental,
    },
    cleanup: () =>
      keeper.keep(path, {
        parser: key,
        text: newParsed,
        source: newText,
        tree,
        version,
      }),
  };
}

// The old and new texts of a check: as sent, or the new one made from the
// change of the kept text it names. A change of a text no longer kept fails
// as "stale" (the kept tree, of another text, goes back), and the caller
// sends the texts whole.
function _syntaxTexts(
  request: SyntaxRequest,
  kept: Kept | null,
): { oldText?: string; newText: string } {
  const { change } = request;
  if (change === undefined) {
    return { oldText: request.oldText, newText: request.newText ?? "" };
  }
  if (kept === null || kept.version !== change.base) {
    if (kept !== null) keeper.keep(request.path, kept);
    throw new Failure("stale", "the text the change applies to is not kept");
  }
  const oldText = kept.source;
  return {
    oldText,
    newText: oldText.slice(0, change.start) + change.text +
      oldText.slice(change.oldEnd),
  };
}

/** The most of a file a region parse covers (a share of its length). */
const MAX_REGION_SHARE = 0.25;

// A check answered from the part of the new text an edit touches: when the
// old text is clean (its kept tree says so), the top-level nodes the edit
// touches, one more on each side, parse cleanly on their own, and they stand
// for their part of the file (as a piece does, see _pieces.ts), the new text
// is clean. That costs a parse of the part, not a walk of the whole file's
// tree; the whole new text is parsed after the reply is posted, from the
// kept tree, and kept for the next check or outline. Undefined (the kept
// tree untouched) when the region does not tell.
function _syntaxFromRegion(
  parser: Parser,
  { request, newText, kept, prepare, budget }: {
    request: SyntaxRequest;
    newText: string;
    kept: Kept;
    prepare: (source: string) => string;
    budget: Budget;
  },
): { reply: WorkerReply; cleanup: () => void } | undefined {
  const { path, version } = request;
  const root = kept.tree.rootNode;
  if (root.hasError) return undefined;
  const edit = textEdit(kept.source, newText);
  const { start, end } = _touchedRegion(root, edit, kept.source.length);
  if (end - start > kept.source.length * MAX_REGION_SHARE) return undefined;
  const part = newText.slice(start, end + edit.newEndIndex - edit.oldEndIndex);
  const tree = _parseWithin(parser, prepare(part), null, budget);
  const clean = standsAlone(tree.rootNode, start === 0);
  tree.delete();
  if (!clean) return undefined;
  return {
    reply: {
      type: "syntax",
      id: request.id,
      before: 0,
      after: 0,
      added: [],
      recycle: false,
      incremental: true,
    },
    cleanup: () => {
      const parsed = prepare(newText);
      kept.tree.edit(textEdit(kept.text, parsed) as Edit);
      try {
        const { tree } = _parseAsFresh(parser, parsed, {
          oldTree: kept.tree,
          budget: _budget(request),
        });
        keeper.keep(path, {
          ...kept,
          text: parsed,
          source: newText,
          tree,
          version,
        });
      } catch {
        // Over its budget: the next check of the file parses from scratch.
      }
    },
  };
}

// The part of the old text under `root` that `edit` touches, widened to the
// top-level nodes it overlaps and one more on each side (to the start or the
// end of the text at its first or last node), as offsets into the old text.
function _touchedRegion(
  root: Node,
  edit: TextEdit,
  length: number,
): { start: number; end: number } {
  const count = root.childCount;
  // The first node ending after the edit's start, the first starting after its end.
  const first = _firstChild(
    root,
    count,
    (node) => node.endIndex > edit.startIndex,
  );
  const after = _firstChild(
    root,
    count,
    (node) => node.startIndex > edit.oldEndIndex,
  );
  return {
    start: first <= 1 ? 0 : root.child(first - 1)!.startIndex,
    end: after >= count - 1 ? length : root.child(after)!.endIndex,
  };
}

// The index of the first of the `count` children of `node` for which `past`
// holds (`count` if none), `past` holding for every child after it.
function _firstChild(
  node: Node,
  count: number,
  past: (child: Node) => boolean,
): number {
  let low = 0;
  let high = count;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (past(node.child(middle)!)) high = middle;
    else low = middle + 1;
  }
  return low;
}

// The errors of a text parsed from scratch (its tree not kept).
function _errorsOf(
  parser: Parser,
  text: string,
  { source, budget }: { source: string; budget: Budget },
): SyntaxErrors {
  const tree = _parseWithin(parser, text, null, budget);
  try {
    return syntaxErrors(tree.rootNode, source);
  } finally {
    tree.delete();
  }
}

// One piece of a large file (see _pieces.ts): the first piece was sent the
// whole file and falls back to it; a later piece only says when it does not
// stand alone.
function _outlinePiece(
  parser: Parser,
  spec: LanguageSpec,
  bytes: Uint8Array<ArrayBuffer>,
  request: OutlineRequest,
): Outlined {
  const end = request.piece?.end;
  const own = end === undefined ? bytes : bytes.subarray(0, end);
  const text = new TextDecoder().decode(own);
  const budget = _budget(request);
  // A text pass is local (see LanguageSpec.prepare): each piece gets its own.
  const prepare = spec.prepare ?? ((source: string) => source);
  const { tree, whole } = end === undefined
    ? {
      tree: _parseLaterPiece(parser, prepare(text), budget),
      whole: undefined,
    }
    : _parseFirstPiece(parser, { text, bytes, prepare }, budget);
  try {
    const partial = whole === undefined;
    return {
      result: {
        language: spec.name,
        totalLines: _countLines(partial ? own : bytes),
        symbols: _named(
          spec.extract(tree.rootNode, whole ?? text, { piece: partial }),
        ),
      },
      size: bytes.length,
      partial,
      cleanup: () => tree.delete(),
    };
  } catch (error) {
    tree.delete();
    throw error;
  }
}

// A symbol the grammar left without a name (its error recovery in code it
// misread) tells a reader nothing: it is left out, with its children.
function _named(symbols: OutlineSymbol[]): OutlineSymbol[] {
  const named = symbols.filter((symbol) => symbol.name.trim() !== "");
  for (const symbol of named) symbol.children = _named(symbol.children);
  return named;
}

// A parse's budget is CPU time, not wall time: on a machine busy with other
// work, wall time runs several times faster than the parse (a 6 s parse
// took 23 s beside two busy loops and other tests), and a budget counted on
// it would fail files that parse fine. Wall time is checked first (cheap,
// each progress callback); past it, the thread's CPU clock (40-75 us a
// call, so at most every CPU_CHECK_MS) decides. The clock counts in 10 ms
// ticks: a budget within that is wall time alone, as it cannot be measured.
interface Budget {
  /** The job, for its signs of progress. */
  id: number;
  budgetMs: number;
  /** Wall time (performance.now()) past which the CPU clock is consulted. */
  deadline: number;
  /** The thread's CPU time at the start, in ms. */
  cpuStart: number;
  /** When the CPU clock was last read (performance.now()). */
  cpuChecked: number;
}

const CPU_RESOLUTION_MS = 10;
const CPU_CHECK_MS = 20;

function _budget(request: Pick<OutlineRequest, "id" | "budgetMs">): Budget {
  const now = performance.now();
  return {
    id: request.id,
    budgetMs: request.budgetMs,
    deadline: now + request.budgetMs,
    cpuStart: _cpuMs(),
    cpuChecked: -Infinity,
  };
}

// Whether the parse has spent its budget.
function _spent(budget: Budget, now: number): boolean {
  if (now <= budget.deadline) return false;
  if (now - budget.cpuChecked < CPU_CHECK_MS) return false;
  budget.cpuChecked = now;
  return _cpuMs() - budget.cpuStart >= budget.budgetMs - CPU_RESOLUTION_MS;
}

type CpuClock = () => { user: number; system: number };

const NODE_PROCESS = (globalThis as {
  process?: { threadCpuUsage?: CpuClock };
}).process;

// This thread's CPU time in ms (Deno's `process` global, no permission
// needed); wall time where the runtime has no such clock.
function _cpuMs(): number {
  if (NODE_PROCESS?.threadCpuUsage === undefined) return performance.now();
  const { user, system } = NODE_PROCESS.threadCpuUsage();
  return (user + system) / 1000;
}

// Signs of life for the pool's watchdog (see WorkerProgress): at most one a
// second, however often they are offered.
const BEAT_MS = 1000;
let lastBeat = -Infinity;

function _beat(id: number, now = performance.now()): void {
  if (now - lastBeat < BEAT_MS) return;
  lastBeat = now;
  const progress: WorkerProgress = { type: "progress", id };
  port.post(progress, []);
}

// A first piece that does not stand alone was cut through a construct (or
// the file has errors): go on to the whole file from its tree, which
// tree-sitter reuses up to the cut (about as fast as parsing it whole).
function _parseFirstPiece(
  parser: Parser,
  { text, bytes, prepare }: {
    text: string;
    bytes: Uint8Array;
    prepare: (source: string) => string;
  },
  budget: Budget,
): { tree: Tree; whole?: string } {
  const parsed = prepare(text);
  const tree = _parseWithin(parser, parsed, null, budget);
  if (standsAlone(tree.rootNode, true)) return { tree };
  const whole = new TextDecoder().decode(bytes);
  const wholeParsed = prepare(whole);
  try {
    tree.edit(textEdit(parsed, wholeParsed) as Edit);
    return { tree: _parseWithin(parser, wholeParsed, tree, budget), whole };
  } finally {
    tree.delete();
  }
}

// A later piece stops at its first syntax error, freeing its core.
function _parseLaterPiece(parser: Parser, text: string, budget: Budget): Tree {
  const tree = _parseWithin(parser, text, null, { ...budget, cleanOnly: true });
  if (standsAlone(tree.rootNode, false)) return tree;
  tree.delete();
  throw new Failure("unclean", "the piece does not parse on its own");
}

// A parse over budget is cancelled through the progress callback, and so is
// a parse that only has to tell whether it is clean, once it reports an error.
function _parseWithin(
  parser: Parser,
  text: string,
  oldTree: Tree | null,
  budget: Budget & { cleanOnly?: boolean },
  { includedRanges }: { includedRanges?: Range[] } = {},
): Tree {
  let unclean = false;
  const tree = parser.parse(text, oldTree, {
    includedRanges,
    progressCallback: (state) => {
      unclean = budget.cleanOnly === true && state.hasError;
      if (unclean) return true;
      const now = performance.now();
      _beat(budget.id, now);
      return _spent(budget, now);
    },
  });
  _beat(budget.id);
  if (tree === null) {
    parser.reset();
    throw unclean
      ? new Failure("unclean", "the piece does not parse on its own")
      : new Failure(
        "budget",
        `parsing took longer than the ${budget.budgetMs} ms budget`,
      );
  }
  return tree;
}

// A blocking read: the worker has nothing else to do meanwhile, and it costs
// a tenth of an async one (a folder of 500 small files read in 10 ms, not
// 65-120 ms). The outliner sends only regular files; one replaced by a pipe
// since is caught here (opening a pipe blocks too), and in the instant
// between the two the pool's watchdog ends a read that never returns.
function _read(path: string): Uint8Array<ArrayBuffer> {
  try {
    if (!runtime.statSync(path).isFile) {
      throw new Failure(
        "read",
        "it is not a regular file (a device, socket or pipe)",
      );
    }
    return asUtf8(readUpTo(path, MAX_OUTLINE_BYTES));
  } catch (error) {
    if (error instanceof Failure) throw error;
    if (error instanceof TooBig) throw new Failure("read", TOO_BIG_REASON);
    const reason = isError(error, "notFound")
      ? "the file does not exist"
      : isError(error, "isADirectory")
      ? "it is a folder"
      : error instanceof Error
      ? error.message
      : String(error);
    throw new Failure("read", reason);
  }
}

// The longest line a grammar parses. A line is never split into pieces, and
// minified code or a data literal on one line costs the parser CPU and WASM
// memory by its tokens: a line of many megabytes of them runs the parser out
// of memory after seconds of work. Such a line is generated code or data,
// which an outline by line numbers cannot show anyway. Measured: bench/README.md.
const MAX_LINE_BYTES = 4 * 1024 * 1024;

// Refuses before parsing a file that holds a line over MAX_LINE_BYTES
// (`lineOffset`: the lines before these bytes, for a piece of a file).
function _refuseLongLine(bytes: Uint8Array, lineOffset: number): void {
  const long = _longLine(bytes);
  if (long === undefined) return;
  throw new Failure(
    "line",
    `line ${(lineOffset + long.line).toLocaleString("en-US")} is ${
      long.length.toLocaleString("en-US")
    } bytes long, and an outline parses lines of up to ${
      MAX_LINE_BYTES / 1024 / 1024
    } MiB (a longer one is generated code or data, which runs the parser out of memory); search it instead`,
  );
}

// A syntax check's refusal of a text with a line over MAX_LINE_BYTES (counted
// in UTF-16 code units, near enough), for the same reason.
function _refuseLongTextLine(text: string): void {
  if (_longLine(text) !== undefined) {
    throw new Failure("line", "a line is too long to parse");
  }
}

// The first line longer than MAX_LINE_BYTES units (its number from 1 and its
// length), in bytes or in a text.
function _longLine(
  data: Uint8Array | string,
): { line: number; length: number } | undefined {
  if (data.length <= MAX_LINE_BYTES) return undefined;
  const next = typeof data === "string"
    ? (from: number) => data.indexOf("\n", from)
    : (from: number) => data.indexOf(10, from);
  for (let start = 0, line = 1; start < data.length; line++) {
    const newline = next(start);
    const end = newline === -1 ? data.length : newline;
    if (end - start > MAX_LINE_BYTES) return { line, length: end - start };
    start = end + 1;
  }
  return undefined;
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
  request: WorkerRequest,
): Promise<{ reply: WorkerReply; cleanup?: () => void }> {
  try {
    if (request.type === "syntax") return await _syntax(request);
    const { result, size, incremental, partial, hash, names, cleanup } =
      await _outline(request);
    const { symbols, omitted } = capSymbols(
      result.symbols,
      request.maxSymbols ?? MAX_SYMBOLS,
    );
    const capped = { ...result, symbols, ...(omitted ? { omitted } : {}) };
    const reply: WorkerReply = {
      type: "result",
      id: request.id,
      outline: packOutline(capped, request.piece?.lineOffset),
      recycle: size > request.recycleBytes,
      incremental: incremental ?? false,
      partial: partial ?? false,
      ...(hash === undefined ? {} : { hash }),
      ...(names === undefined ? {} : { names }),
    };
    return { reply, cleanup };
  } catch (error) {
    const failure = error instanceof Failure ? error.failure : "parse";
    const message = !(error instanceof Failure) && _outOfMemory(error)
      ? "the parser ran out of memory on this file; read it by line ranges instead"
      : error instanceof Error
      ? error.message
      : String(error);
    return {
      reply: {
        type: "error",
        id: request.id,
        failure,
        message,
        // A failed parse may have left the WASM heap large or broken.
        recycle: failure === "budget" || failure === "parse",
      },
    };
  }
}

// How a parse that needs more WASM memory than there is ends: emscripten's
// abort, or an allocation refused.
function _outOfMemory(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return /^Aborted\(|out of memory|exceeds maximum length|allocation failed/i
    .test(message);
}

// The pool may post a second job before the first is answered: run them one
// at a time, in order, so replies come back in the order of the requests.
let queue: Promise<void> = Promise.resolve();

const port = await threadPort();

port.onMessage((request) => {
  queue = queue.then(() => _serve(request as WorkerRequest)).catch((error) => {
    // Unexpected: crash the worker (the pool replaces it) rather than leave
    // the jobs behind this one waiting forever.
    setTimeout(() => {
      throw error;
    });
  });
});

async function _serve(request: WorkerRequest): Promise<void> {
  // The job starts now, however long the worker took to boot or to finish
  // the one before.
  lastBeat = -Infinity;
  _beat(request.id);
  const seams: Pick<OutlineRequest, "crash" | "stall"> =
    request.type === "outline" ? request : {};
  if (seams.crash) {
    // A real uncaught error, exactly what a bug or a WASM trap would raise
    // (thrown outside the promise chain, so it is not a mere rejection).
    setTimeout(() => {
      throw new Error("outline worker crashed on request");
    });
    return new Promise(() => {}); // the jobs after it never start
  }
  if (seams.stall) {
    // Blocks this thread, as a blocking read of a pipe does.
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  }
  _settled();
  const { reply, cleanup } = await _handle(request);
  port.post(
    reply,
    reply.type === "result" ? [reply.outline.numbers.buffer] : [],
  );
  if (reply.type === "syntax" && cleanup !== undefined) _settle(cleanup);
  else cleanup?.();
}

// After a check, the caller writes the file while this worker would parse
// the new text whole for the next check: on two cores the two compete, and
// the write took twice as long. So that parse waits a moment, and runs
// before the next job in any case.
const SETTLE_MS = 25;
let unsettled: (() => void) | undefined;

function _settle(cleanup: () => void): void {
  unsettled = cleanup;
  const timer = setTimeout(() => {
    queue = queue.then(_settled);
  }, SETTLE_MS);
  runtime.unrefTimer(timer);
}

function _settled(): void {
  const cleanup = unsettled;
  unsettled = undefined;
  cleanup?.();
}
