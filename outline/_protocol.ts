// The messages between the outline pool (main thread) and its workers.
import type { PackedOutline } from "./_transfer.ts";

/** Outline one file; the worker reads it. */
export interface OutlineRequest {
  type: "outline";
  id: number;
  /** Absolute path. */
  path: string;
  /** Lower-case extension with its dot; picks the language. */
  extension: string;
  /** Cancel the parse after this many milliseconds. */
  budgetMs: number;
  /** A file above this size makes the worker ask to be replaced afterwards. */
  recycleBytes: number;
  /** A folder of grammar `.wasm` files replacing the npm packages. */
  grammarsDir?: string;
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
  /** Test seam: the worker dies with an uncaught error instead of answering. */
  crash?: boolean;
}

/** Anything the pool sends. */
export type WorkerRequest = OutlineRequest;

/** Why a file could not be outlined, as the worker classifies it. */
export type OutlineFailure = "binary" | "read" | "budget" | "parse";

/** What a worker answers. `recycle` asks the pool to replace it (huge file). */
export type WorkerReply =
  | {
    type: "result";
    id: number;
    /** The OutlineResult, packed (see _transfer.ts). */
    outline: PackedOutline;
    recycle: boolean;
    /** Whether the parse reused the file's previous tree. */
    incremental: boolean;
    /** The SHA-256 (hex) of the bytes parsed, when the request asked for it. */
    hash?: string;
  }
  | {
    type: "error";
    id: number;
    failure: OutlineFailure;
    message: string;
    recycle: boolean;
  };
