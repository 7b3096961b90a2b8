// The outline engine behind the public functions: path checks on the main
// thread, a result cache keyed by path, size and modification time, and the
// worker pool for everything that parses.
import { fileURLToPath } from "node:url";
import { requireDenoPermission } from "../internal/deno_permission.ts";
import { requireWorkerFolders } from "../internal/worker_url.ts";
import { resolvePath } from "../internal/paths.ts";
import { isFileUrl } from "../internal/file_url.ts";
import { ToolError } from "../internal/tool_error.ts";
import {
  configuredGrammarsDir,
  grammarModule,
  runtimeModule,
  UNSET_GRAMMARS_DIR,
} from "../grammars/grammars.ts";
import { languageForExtension, languageId } from "./languages/_registry.ts";
import type { LanguageSpec } from "./languages/_language.ts";
import {
  type OutlineJob,
  OutlinePool,
  type PoolJob,
  type SyntaxJob,
} from "./_pool.ts";
import { sha256 } from "./_sha256.ts";
import { unpackOutline } from "./_transfer.ts";
import { joinPieces, pieceStarts } from "./_pieces.ts";
import { countNewlines } from "../internal/scan_buffer.ts";
import { SUPPORTED_EXTENSIONS, supportedExtension } from "./supported.ts";
import { dialectExtension, textDialectExtension } from "./_dialect.ts";
import { capSymbols, MAX_SYMBOLS } from "./_symbol_cap.ts";
import {
  asUtf8,
  MAX_OUTLINE_BYTES,
  readUpToAsync,
  startsBinary,
  TOO_BIG_REASON,
} from "./_file_bytes.ts";
import type {
  ErrorReply,
  OutlineReply,
  SyntaxReply,
  TextChange,
  WorkerReply,
} from "./_protocol.ts";
import { changedSpan } from "./_incremental.ts";
import type { OutlineResult, OutlineSymbol, SyntaxErrorInfo } from "./types.ts";
import { isError, runtime } from "../internal/runtime/runtime.ts";
import type { FileInfo } from "../internal/runtime/runtime.ts";

/** Files from this size on are parsed in pieces side by side (see _pieces.ts). */
const DEFAULT_SPLIT_BYTES = 1 << 20;

/**
 * How many lines smaller a piece is when its worker has yet to start. A new
 * worker begins to parse 15-40 ms after the one started before it, and a
 * fresh worker parses and outlines a line in 4-7 µs. The first worker also
 * checks the whole file and may fall back on it; with 3,000 lines or none
 * instead, lib.dom.d.ts was outlined no faster (16 interleaved rounds each).
 * Lines, not bytes: per byte, lib.dom.d.ts (long doc comments) parses 2.5
 * times as fast as dense generated code, per line within 1.5 times.
 */
const NEW_WORKER_HEAD_START_LINES = 8000;

/** The default parse budget: a pathological parse is cancelled after 30 s. */
export const DEFAULT_PARSE_BUDGET_MS = 30_000;

/** Per-call options. */
export interface OutlineCallOptions {
  /** Folder that a relative path resolves against; defaults to `Deno.cwd()`. */
  cwd?: string;
  /** Cancel a parse after this many milliseconds (default 30 000). */
  parseBudgetMs?: number;
  /** A folder of grammar `.wasm` files to use instead of the npm packages. */
  grammarsDir?: string;
  /** List at most this many symbols, counting the rest (default 200,000). */
  maxSymbols?: number;
  /**
   * Stop waiting when aborted. The parse itself stops (its worker replaced)
   * only when no other call of the same file still waits for it.
   */
  signal?: AbortSignal;
}

/** A parse that concurrent calls of one unchanged file share. */
interface SharedParse {
  result: Promise<OutlineResult>;
  /** Calls still waiting for it; a call without a signal never leaves. */
  waiters: number;
  /** Stops the parse when the last waiter leaves. */
  controller: AbortController;
}

/** Options for {@linkcode Outliner}. */
export interface OutlinerOptions {
  /** Workers in the pool; defaults to the number of cores. */
  workers?: number;
  /** Results kept in the cache (least recently used dropped first). */
  cacheSize?: number;
  /**
   * The memory the cached results and the texts kept by `outlineText()` may
   * take, estimated (default 64 MiB): one outline of a big file holds tens
   * of megabytes.
   */
  cacheBytes?: number;
  /**
   * Replace a worker after it parsed a file larger than this (default 4 MiB):
   * WASM memory grows to fit the largest tree and never shrinks.
   */
  recycleBytes?: number;
  /**
   * Split a file of at least this many bytes (default 1 MiB) into pieces
   * that the workers parse side by side, one per worker, each at least a
   * quarter of this size (a worker yet to start gets a smaller one); the
   * outline is the same as from a whole parse (see _pieces.ts). `Infinity`
   * never splits.
   */
  splitBytes?: number;
}

