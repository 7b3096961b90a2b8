/**
 * The file outline: the symbols of a source file (functions, classes, types,
 * members) with line ranges and doc summaries, parsed by tree-sitter in a pool
 * of workers, or by a built-in parser for Markdown.
 *
 * @module
 */
import { ToolError } from "../internal/tool_error.ts";
import { formatOutline } from "./_format.ts";
import type { OutlineCallOptions } from "./outliner.ts";
import { sharedOutliner } from "./_shared.ts";
import type { OutlineResult, OutlineSymbol } from "./types.ts";

/**
 * Options for {@linkcode outlineSymbols}.
 *
 * Needs no permission itself; outlining requires `--allow-read` for the file.
 *
 * @example Outline with a shorter parse budget
 * ```ts
 * import { outlineSymbols, type OutlineSymbolsOptions } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const options: OutlineSymbolsOptions = { cwd: Deno.cwd(), parseBudgetMs: 5_000 };
 * const { symbols } = await outlineSymbols("tools/read/read_file.ts", options);
 * assert.ok(symbols.some((symbol) => symbol.name === "createReadFile"));
 * ```
 */
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
  /**
   * Rejects with a `ToolError` at once when aborted. The parse stops too (its
   * worker is replaced) unless another call of the same file still waits for it.
   */
  signal?: AbortSignal;
}

/**
 * Options for {@linkcode fileOutline}.
 *
 * Needs no permission itself; outlining requires `--allow-read` for the file.
 *
 * @example Show at most 50 symbols
 * ```ts
 * import { fileOutline, type FileOutlineOptions } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const options: FileOutlineOptions = { cwd: Deno.cwd(), maxSymbols: 50 };
 * const text = await fileOutline("tools/types.ts", options);
 * assert.match(text, /^File: tools\/types\.ts/);
 * assert.ok(text.split("\n").filter((line) => /\(lines? \d/.test(line)).length <= 50);
 * ```
 */
export interface FileOutlineOptions extends OutlineSymbolsOptions {
  /** List at most this many symbols, then say how many were left out. No cap by default. */
  maxSymbols?: number;
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
 * Requires `--allow-read` for the file (and, with `FELLO_GRAMMARS_DIR`,
 * `--allow-env` and read access to that folder).
 *
 * @example Outline one of this package's modules
 * ```ts
 * import { outlineSymbols } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const outline = await outlineSymbols("tools/read/read_file.ts", { cwd: Deno.cwd() });
 * assert.equal(outline.language, "TypeScript");
 * assert.ok(outline.totalLines > 100 && outline.symbols.length > 3);
 * ```
 *
 * @param path The file: relative to `cwd`, `~/`-relative (the home folder, as in a shell), absolute, or a `file://` URI.
 * @param options The base folder, parse budget and grammar folder.
 * @returns The language, the line count and the symbols.
 */
export async function outlineSymbols(
  path: string,
  options: OutlineSymbolsOptions = {},
): Promise<OutlineResult> {
  const result = await sharedOutliner().outline(path, _callOptions(options));
  // The cache keeps this object to answer the next call: hand out a copy so a
  // caller that sorts or edits its result cannot change later answers.
  return { ...result, symbols: _copySymbols(result.symbols) };
}

function _copySymbols(symbols: OutlineSymbol[]): OutlineSymbol[] {
  return symbols.map((s) => ({ ...s, children: _copySymbols(s.children) }));
}

/**
 * Outlines `text` as the content of the file `path` (whose extension picks
 * the language), without reading the file: what a caller that read or is
 * about to write a file outlines, so the symbols match its text exactly.
 * The last few texts are kept: the same text of the same path again is not
 * parsed again.
 *
 * Needs no permission for `path`; the parser workers require `--allow-read`
 * for this package's own modules.
 *
 * @example Outline text before it is written
 * ```ts
 * import { outlineText } from "./outline.ts";
 * import assert from "node:assert/strict";
 *
 * const { symbols } = await outlineText("/nowhere/a.go", "package a\n\nfunc Hello() {}\n");
 * assert.deepEqual(symbols.map((s) => `${s.kind} ${s.name}`), ["package a", "func Hello"]);
 * ```
 *
 * @param path The file the text is (or will be) the content of.
 * @param text The content.
 * @param options The base folder, parse budget, grammar folder and signal.
 * @returns The language, the line count and every symbol (no cap).
 */
export async function outlineText(
  path: string,
  text: string,
  options: OutlineSymbolsOptions = {},
): Promise<OutlineResult> {
  const result = await sharedOutliner().outlineText(
    path,
    text,
    _callOptions(options),
  );
  // Kept to answer the same text again: a copy for the caller to change.
  return { ...result, symbols: _copySymbols(result.symbols) };
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
 * Requires `--allow-read` for the file.
 *
 * @example Print the outline of a file, at most 50 symbols
 * ```ts
 * import { fileOutline } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.go`, "package a\n\nfunc Hello() string {\n\treturn \"hi\"\n}\n");
 * const text = await fileOutline("a.go", { cwd, maxSymbols: 50 });
 * assert.match(text, /^func Hello \(lines 3-5\)$/m);
 * ```
 *
 * @param path The file: relative to `cwd`, `~/`-relative, absolute, or a `file://` URI; shown as given.
 * @param options The base folder, symbol cap, parse budget and grammar folder.
 * @returns The outline text.
 */
export async function fileOutline(
  path: string,
  options: FileOutlineOptions = {},
): Promise<string> {
  const { maxSymbols } = options;
  if (
    maxSymbols !== undefined &&
    !(Number.isInteger(maxSymbols) && maxSymbols >= 1 ||
      maxSymbols === Infinity)
  ) {
    throw new ToolError(
      `Cannot outline "${path}": maxSymbols must be a whole number of at least 1, got ${maxSymbols}`,
    );
  }
  // The cap goes down to the worker: symbols past it are counted, not built
  // into the answer (a file of 250,000 headings shown as 400).
  const result = await sharedOutliner().outline(path, {
    ..._callOptions(options),
    maxSymbols,
  });
  return formatOutline(path, result, maxSymbols);
}

/**
 * Stops the shared pool's parser workers and forgets its cached outlines:
 * the next outline starts fresh workers and parses. Frees the memory the
 * workers grew to and the cache holds, and lets a bench measure a cold start.
 *
 * Needs no permission.
 *
 * @example Outline again after stopping the workers
 * ```ts
 * import { outlineText, stopOutlineWorkers } from "./outline.ts";
 * import assert from "node:assert/strict";
 *
 * await outlineText("/nowhere/a.py", "def f():\n    pass\n");
 * await stopOutlineWorkers();
 * const { symbols } = await outlineText("/nowhere/a.py", "def g():\n    pass\n");
 * assert.equal(symbols[0].name, "g");
 * ```
 *
 * @returns A promise that resolves when the workers are gone.
 */
export async function stopOutlineWorkers(): Promise<void> {
  const outliner = sharedOutliner();
  outliner.clearCache();
  await outliner.terminate();
}

function _callOptions(options: OutlineSymbolsOptions): OutlineCallOptions {
  const budget = options.parseBudgetMs;
  // NaN would turn off both the budget and the stuck-worker watchdog.
  if (budget !== undefined && !(budget > 0)) {
    throw new ToolError(
      `Cannot outline: parseBudgetMs must be a positive number of milliseconds, got ${budget}`,
    );
  }
  return {
    cwd: options.cwd,
    parseBudgetMs: options.parseBudgetMs,
    grammarsDir: options.grammarsDir,
    signal: options.signal,
  };
}
