/**
 * The file outline: the symbols of a source file (functions, classes, types,
 * members) with line ranges and doc summaries, parsed by tree-sitter in a pool
 * of workers, or by a built-in parser for Markdown.
 *
 * @module
 */
import { formatOutline } from "./_format.ts";
import { type OutlineCallOptions, Outliner } from "./_outliner.ts";
import type { OutlineResult } from "./types.ts";

/** Options for {@linkcode outlineSymbols}. */
export interface OutlineSymbolsOptions {
  /** Folder that a relative path resolves against; defaults to `Deno.cwd()`. */
  cwd?: string;
  /** Cancel a parse after this many milliseconds; defaults to 30 000. */
  parseBudgetMs?: number;
  /**
   * A folder of `tree-sitter-<language>.wasm` files to use instead of the
   * pinned npm packages; defaults to `$FELLO_GRAMMARS_DIR` when set.
   */
  grammarsDir?: string;
}

/** Options for {@linkcode fileOutline}. */
export interface FileOutlineOptions extends OutlineSymbolsOptions {
  /** List at most this many symbols, then say how many were left out. No cap by default. */
  maxSymbols?: number;
}

let shared: Outliner | undefined;

function _outliner(): Outliner {
  shared ??= new Outliner();
  return shared;
}

/**
 * Outlines a file as structured symbols. Parsing runs in a worker pool that
 * starts on first use and never keeps the process alive; an unchanged file
 * (same size and modification time) is answered from a cache.
 *
 * Throws a `ToolError` naming the path for an unsupported extension (listing
 * the supported ones), a missing, binary or unreadable file, or a parse that
 * overruns its budget.
 *
 * @example Outline this package's entry point
 * ```ts
 * import { outlineSymbols } from "@fello/agent";
 *
 * const outline = await outlineSymbols("mod.ts", { cwd: Deno.cwd() });
 * console.log(outline.language, outline.totalLines, outline.symbols.length);
 * ```
 *
 * Requires `--allow-read` for the file (and, with `FELLO_GRAMMARS_DIR`,
 * `--allow-env` and read access to that folder).
 *
 * @param path The file: relative to `cwd`, absolute, or a `file://` URI.
 * @param options The base folder, parse budget and grammar folder.
 * @returns The language, the line count and the symbols.
 */
export function outlineSymbols(
  path: string,
  options: OutlineSymbolsOptions = {},
): Promise<OutlineResult> {
  return _outliner().outline(path, _callOptions(options));
}

/**
 * Outlines a file as text in the specification's format:
 *
 * ```text
 * File: src/schema.ts
 * Language: TypeScript
 * Total lines: 585
 * ─── Symbols ───
 * interface BaseAgentInfo (lines 32-40)  // The agent's configuration
 *     property id (line 37)  // Unique id
 * ```
 *
 * @example Print the outline of a file, at most 50 symbols
 * ```ts
 * import { fileOutline } from "@fello/agent";
 *
 * console.log(await fileOutline("mod.ts", { cwd: Deno.cwd(), maxSymbols: 50 }));
 * ```
 *
 * Requires `--allow-read` for the file.
 *
 * @param path The file: relative to `cwd`, absolute, or a `file://` URI; shown as given.
 * @param options The base folder, symbol cap, parse budget and grammar folder.
 * @returns The outline text.
 */
export async function fileOutline(
  path: string,
  options: FileOutlineOptions = {},
): Promise<string> {
  const result = await _outliner().outline(path, _callOptions(options));
  return formatOutline(path, result, options.maxSymbols);
}

function _callOptions(options: OutlineSymbolsOptions): OutlineCallOptions {
  return {
    cwd: options.cwd,
    parseBudgetMs: options.parseBudgetMs,
    grammarsDir: options.grammarsDir,
  };
}