/**
 * A file modified this close to the moment it was read may change again
 * without its modification time moving (file system clocks tick coarsely:
 * milliseconds on ext4, seconds elsewhere), as git's "racily clean" entries.
 */
const RACY_MS = 2000;

interface CacheEntry {
  size: number;
  mtimeMs: number;
  /** The grammar folder the result came from, if not the npm packages. */
  grammarsDir?: string;
  result: OutlineResult;
  /** For a racy entry: the SHA-256 of the content parsed, checked on each hit. */
  hash?: string;
  /** The memory the result takes, estimated (see _weight). */
  bytes?: number;
  /** The symbol cap the result was made with. */
  maxSymbols: number;
  /** When it was last used (see Outliner.#uses). */
  used?: number;
}

/**
 * Texts outlineText() keeps with their outlines: a few files read or edited
 * by symbol in turn, each up to MAX_KEPT_TEXT_LENGTH (UTF-16 code units).
 * They count against `cacheBytes` with the cached results.
 */
const MAX_KEPT_TEXTS = 4;
const MAX_KEPT_TEXT_LENGTH = 8 * 1024 * 1024;

/** A text outlined by outlineText(), and its outline. */
interface KeptText {
  text: string;
  result: OutlineResult;
  /** The memory text and outline take, estimated (see _weight). */
  bytes: number;
  /** When it was last used (see Outliner.#uses). */
  used: number;
}

/** What {@linkcode Outliner.syntaxErrors} found. */
export interface SyntaxErrorsFound {
  /** The language's display name, e.g. `TypeScript`. */
  language: string;
  /**
   * The engine's key for the language: `typescript`, `tsx`, `javascript`,
   * `flow` (JavaScript with Flow types), `python`, `go`, `c`, `cpp`, `objc`
   * (an Objective-C header), `swift`, `kotlin` or `dart`.
   */
  languageId: string;
  /**
   * How many errors the old text has, counted only when the new text has
   * some (else 0, the old text not parsed at all).
   */
  before: number;
  /** How many errors the new text has. */
  after: number;
  /** The new text's errors that the old text did not have (the first 50). */
  added: SyntaxErrorInfo[];
}

/** A pool plus a result cache. One default instance serves the public API. */
export class Outliner {
  #pool: OutlinePool;
  #cache = new Map<string, CacheEntry>();
  #pending = new Map<string, SharedParse>();
  #cacheSize: number;
  #cacheBytes: number;
  #cachedBytes = 0;
  #parses = 0;
  #incremental = 0;
  #recycleBytes: number;
  #splitBytes: number;
  #pieceOutlines = 0;
  /** The last texts outlined by outlineText(), by path (see MAX_KEPT_TEXTS). */
  #texts = new Map<string, KeptText>();
  /** What the kept texts weigh, estimated (see _weight). */
  #keptBytes = 0;
  /** A clock that orders the uses of cached results and kept texts. */
  #uses = 0;
  /** The new texts of the last syntax checks, by path (see syntaxErrors()). */
  #checked = new Map<string, { text: string; version: number }>();
  #versions = 0;
  #checksByChange = 0;

  constructor(options: OutlinerOptions = {}) {
    this.#pool = new OutlinePool({ size: options.workers });
    this.#cacheSize = options.cacheSize ?? 1000;
    this.#cacheBytes = options.cacheBytes ?? 64 * 1024 * 1024;
    this.#recycleBytes = options.recycleBytes ?? 4 * 1024 * 1024;
    this.#splitBytes = options.splitBytes ?? DEFAULT_SPLIT_BYTES;
  }

  /** How many syntax checks a worker answered from a change alone. A test seam. */
  get checksByChange(): number {
    return this.#checksByChange;
  }

  /** How many files were sent to a worker (cache misses). A test seam. */
  get parses(): number {
    return this.#parses;
  }

  /** How many outlines were joined from pieces parsed side by side. A test seam. */
  get pieceOutlines(): number {
    return this.#pieceOutlines;
  }

  /**
   * How many of those parses, and of the syntax checks, reused the file's
   * previous tree. A test seam.
   */
  get incrementalParses(): number {
    return this.#incremental;
  }

