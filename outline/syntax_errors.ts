/**
 * Syntax errors of a text in one of the outline's languages, as tree-sitter
 * finds them: what the edit tools check before they replace a file.
 *
 * @module
 */
import { resolve } from "node:path";
import { runtime } from "../internal/runtime/runtime.ts";
import type { SyntaxErrorsFound } from "./outliner.ts";
import { sharedOutliner } from "./_shared.ts";
import { supportedExtension } from "./supported.ts";
import { MAX_OUTLINE_BYTES } from "./_file_bytes.ts";

export type { SyntaxErrorsFound };

/**
 * Options for {@linkcode findSyntaxErrors}.
 *
 * Needs no permission.
 *
 * @example Check a text for a file under another folder
 * ```ts
 * import { findSyntaxErrors, type FindSyntaxErrorsOptions } from "./syntax_errors.ts";
 * import assert from "node:assert/strict";
 *
 * const options: FindSyntaxErrorsOptions = { cwd: "/tmp", parseBudgetMs: 5_000 };
 * const found = await findSyntaxErrors("a.go", { newText: "package a\n" }, options);
 * assert.equal(found?.after, 0);
 * ```
 */
export interface FindSyntaxErrorsOptions {
  /** Folder that a relative path resolves against; defaults to `Deno.cwd()`. */
  cwd?: string;
  /** Cancel a parse after this many milliseconds; defaults to 30 000. */
  parseBudgetMs?: number;
  /** Stop waiting when aborted (rejects with a `ToolError`). */
  signal?: AbortSignal;
}

/**
 * Parses `newText`, the new content of the file at `path`, and `oldText`,
 * the content it replaces (leave it out for a new file), and lists the
 * syntax errors (tree-sitter ERROR and MISSING nodes) that the new text has
 * and the old one did not. The file itself is not read: `path` picks the
 * language (by extension, and for `.h` and `.js` by the text's start) and
 * names the trees the worker keeps, so that checking the next edit of the
 * same file parses incrementally. A leading byte order mark is ignored.
 *
 * Resolves to undefined for text the outline parses without a grammar
 * (Markdown) or not at all (another extension, binary, over 64 MB).
 *
 * Requires read access to this package's modules when it runs from local
 * files (the parser workers load them), as outlining does.
 *
 * @example A missing parenthesis in an edit
 * ```ts
 * import { findSyntaxErrors } from "./syntax_errors.ts";
 * import assert from "node:assert/strict";
 *
 * const found = await findSyntaxErrors("/tmp/a.ts", {
 *   oldText: "const x = f(1);\n",
 *   newText: "const x = f(1;\n",
 * });
 * assert.deepEqual([found?.language, found?.before, found?.after], ["TypeScript", 0, 1]);
 * assert.equal(found?.added[0].line, 1);
 * ```
 *
 * @param path The file the text is for: absolute, or relative to `cwd`.
 * @param texts The new text, and the old one it replaces.
 * @param options The base folder, parse budget and signal.
 * @returns The language, both error counts and the new errors.
 */
export function findSyntaxErrors(
  path: string,
  texts: { oldText?: string; newText: string },
  options: FindSyntaxErrorsOptions = {},
): Promise<SyntaxErrorsFound | undefined> {
  return sharedOutliner().syntaxErrors(
    resolve(options.cwd ?? runtime.cwd(), path),
    texts,
    { parseBudgetMs: options.parseBudgetMs, signal: options.signal },
  );
}

/**
 * Whether {@linkcode findSyntaxErrors} may check a text of `length`
 * characters for the file at `path`, to know before building the text: its
 * extension is one the outline reads and the text is within the size it
 * parses. (Markdown passes here and is not checked.)
 *
 * Needs no permission.
 *
 * @example Only source files are checked
 * ```ts
 * import { syntaxCheckable } from "./syntax_errors.ts";
 * import assert from "node:assert/strict";
 *
 * assert.equal(syntaxCheckable("src/a.ts", 1000), true);
 * assert.equal(syntaxCheckable("notes.txt", 1000), false);
 * assert.equal(syntaxCheckable("huge.ts", 100 * 1024 * 1024), false);
 * ```
 *
 * @param path The file the text is for.
 * @param length The text's length in characters (UTF-16 code units).
 * @returns Whether it is worth building the text to check it.
 */
export function syntaxCheckable(path: string, length: number): boolean {
  return supportedExtension(path) !== undefined && length <= MAX_OUTLINE_BYTES;
}
