// The messages between the outline pool (main thread) and its workers.
import type { LanguageId } from "./languages/_loaders.ts";
import type { PackedOutline } from "./_transfer.ts";
import type { SyntaxErrorInfo } from "./types.ts";

/** Outline one file, or one piece of it. */
export interface OutlineRequest {
  type: "outline";
  id: number;
  /** Absolute path. */
  path: string;
  /**
   * The content, read by the main thread; else the worker reads `path`. An
   * ArrayBuffer: Deno's node:worker_threads (the pool's fallback, see
   * internal/thread.ts) posts one in ~2 ms where it takes ~130 ms over a 2 MB
   * Uint8Array.
   */
  bytes?: ArrayBuffer;
  /** Outline only this piece of the file (see _pieces.ts); `bytes` hold it. */
  piece?: Piece;
  /** Lower-case extension with its dot (Markdown's picks the Markdown parser). */
  extension: string;
  /** The language to parse with; none for Markdown. */
  language?: LanguageId;
  /**
   * Cancel the parse after this many milliseconds of the worker's CPU time
   * (wall time for budgets within the CPU clock's 10 ms resolution, or where
   * the runtime has no thread CPU clock).
   */
  budgetMs: number;
  /** A file above this size makes the worker ask to be replaced afterwards. */
  recycleBytes: number;
  /** A folder of grammar `.wasm` files replacing the npm packages. */
  grammarsDir?: string;
  /**
   * List at most this many symbols and count the rest (see _symbol_cap.ts);
   * defaults to MAX_SYMBOLS.
   */
  maxSymbols?: number;
  /**
   * The compiled grammar and runtime, posted by the main thread: a cloned
   * WebAssembly.Module shares its compiled (and tiered-up) code across workers.
   */
  grammar?: WebAssembly.Module;
  runtime?: WebAssembly.Module;
  /**
   * Also answer the SHA-256 of the bytes parsed: the file changed so recently
   * that its modification time alone cannot tell a later change apart.
   */
  hash?: boolean;
  /**
   * Also answer the identifiers the file's code uses, each once (what a repo
   * map counts as references); whole files only, never a piece.
   */
  names?: boolean;
  /** Test seam: the worker dies with an uncaught error instead of answering. */
  crash?: boolean;
  /** Test seam: the worker blocks for good, as in a read that never returns. */
  stall?: boolean;
}

/** Where a piece sits in its file. */
export interface Piece {
  /** Lines of the file before the piece. */
  lineOffset: number;
  /**
   * Set on the first piece only, whose `bytes` are the whole file: where the
   * piece ends. When the piece does not parse cleanly on its own, the worker
   * outlines the whole file instead, reusing the piece's tree.
   */
  end?: number;
}

/**
 * Count the syntax errors of a text, and of the text it replaces, and list
 * the new ones; the trees are kept (by `path`) as an outline's are, so the
 * next check or outline of the file re-parses incrementally.
 */
export interface SyntaxRequest extends
  Pick<
    OutlineRequest,
    | "id"
    | "path"
    | "budgetMs"
    | "recycleBytes"
    | "grammarsDir"
    | "grammar"
    | "runtime"
  > {
  type: "syntax";
  /** The language to parse with. */
  language: LanguageId;
  /** The text replaced, if any (without a byte order mark). */
  oldText?: string;
  /** The new text (without a byte order mark); absent with `change`. */
  newText?: string;
  /**
   * Instead of both texts: the new text as a change of the text that the
   * worker kept for `path` at the version `base` (the old text). A worker
   * without it fails the job as "stale", and the texts are sent whole.
   */
  change?: TextChange;
  /** The version the new text's kept tree gets, for a later `change`. */
  version: number;
}

/** A change of one span: `text` in place of [start, oldEnd) of the base text. */
export interface TextChange {
  base: number;
  start: number;
  oldEnd: number;
  text: string;
}

/** Anything the pool sends. */
export type WorkerRequest = OutlineRequest | SyntaxRequest;

/**
 * Why a file could not be outlined, as the worker classifies it. "unclean":
 * a piece has a syntax error on its own, so the file must be parsed whole;
 * "line": a line is too long to parse; "stale": a syntax check's change
 * applies to a text the worker no longer keeps.
 */
export type OutlineFailure =
  | "binary"
  | "read"
  | "budget"
  | "parse"
  | "unclean"
  | "line"
  | "stale";

/** What a worker answers to an outline. `recycle` asks the pool to replace it (huge file). */
export type OutlineReply =
  | {
    type: "result";
    id: number;
    /** The OutlineResult, packed (see _transfer.ts). */
    outline: PackedOutline;
    recycle: boolean;
    /** Whether the parse reused the file's previous tree. */
    incremental: boolean;
    /** Whether this outlines only the piece asked for (not the whole file). */
    partial: boolean;
    /** The SHA-256 (hex) of the bytes parsed, when the request asked for it. */
    hash?: string;
    /** The identifiers used, when the request asked for them. */
    names?: string[];
  }
  | ErrorReply;

/** What a worker answers to a syntax check. */
export type SyntaxReply =
  | {
    type: "syntax";
    id: number;
    /**
     * The errors of the old text, counted only when the new text has some
     * (else 0: the old text need not be parsed).
     */
    before: number;
    /** The errors of the new text. */
    after: number;
    /** The new text's errors that the old one did not have (the first ones). */
    added: SyntaxErrorInfo[];
    recycle: boolean;
    /** Whether the new text was parsed from the old text's tree. */
    incremental: boolean;
  }
  | ErrorReply;

/** A job that failed. */
export interface ErrorReply {
  type: "error";
  id: number;
  failure: OutlineFailure;
  message: string;
  recycle: boolean;
}

/** What a worker answers. */
export type WorkerReply = OutlineReply | SyntaxReply;

/**
 * A sign of life from the worker at a job's start, between its phases and
 * every second of a parse: the pool's watchdog waits for progress, not for
 * the whole job, so a parse slowed down by a busy machine is not taken for a
 * stuck worker.
 */
export interface WorkerProgress {
  type: "progress";
  /** The job being worked on. */
  id: number;
}

/** Anything a worker posts. */
export type WorkerMessage = WorkerReply | WorkerProgress;