  /** How many calls wait for a parse in progress. A test seam. */
  get waiting(): number {
    let count = 0;
    for (const shared of this.#pending.values()) count += shared.waiters;
    return count;
  }

  /** The worker pool (for tests and benches). */
  get pool(): OutlinePool {
    return this.#pool;
  }

  /** Outlines one file, from the cache when it is unchanged. */
  async outline(
    path: string,
    options: OutlineCallOptions = {},
  ): Promise<OutlineResult> {
    _refuseAborted(path, options.signal);
    const absolute = _absolute(path, options.cwd);
    const extension = supportedExtension(absolute);
    if (extension === undefined) {
      throw await _isFolder(absolute) ? _folder(path) : _unsupported(path);
    }
    await requireDenoPermission({ name: "read", path: absolute });
    await _requireWorkerRead();
    const statTime = Date.now();
    const stat = await _stat(path, absolute);
    const maxSymbols = _maxSymbols(options.maxSymbols);
    const cached = this.#cache.get(absolute);
    if (
      cached !== undefined && cached.size === stat.size &&
      cached.mtimeMs === stat.mtimeMs &&
      cached.grammarsDir === options.grammarsDir &&
      // A complete result serves any cap; a capped one, its own cap only.
      (cached.result.omitted === undefined ||
        cached.maxSymbols === maxSymbols) &&
      await _unchanged(absolute, cached, statTime)
    ) {
      this.#cache.delete(absolute);
      this.#cache.set(absolute, { ...cached, used: ++this.#uses });
      return cached.result;
    }
    // A cached file was outlinable; another is checked before any worker
    // reads it.
    await _requireOutlinable(path, absolute, stat.size);
    // Concurrent calls for the same unchanged file share one parse (with the
    // same grammars and budget).
    const key = [
      absolute,
      stat.size,
      stat.mtimeMs,
      options.grammarsDir,
      options.parseBudgetMs,
      maxSymbols,
    ].join("\0");
    _refuseAborted(path, options.signal);
    let shared = this.#pending.get(key);
    if (shared === undefined) {
      const controller = new AbortController();
      const result = this.#parse(path, {
        absolute,
        extension,
        stat,
        racy: stat.mtimeMs !== null && statTime - stat.mtimeMs < RACY_MS,
        options: { ...options, maxSymbols, signal: controller.signal },
      });
      const entry: SharedParse = { result, waiters: 0, controller };
      this.#pending.set(key, entry);
      const forget = (): void => {
        if (this.#pending.get(key) === entry) this.#pending.delete(key);
      };
      result.finally(forget).catch(() => {});
      // A cancelled parse takes no new waiters.
      controller.signal.addEventListener("abort", forget, { once: true });
      shared = entry;
    }
    return await _wait(path, shared, options.signal);
  }

  /**
   * The outline of one file together with the identifiers its code uses
   * (each once), for the repo map. Always a fresh whole-file parse: the
   * caller keeps its own cache.
   */
  async outlineWithNames(
    path: string,
    options: Omit<OutlineCallOptions, "maxSymbols"> = {},
  ): Promise<{ result: OutlineResult; names: string[] }> {
    _refuseAborted(path, options.signal);
    const absolute = _absolute(path, options.cwd);
    const named = supportedExtension(absolute);
    if (named === undefined) {
      throw await _isFolder(absolute) ? _folder(path) : _unsupported(path);
    }
    await requireDenoPermission({ name: "read", path: absolute });
    await _requireWorkerRead();
    const stat = await _stat(path, absolute);
    await _requireOutlinable(path, absolute, stat.size);
    const { job } = await this.#job(absolute, named, options);
    const reply = await this.#run(path, { ...job, names: true }).catch(
      (error) => {
        throw _grammarsDirAdvice(error, options.grammarsDir);
      },
    );
    if (reply.type === "error") throw _failure(path, reply);
    return { result: unpackOutline(reply.outline), names: reply.names ?? [] };
  }

  /**
   * Outlines `text` as the content of `path` (whose name picks the language),
   * text the caller read itself, so that what it outlines is what it holds
   * (an edit by symbol changes exactly that). Every symbol is listed (no
   * cap). The same text of the same path again is answered from the last few
   * kept (a read by symbol after another); a changed one may still reuse the
   * worker's tree of the path.
   */
  async outlineText(
    path: string,
    text: string,
    options: Omit<OutlineCallOptions, "maxSymbols"> = {},
  ): Promise<OutlineResult> {
    _refuseAborted(path, options.signal);
    const absolute = _absolute(path, options.cwd);
    const named = supportedExtension(absolute);
    if (named === undefined) throw _unsupported(path);
    await _requireWorkerRead();
    const key = `${absolute}\0${options.grammarsDir ?? ""}`;
    const kept = this.#texts.get(key);
    if (kept !== undefined && kept.text === text) {
      this.#texts.delete(key);
      this.#texts.set(key, { ...kept, used: ++this.#uses });
      return kept.result;
    }
    const bytes = new TextEncoder().encode(text);
    if (bytes.length > MAX_OUTLINE_BYTES) {
      throw new ToolError(`Cannot outline "${path}": ${TOO_BIG_REASON}`);
    }
    const { job, spec } = await this.#job(
      absolute,
      named,
      { ...options, maxSymbols: Infinity },
      text,
    );
    const { result } = await this.#outlineBytes(path, {
      job,
      spec,
      bytes,
      count: this.#pieceCount(spec, bytes.length),
      racy: false,
    }).catch((error) => {
      throw _grammarsDirAdvice(error, options.grammarsDir);
    });
    this.#keep(key, text, result);
    return result;
  }

  /**
   * The syntax errors of `newText`, the new content of the file at `path`
   * (absolute), against those of `oldText`, the content it replaces (none for
   * a new file). Undefined for a file the outline parses without a grammar
   * (Markdown) or not at all: another extension, a binary or too big text.
   */
  async syntaxErrors(
    path: string,
    texts: { oldText?: string; newText: string },
    options: Omit<OutlineCallOptions, "cwd" | "maxSymbols"> = {},
  ): Promise<SyntaxErrorsFound | undefined> {
    _refuseAborted(path, options.signal);
    const named = supportedExtension(path);
    const newText = _withoutBom(texts.newText);
    if (named === undefined || !_parsable(newText)) return undefined;
    const spec = languageForExtension(textDialectExtension(newText, named));
    if (spec === undefined) return undefined;
    const oldText = texts.oldText === undefined || !_parsable(texts.oldText)
      ? undefined
      : _withoutBom(texts.oldText);
    await _requireWorkerRead();
    this.#pool.warm();
    const version = ++this.#versions;
    const job: SyntaxJob = {
      type: "syntax",
      path,
      language: languageId(spec),
      version,
      budgetMs: options.parseBudgetMs ?? DEFAULT_PARSE_BUDGET_MS,
      recycleBytes: this.#recycleBytes,
      signal: options.signal,
      ...await _grammarFor(spec, options.grammarsDir),
    };
    const run = (texts: Pick<SyntaxJob, "oldText" | "newText" | "change">) =>
      this.#run(path, { ...job, ...texts }).catch((error) => {
        throw _grammarsDirAdvice(error, options.grammarsDir);
      });
    // After a check of this path, its worker keeps the new text: the next
    // check of an edit of it sends the change alone, not 2 copies of the file.
    const last = this.#checked.get(path);
    this.#checked.delete(path);
    const byChange = last !== undefined && last.text === oldText
      ? await run({ change: _change(last.version, oldText, newText) })
      : undefined;
    let reply: SyntaxReply;
    if (byChange !== undefined && !_stale(byChange)) {
      reply = byChange;
      this.#checksByChange++;
    } else {
      reply = await run({
        ...(oldText === undefined ? {} : { oldText }),
        newText,
      });
    }
    if (reply.type !== "error") {
      this.#checked.set(path, { text: newText, version });
    }
    while (this.#checked.size > MAX_CHECKED_TEXTS) {
      this.#checked.delete(this.#checked.keys().next().value!);
    }
    if (reply.type === "error") throw _failure(path, reply);
    if (reply.incremental) this.#incremental++;
    return {
      language: spec.name,
      languageId: languageId(spec),
      before: reply.before,
      after: reply.after,
      added: reply.added,
    };
  }

  // The pool job that parses `absolute`, whose extension is `named`; boots a
  // worker while the grammar modules are fetched.
  async #job(
    absolute: string,
    named: string,
    options: OutlineCallOptions,
    text?: string,
  ): Promise<{ job: OutlineJob; spec: LanguageSpec | undefined }> {
    this.#pool.warm();
    this.#parses++;
    // A `.h` header may be C++, a `.js` script Flow-typed (see _dialect.ts):
    // told from the text when the caller has it, else from the file's head.
    const extension = text === undefined
      ? await dialectExtension(absolute, named)
      : textDialectExtension(text, named);
    const spec = languageForExtension(extension);
    const job: OutlineJob = {
      path: absolute,
      extension,
      ...(spec === undefined ? {} : { language: languageId(spec) }),
      budgetMs: options.parseBudgetMs ?? DEFAULT_PARSE_BUDGET_MS,
      recycleBytes: this.#recycleBytes,
      maxSymbols: options.maxSymbols ?? MAX_SYMBOLS,
      signal: options.signal,
      ...await _grammarFor(spec, options.grammarsDir),
    };
    return { job, spec };
  }

  async #parse(
    path: string,
    { absolute, extension: named, stat, racy, options }: {
      absolute: string;
      extension: string;
      stat: { size: number; mtimeMs: number | null };
      racy: boolean;
      options: OutlineCallOptions;
    },
  ): Promise<OutlineResult> {
    const { job, spec } = await this.#job(absolute, named, options);
    const count = this.#pieceCount(spec, stat.size);
    // A file that may be split is read here, once: its pieces get the bytes,
    // or the whole-file job does (after a failed read the worker reads and
    // reports why).
    const bytes = spec && count > 1 ? await _readOrNot(absolute) : undefined;
    const outlined = await this.#outlineBytes(path, {
      job,
      spec,
      bytes,
      count,
      racy,
    }).catch((error) => {
      throw _grammarsDirAdvice(error, options.grammarsDir);
    });
    if (stat.mtimeMs !== null) {
      this.#remember(absolute, {
        size: stat.size,
        mtimeMs: stat.mtimeMs,
        grammarsDir: options.grammarsDir,
        maxSymbols: options.maxSymbols ?? MAX_SYMBOLS,
        ...outlined,
      });
    }
    return outlined.result;
  }

  // In pieces when the file was read for them and they stand alone, else whole.
  async #outlineBytes(
    path: string,
    { job, spec, bytes, count, racy }: {
      job: OutlineJob;
      spec: LanguageSpec | undefined;
      bytes: Uint8Array<ArrayBuffer> | undefined;
      count: number;
      racy: boolean;
    },
  ): Promise<{ result: OutlineResult; hash?: string }> {
    return (spec && bytes &&
      await this.#outlineInPieces(path, { job, spec, bytes, count, racy })) ??
      await this.#outlineWhole(path, {
        ...job,
        hash: racy,
        bytes: bytes && _wholeBuffer(bytes),
      });
  }

  async #outlineWhole(
    path: string,
    job: OutlineJob,
  ): Promise<{ result: OutlineResult; hash?: string }> {
    const reply = await this.#run(path, job);
    if (reply.type === "error") throw _failure(path, reply);
    if (reply.incremental) this.#incremental++;
    return { result: unpackOutline(reply.outline), hash: reply.hash };
  }

  // How many pieces to split a file of `size` bytes into: one per worker, each
  // at least half of splitBytes; 1 (no split) for Markdown and Kotlin.
  #pieceCount(spec: LanguageSpec | undefined, size: number): number {
    if (spec === undefined || spec.parseWhole) return 1;
    const pieces = Math.floor(size / (this.#splitBytes / 2));
    return Math.min(this.#pool.size, pieces);
  }

  // Outlines a large file in pieces side by side (see _pieces.ts), or answers
  // undefined when it has to be parsed whole: no place to split it, or a
  // piece with a syntax error of its own.
  async #outlineInPieces(
    path: string,
    { job, spec, bytes, count, racy }: {
      job: OutlineJob;
      spec: LanguageSpec;
      bytes: Uint8Array<ArrayBuffer>;
      count: number;
      racy: boolean;
    },
  ): Promise<{ result: OutlineResult; hash?: string } | undefined> {
    const lineBytes = bytes.length / Math.max(1, countNewlines(bytes));
    const starts = pieceStarts(bytes, count, spec, {
      running: this.#pool.idle,
      headStart: NEW_WORKER_HEAD_START_LINES * lineBytes,
    });
    if (starts.length === 0) return undefined;
    const hash = racy ? await sha256(bytes) : undefined;
    // The first piece gets the whole file, to fall back on without a read.
    const replies = [
      this.#run(path, {
        ...job,
        bytes: _wholeBuffer(bytes),
        piece: { lineOffset: 0, end: starts[0] },
      }),
    ];
    let lineOffset = 0;
    for (let i = 0; i < starts.length; i++) {
      lineOffset += countNewlines(
        bytes.subarray(starts[i - 1] ?? 0, starts[i]),
      );
      const piece = bytes.slice(starts[i], starts[i + 1] ?? bytes.length);
      replies.push(
        this.#run(path, { ...job, bytes: piece.buffer, piece: { lineOffset } }),
      );
    }
    // Unanswered replies must not reject unhandled after an early return.
    for (const reply of replies) reply.catch(() => {});
    const outlines: OutlineResult[] = [];
    for (const [i, pending] of replies.entries()) {
      const reply = await pending;
      if (reply.type === "error") {
        if (reply.failure === "unclean") return undefined;
        throw _failure(path, reply);
      }
      const outline = unpackOutline(reply.outline);
      if (i === 0 && !reply.partial) return { result: outline, hash };
      outlines.push(outline);
    }
    this.#pieceOutlines++;
    const joined = joinPieces(spec, outlines);
    // Each piece kept its first symbols up to the cap: the cap again, over
    // them all, keeps the file's first ones.
    const capped = capSymbols(joined.symbols, job.maxSymbols ?? MAX_SYMBOLS);
    const omitted = capped.omitted +
      outlines.reduce((sum, outline) => sum + (outline.omitted ?? 0), 0);
    return {
      result: {
        ...joined,
        symbols: capped.symbols,
        ...(omitted ? { omitted } : {}),
      },
      hash,
    };
  }

  /** Forgets every cached result. */
  clearCache(): void {
    this.#cache.clear();
    this.#texts.clear();
    this.#cachedBytes = 0;
    this.#keptBytes = 0;
  }

  /** Stops the workers (they never keep the process alive anyway). */
  terminate(): Promise<void> {
    return this.#pool.terminate();
  }

  #run(path: string, job: OutlineJob): Promise<OutlineReply>;
  #run(path: string, job: SyntaxJob): Promise<SyntaxReply>;
  async #run(path: string, job: PoolJob): Promise<WorkerReply> {
    try {
      return await this.#pool.run(job);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new ToolError(`Cannot outline "${path}": ${reason}; try again`, {
        cause: error,
      });
    }
  }

  #remember(path: string, entry: CacheEntry): void {
    this.#forget(path);
    const bytes = _weight(entry.result.symbols);
    // A result larger than the whole budget is not kept at all.
    if (bytes > this.#cacheBytes) return;
    this.#cache.set(path, { ...entry, bytes, used: ++this.#uses });
    this.#cachedBytes += bytes;
    this.#trim();
  }

  #forget(path: string): void {
    this.#cachedBytes -= this.#cache.get(path)?.bytes ?? 0;
    this.#cache.delete(path);
  }

  // Keeps `text` of `key` with its outline, unless it is too long or weighs
  // more than the whole budget.
  #keep(key: string, text: string, result: OutlineResult): void {
    this.#drop(key);
    const bytes = 2 * text.length + _weight(result.symbols);
    if (text.length > MAX_KEPT_TEXT_LENGTH || bytes > this.#cacheBytes) return;
    this.#texts.set(key, { text, result, bytes, used: ++this.#uses });
    this.#keptBytes += bytes;
    this.#trim();
  }

  #drop(key: string): void {
    this.#keptBytes -= this.#texts.get(key)?.bytes ?? 0;
    this.#texts.delete(key);
  }

  // Drops the least recently used until each cache holds no more than its
  // count and the two together weigh no more than cacheBytes.
  #trim(): void {
    const oldest = <K>(map: Map<K, unknown>) => map.keys().next().value!;
    while (this.#texts.size > MAX_KEPT_TEXTS) this.#drop(oldest(this.#texts));
    while (this.#cache.size > this.#cacheSize) {
      this.#forget(oldest(this.#cache));
    }
    while (this.#cachedBytes + this.#keptBytes > this.#cacheBytes) {
      const text = this.#texts.values().next().value;
      const result = this.#cache.values().next().value;
      if (text !== undefined && (result?.used ?? Infinity) > text.used) {
        this.#drop(oldest(this.#texts));
      } else this.#forget(oldest(this.#cache));
    }
  }
}

// A text the outline would parse: not over its cap, not binary.
function _parsable(text: string): boolean {
  return text.length <= MAX_OUTLINE_BYTES &&
    !text.slice(0, BINARY_PROBE_CHARS).includes("\0");
}

/** How much of a text's start tells whether it is binary (a NUL in it). */
const BINARY_PROBE_CHARS = 8192;

function _withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

// Waits for a shared parse until `signal` aborts; the last waiter to leave
// stops the parse, so no worker parses for a call nobody waits for.
async function _wait(
  path: string,
  shared: SharedParse,
  signal: AbortSignal | undefined,
): Promise<OutlineResult> {
  shared.waiters++;
  if (signal === undefined) return await shared.result;
  const aborted = Promise.withResolvers<never>();
  const leave = (): void => {
    if (--shared.waiters === 0) shared.controller.abort();
    aborted.reject(_cancelled(path));
  };
  signal.addEventListener("abort", leave, { once: true });
  try {
    return await Promise.race([shared.result, aborted.promise]);
  } finally {
    signal.removeEventListener("abort", leave);
  }
}

function _refuseAborted(path: string, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw _cancelled(path);
}

function _cancelled(path: string): ToolError {
  return new ToolError(`Outlining "${path}" was cancelled`);
}

// The memory a result's symbols take, estimated: an object with its fields
// and children array (about 200 bytes in V8), plus two bytes per character
// of its strings. 100,000 headings came to ~17 MB measured, 20 MB so.
function _weight(symbols: OutlineSymbol[]): number {
  let bytes = 0;
  for (const symbol of symbols) {
    bytes += 200 +
      2 * (symbol.kind.length + symbol.name.length + (symbol.doc?.length ?? 0));
    if (symbol.children.length > 0) bytes += _weight(symbol.children);
  }
  return bytes;
}

// Whether a cached entry whose size and mtime match still describes the file:
// always for a settled entry; for a racy one, when the content hashes the
// same. Once its mtime is old enough, a matching entry is settled for good.
async function _unchanged(
  path: string,
  entry: CacheEntry,
  statTime: number,
): Promise<boolean> {
  if (entry.hash === undefined) return true;
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = await runtime.readFile(path);
  } catch {
    return false;
  }
  // The worker hashed the text as parsed (UTF-16 re-encoded as UTF-8).
  if (
    bytes.length !== entry.size || await sha256(asUtf8(bytes)) !== entry.hash
  ) {
    return false;
  }
  if (statTime - entry.mtimeMs >= RACY_MS) delete entry.hash;
  return true;
}

// A worker loads its own modules from disk (when this package is local), so
// it needs read access to them: check once, for a clear error up front
// instead of a crashed worker.
let workerReadable: Promise<void> | undefined;

function _requireWorkerRead(): Promise<void> {
  workerReadable ??= requireWorkerFolders(WORKER_FOLDERS).catch((error) => {
    workerReadable = undefined;
    throw error;
  });
  return workerReadable;
}

/** The folders of the worker's own modules (a test keeps them in step). */
export const WORKER_FOLDERS: readonly URL[] = [
  new URL("./", import.meta.url),
  new URL("../grammars/", import.meta.url),
  // The shared helpers it reads files with.
  new URL("../internal/", import.meta.url),
];

// What the worker needs to load the grammar: the folder in force, or else the
// compiled modules, imported once on this thread and shared with every worker.
async function _grammarFor(
  spec: LanguageSpec | undefined,
  grammarsDir: string | undefined,
): Promise<Pick<OutlineJob, "grammarsDir" | "grammar" | "runtime">> {
  if (spec === undefined) return {};
  const dir = configuredGrammarsDir(grammarsDir);
  if (dir !== undefined) return { grammarsDir: dir };
  const [grammar, runtime] = await Promise.all([
    grammarModule(spec.grammar),
    runtimeModule(),
  ]);
  return { grammar, runtime };
}

// The file's bytes, or undefined when it cannot be read.
async function _readOrNot(
  path: string,
): Promise<Uint8Array<ArrayBuffer> | undefined> {
  try {
    return asUtf8(await readUpToAsync(path, MAX_OUTLINE_BYTES));
  } catch {
    return undefined;
  }
}

/** Files larger than this are checked for binary before any is read whole. */
const SNIFF_ABOVE_BYTES = 1024 * 1024;

// A large binary file (a video's `.ts` transport stream) is told from its
// first bytes, and any file over the cap refused, before a worker reads it
// all: a 3 GB one took 48 s and 12 GB of memory to be called binary.
async function _requireOutlinable(
  path: string,
  absolute: string,
  size: number,
): Promise<void> {
  if (size > SNIFF_ABOVE_BYTES && await _startsBinaryOrNot(absolute)) {
    throw _binary(path);
  }
  if (size > MAX_OUTLINE_BYTES) {
    throw new ToolError(`Cannot outline "${path}": ${TOO_BIG_REASON}`);
  }
}

async function _startsBinaryOrNot(path: string): Promise<boolean> {
  try {
    return await startsBinary(path);
  } catch {
    return false; // the worker's read reports why
  }
}

// The ArrayBuffer holding exactly `bytes`.
function _wholeBuffer(bytes: Uint8Array<ArrayBuffer>): ArrayBuffer {
  return bytes.byteOffset === 0 && bytes.length === bytes.buffer.byteLength
    ? bytes.buffer
    : bytes.slice().buffer;
}

function _absolute(path: string, cwd: string | undefined): string {
  if (path.length === 0) {
    throw new ToolError("Cannot outline an empty path: pass a file path");
  }
  let plain = path;
  if (isFileUrl(path)) {
    try {
      plain = fileURLToPath(path);
    } catch {
      throw new ToolError(
        `Cannot outline "${path}": it is not a valid file:// URI; pass a path instead`,
      );
    }
  }
  // The tools' own resolver: "~/x.ts" is the home folder's, as for ReadFile.
  return resolvePath(cwd ?? runtime.cwd(), plain, "Outline");
}

async function _stat(
  path: string,
  absolute: string,
): Promise<FileInfo & { mtimeMs: number | null }> {
  let info: FileInfo;
  try {
    info = await runtime.stat(absolute);
  } catch (error) {
    if (isError(error, "notFound")) {
      throw new ToolError(
        `Cannot outline "${path}": the file does not exist; check the path`,
      );
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw new ToolError(`Cannot outline "${path}": ${reason}`, {
      cause: error,
    });
  }
  if (info.isDirectory) throw _folder(path);
  // A pipe would block the worker's read until something writes to it.
  if (!info.isFile) {
    throw new ToolError(
      `Cannot outline "${path}": it is not a regular file (a device, socket or pipe)`,
    );
  }
  return Object.assign(info, { mtimeMs: info.mtime?.getTime() ?? null });
}

function _folder(path: string): ToolError {
  return new ToolError(
    `Cannot outline "${path}": it is a folder; outline the files inside it one by one`,
  );
}

// Whether a path without a supported extension names a folder (`src`), to
// say so rather than call it a file of an unsupported type. Never prompts.
async function _isFolder(path: string): Promise<boolean> {
  const read = await runtime.permissions.query({ name: "read", path });
  if (read.state !== "granted") return false;
  try {
    return (await runtime.stat(path)).isDirectory;
  } catch {
    return false;
  }
}

function _unsupported(path: string): ToolError {
  return new ToolError(
    `Cannot outline "${path}": this file type is not supported; supported extensions: ${
      SUPPORTED_EXTENSIONS.join(", ")
    }`,
  );
}

// The symbol cap of a call: the caller's, within the engine's own.
function _maxSymbols(asked: number | undefined): number {
  return asked === undefined || !(asked < MAX_SYMBOLS)
    ? MAX_SYMBOLS
    : Math.max(1, Math.floor(asked));
}

function _binary(path: string): ToolError {
  return new ToolError(
    `Cannot outline "${path}": it is a binary file, not source code`,
  );
}

/** The advice for a grammar missing from the folder the grammarsDir option gave. */
export const OMIT_GRAMMARS_DIR_OPTION = "or leave out grammarsDir";

// The grammar loader's advice is to unset FELLO_GRAMMARS_DIR; a folder given
// as the grammarsDir option wins over the variable, so then the way back to
// the packaged grammars is to leave the option out.
function _grammarsDirAdvice(error: unknown, grammarsDir?: string): unknown {
  if (
    grammarsDir === undefined || !(error instanceof ToolError) ||
    !error.message.includes(UNSET_GRAMMARS_DIR)
  ) {
    return error;
  }
  return new ToolError(
    error.message.replace(UNSET_GRAMMARS_DIR, OMIT_GRAMMARS_DIR_OPTION),
    { cause: error.cause },
  );
}

function _failure(
  path: string,
  reply: ErrorReply,
): ToolError {
  switch (reply.failure) {
    case "binary":
      return _binary(path);
    case "budget":
      return new ToolError(
        `Cannot outline "${path}": ${reply.message}; read it by line ranges instead, or raise parseBudgetMs`,
      );
    default:
      return new ToolError(`Cannot outline "${path}": ${reply.message}`);
  }
}

/** How many checked texts an Outliner remembers for a check by change. */
const MAX_CHECKED_TEXTS = 4;

// `newText` as the one span of `oldText` it replaces (see TextChange).
function _change(base: number, oldText: string, newText: string): TextChange {
  const { start, oldEnd, newEnd } = changedSpan(oldText, newText);
  return { base, start, oldEnd, text: newText.slice(start, newEnd) };
}

// A check by change that its worker could not apply (it keeps the text no
// longer): sent again with the texts whole.
function _stale(reply: SyntaxReply): boolean {
  return reply.type === "error" && reply.failure === "stale";
}
