// The built-in `search` tool: a literal or regex search over the workspace's
// text files that answers `path:line: text` lines, with a cap and a note when
// the results were cut.
import { relative, sep } from "node:path";
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import { defineTool } from "../define.ts";
import { requireRealGrant } from "../../internal/deno_permission.ts";
import { type GlobFilter, globFilter } from "./_glob.ts";
import { isWithin } from "../../internal/paths.ts";
import { RegexBusy, RegexTimeout, RegexWorkerError } from "./_regex_scanner.ts";
import { ScanPool } from "./_scan_pool.ts";
import { MAX_SKIM_LITERAL } from "./_literal_skim.ts";
import { requiredLiteral } from "./_required_literal.ts";
import { type FileScan, type LineMatch, scanFile } from "./_search_file.ts";
import { walkFiles } from "./walk.ts";
import { GitIgnore } from "./_gitignore.ts";
import { rgSearch, ripgrepUsable } from "./_rg_search.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type { Tool } from "../types.ts";
import DESCRIPTION from "./search.txt" with { type: "text" };
import { isError, runtime } from "../../internal/runtime/runtime.ts";
import type { FileInfo } from "../../internal/runtime/runtime.ts";

/**
 * Input of the `search` tool.
 *
 * Executing search requires `--allow-read` for the folder searched.
 *
 * @example Find the TODOs in TypeScript files
 * ```ts
 * import { createTools, type SearchInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.ts`, "// TODO: name it\nconst x = 1;\n");
 * await Deno.writeTextFile(`${cwd}/b.md`, "TODO: not TypeScript\n");
 * const input: SearchInput = { pattern: "TODO|FIXME", regex: true, glob: "*.ts" };
 * const { matches } = await createTools({ cwd }).search.execute(input);
 * assert.deepEqual(matches.map((m) => `${m.path}:${m.line}`), ["a.ts:1"]);
 * ```
 */
export interface SearchInput {
  /** The text to find: literal unless `regex` is true. */
  pattern: string;
  /** A folder or file to search, relative to the workspace; defaults to the workspace. */
  path?: string;
  /** A gitignore-style glob files must match, e.g. `*.ts` or `!*_test.ts`. */
  glob?: string;
  /** Treat `pattern` as a JavaScript regular expression. Defaults to false. */
  regex?: boolean;
  /** Match case exactly. Defaults to true. */
  caseSensitive?: boolean;
  /** The most matching lines to answer, 1 to 1000. Defaults to 100. */
  maxResults?: number;
}

/**
 * One matching line.
 *
 * Executing search requires `--allow-read` for the folder searched.
 *
 * @example Print matches as path:line: text
 * ```ts
 * import { createTools, type SearchMatch } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.ts`, "import { createTools } from \"x\";\n");
 * const { matches } = await createTools({ cwd }).search.execute({ pattern: "createTools" });
 * const show = (match: SearchMatch) => `${match.path}:${match.line}: ${match.text}`;
 * assert.equal(matches.map(show).join("\n"), 'a.ts:1: import { createTools } from "x";');
 * ```
 */
export interface SearchMatch {
  /** The file, relative to the workspace (`/`-separated) or absolute outside it. */
  path: string;
  /** 1-based line number. */
  line: number;
  /** The line, shortened around the match when longer than 200 characters. */
  text: string;
}

/**
 * Result of the `search` tool.
 *
 * Executing search requires `--allow-read` for the folder searched.
 *
 * @example Say when there are more matches
 * ```ts
 * import { createTools, type SearchResult } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/a.ts`, "export const a = 1;\n".repeat(20));
 * const result: SearchResult = await createTools({ cwd }).search.execute({
 *   pattern: "export",
 *   maxResults: 10,
 * });
 * assert.equal(result.matches.length, 10);
 * assert.equal(result.truncated, true);
 * ```
 */
export interface SearchResult {
  /** The pattern searched for. */
  pattern: string;
  /** The folder or file searched, as shown to the model. */
  path: string;
  /** The matching lines, in path order. */
  matches: SearchMatch[];
  /** Whether more lines matched than `maxResults`. */
  truncated: boolean;
  /**
   * How many files were read; omitted when ripgrep ran the search (it is
   * installed and `--allow-run` grants it), which does not count them.
   */
  filesSearched?: number;
  /**
   * How many files were skipped as binary; always 0 when ripgrep runs the
   * search (it skips them without counting).
   */
  binaryFiles: number;
  /** How many files or folders could not be read. */
  unreadable: number;
  /**
   * Lines over 1 MiB, searched in their first MiB only (set when any); never
   * set when ripgrep runs the search (it searches whole lines).
   */
  longLines?: number;
}

/** Default and ceiling of `maxResults`. */
const DEFAULT_MAX_RESULTS = 100;
const MAX_RESULTS_CEILING = 1000;

const schema = z.object({
  pattern: z.string().min(1, "must not be empty"),
  path: z.string().optional(),
  glob: z.string().optional(),
  regex: z.boolean().optional(),
  caseSensitive: z.boolean().optional(),
  maxResults: z.number().int().min(1).max(MAX_RESULTS_CEILING).optional(),
});

/**
 * Creates the `search` tool for a context: a literal (or regex) search over
 * the workspace's text files that answers `path:line: text` lines, skipping
 * `.git`, `node_modules`, binary files and what `.gitignore` files ignore.
 *
 * Requires `--allow-read` for the folder searched, and for where it leads when
 * it is a symlink.
 *
 * @example Find where a function is called
 * ```ts
 * import { createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/main.ts`, "const tools = createTools();\n");
 * const tools = createTools({ cwd, permissionMode: "readOnly" });
 * const result = await tools.search.execute({ pattern: "createTools(", glob: "*.ts" });
 * assert.match(tools.search.toModelText(result), /main\.ts:1: const tools = createTools\(\);/);
 * ```
 *
 * @param context The workspace, permission gate and backends.
 * @returns The tool.
 */
export function createSearch(
  context: ToolContext,
  options: SearchOptions = {},
): Tool<SearchInput, SearchResult> {
  return defineTool({
    name: "search",
    kind: "search",
    description: DESCRIPTION,
    schema,
    run: (input, { signal }) => runSearch(context, input, options, signal),
    toModelText: renderSearch,
  });
}

/** Options of {@linkcode createSearch} beyond the context. */
export interface SearchOptions {
  /**
   * How long a regular expression may scan without progress before the
   * search stops with an error; defaults to 10 s.
   */
  regexBudgetMs?: number;
  /**
   * Whether the search may run on ripgrep when it is installed and
   * `--allow-run` grants it; defaults to true. False scans in-process.
   */
  ripgrep?: boolean;
  /**
   * How many worker threads the scan without ripgrep uses; defaults to the
   * cores, 2 to 4.
   */
  threads?: number;
}

async function runSearch(
  context: ToolContext,
  input: SearchInput,
  options: SearchOptions,
  signal?: AbortSignal,
): Promise<SearchResult> {
  const root = context.resolve(input.path ?? ".", "search");
  const shown = displayPath(context.workspace, root);
  const matcher = compilePattern(input);
  const glob = input.glob === undefined ? undefined : compileGlob(input.glob);
  await context.authorize({
    tool: "search",
    action: "read",
    path: root,
    description: `Search "${shown}" for ${_shown(input.pattern)}`,
  }, { signal });
  // On the real path too: Deno denies opening a symlink out of its grant,
  // which the scan would count as "unreadable" and answer "No matches".
  await requireRealGrant("read", root);
  const kind = await pathKind(root, shown);
  const limit = input.maxResults ?? DEFAULT_MAX_RESULTS;
  const result: SearchResult = {
    pattern: input.pattern,
    path: shown,
    matches: [],
    truncated: false,
    filesSearched: 0,
    binaryFiles: 0,
    unreadable: 0,
  };
  let ignoresAbove: GitIgnore | undefined;
  if (options.ripgrep !== false && ripgrepUsable()) {
    ignoresAbove = await GitIgnore.above(root, context.workspace);
    const found = await rgSearch({
      pattern: input.pattern,
      regex: input.regex === true,
      ignoreCase: input.caseSensitive === false,
      root,
      glob: glob && { text: input.glob!, filter: glob },
      parentIgnores: !ignoresAbove.empty,
      limit,
      signal,
    }).catch((error) => {
      if (signal?.aborted) {
        throw new ToolError(`Search of "${shown}" was cancelled`);
      }
      throw error;
    });
    if (found) {
      // ripgrep counts only the files with matches: no count beats a wrong one.
      delete result.filesSearched;
      result.unreadable = found.unreadable;
      result.truncated = found.matches.length > limit;
      result.matches = found.matches.slice(0, limit).map((match) => ({
        path: displayPath(context.workspace, match.file),
        line: match.line,
        text: match.text,
      }));
      return result;
    }
  }
  const files = kind === "file" ? [root] : walkFiles(root, {
    workspace: context.workspace,
    glob,
    signal,
    onUnreadable: () => result.unreadable++,
    // Read for ripgrep already when it declined the pattern.
    ignoresAbove,
  });
  // A model's regex can backtrack for ever, so it runs in workers that a
  // watchdog gives up on; a literal cannot, and runs there to use every core
  // (one file is read here: a worker would cost more than it saves).
  const pool = input.regex || kind === "directory"
    ? new ScanPool({
      threads: options.threads,
      budgetMs: options.regexBudgetMs,
      mayBacktrack: input.regex === true,
    })
    : undefined;
  const literal = skimmable(input);
  const scan: ScanFn = pool
    ? (file, limit, signal) =>
      pool.scan(file, matcher, { limit, signal, literal })
    : (file, limit, signal) => scanFile(file, matcher, { limit, signal });
  try {
    await scanInOrder(files, { scan, limit, signal, result }, context);
  } catch (error) {
    if (signal?.aborted) {
      throw new ToolError(`Search of "${shown}" was cancelled`);
    }
    if (error instanceof RegexWorkerError) {
      throw regexStopped(input.pattern, context.workspace, error);
    }
    throw error;
  } finally {
    pool?.close();
  }
  return result;
}

/** Scans one file, stopping after `limit` matching lines. */
type ScanFn = (
  file: string,
  limit: number,
  signal: AbortSignal,
) => Promise<FileScan>;

function regexStopped(
  pattern: string,
  workspace: string,
  error: RegexWorkerError,
): ToolError {
  if (error instanceof RegexBusy) {
    return new ToolError(
      `Cannot search for ${
        _shown(pattern)
      } as a regular expression now: ${error.running} earlier ones got stuck backtracking and are still running (JavaScript cannot stop them; each keeps a CPU core busy), and none ended within ${
        error.budgetMs / 1000
      } s. Set "regex": false to search for the literal text, or try again later`,
    );
  }
  if (!(error instanceof RegexTimeout)) {
    return new ToolError(
      `Search for ${
        _shown(pattern)
      } failed: ${error.message}; try again, or set "regex": false to search for the literal text`,
    );
  }
  return new ToolError(
    `Search for ${_shown(pattern)} stopped: the regular expression spent ${
      error.budgetMs / 1000
    } s on one part of "${
      displayPath(workspace, error.path)
    }" without getting through it: it backtracks too much there (nested or overlapping repeats such as (a+)+ or (a|a)*, or several .* on a very long line). Simplify it, leave that file out with "path" or "glob", or set "regex": false to search for the literal text`,
  );
}

/**
 * Files in hand at once: enough that each scan worker gets its files in
 * batches (see _regex_scanner.ts) while the walk goes on; results stay in
 * order.
 */
const PARALLEL_FILES = 64;

/** What scanning one file gave. */
type FileOutcome =
  | { kind: "text"; path: string; matches: LineMatch[]; cutLines?: number }
  | { kind: "binary" | "unreadable" };

/**
 * Scans files a few at a time and adds their matches to `result` in walk
 * order, stopping (and cancelling the scans still running) once one match
 * past `limit` shows that results are cut.
 */
async function scanInOrder(
  files: AsyncIterable<string> | Iterable<string>,
  options: {
    scan: ScanFn;
    limit: number;
    signal?: AbortSignal;
    result: SearchResult;
  },
  context: ToolContext,
): Promise<void> {
  const { limit, result } = options;
  const stop = new AbortController();
  const signal = options.signal
    ? AbortSignal.any([options.signal, stop.signal])
    : stop.signal;
  const pending: Promise<FileOutcome>[] = [];
  // Adds one outcome; true once the results are cut.
  const absorb = (outcome: FileOutcome): boolean => {
    if (outcome.kind !== "text") {
      result[outcome.kind === "binary" ? "binaryFiles" : "unreadable"]++;
      return false;
    }
    result.filesSearched = (result.filesSearched ?? 0) + 1;
    if (outcome.cutLines) {
      result.longLines = (result.longLines ?? 0) + outcome.cutLines;
    }
    for (const match of outcome.matches) {
      result.matches.push({
        path: outcome.path,
        line: match.line,
        text: match.text,
      });
    }
    if (result.matches.length <= limit) return false;
    result.matches.length = limit;
    result.truncated = true;
    return true;
  };
  try {
    for await (const file of files) {
      // One match past the limit tells whether results were cut.
      const outcome = scanOne(
        context.workspace,
        file,
        options.scan,
        limit + 1,
        signal,
      );
      // Awaited in order below; one that rejects early (a cancelled search)
      // must not count as unhandled meanwhile.
      outcome.catch(() => {});
      pending.push(outcome);
      if (pending.length >= PARALLEL_FILES && absorb(await pending.shift()!)) {
        return;
      }
    }
    while (pending.length > 0) {
      if (absorb(await pending.shift()!)) return;
    }
  } finally {
    stop.abort();
    await Promise.allSettled(pending);
  }
}

async function scanOne(
  workspace: string,
  file: string,
  scanFn: ScanFn,
  limit: number,
  signal: AbortSignal,
): Promise<FileOutcome> {
  try {
    const scan = await scanFn(file, limit, signal);
    if (scan.binary) return { kind: "binary" };
    return {
      kind: "text",
      // Most files match nothing: no path to work out for them.
      path: scan.matches.length > 0 ? displayPath(workspace, file) : "",
      matches: scan.matches,
      cutLines: scan.cutLines,
    };
  } catch (error) {
    if (signal.aborted || error instanceof RegexWorkerError) throw error;
    return { kind: "unreadable" };
  }
}

/**
 * The UTF-8 bytes a file's bytes must hold for a line of its text to match:
 * a case-sensitive literal pattern, or the text every match of a
 * case-sensitive regex holds; undefined when there is none.
 */
function skimmable(input: SearchInput): Uint8Array | undefined {
  if (input.caseSensitive === false) return undefined;
  const text = input.regex ? requiredLiteral(input.pattern) : input.pattern;
  // A byte that does not decode becomes U+FFFD: not in the bytes searched.
  if (text === undefined || text.includes("\uFFFD")) return undefined;
  const bytes = new TextEncoder().encode(text);
  return bytes.length <= MAX_SKIM_LITERAL ? bytes : undefined;
}

/** Builds the global, multiline regex for the input; throws a ToolError when invalid. */
function compilePattern(input: SearchInput): RegExp {
  refuseLineBreak(input);
  let source = input.pattern;
  let ignoreCase = input.caseSensitive === false;
  if (!input.regex) {
    source = source.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  } else {
    // ripgrep (Rust regex) spellings common in what models write.
    if (source.startsWith("(?i)")) {
      source = source.slice(4);
      ignoreCase = true;
    }
    source = source.replaceAll("(?P<", "(?<");
  }
  const flags = `gm${ignoreCase ? "i" : ""}`;
  try {
    return new RegExp(source, `${flags}u`);
  } catch {
    // Not every valid non-unicode pattern is valid in unicode mode (`\-`).
  }
  try {
    return new RegExp(source, flags);
  } catch (error) {
    throw new ToolError(
      `Cannot search for ${_shown(input.pattern)}: ${
        _reason((error as Error).message)
      }; fix the regular expression, or set "regex": false to search for the literal text`,
    );
  }
}

// Lines are matched one at a time: a pattern that spans two never matches,
// and "No matches" would say the text is not there.
function refuseLineBreak(input: SearchInput): void {
  const { pattern } = input;
  // (A `\r` can match: a CRLF file's lines end in one.)
  const breaks = pattern.includes("\n") ||
    (input.regex === true && /(?:^|[^\\])(?:\\\\)*\\n/.test(pattern));
  if (!breaks) return;
  throw new ToolError(
    `Cannot search for ${
      _shown(pattern)
    }: search matches one line at a time, and the pattern holds a line break; search for one of its lines, or use rg with -U (multiline)`,
  );
}

function compileGlob(glob: string): GlobFilter {
  try {
    return globFilter(glob);
  } catch (error) {
    throw new ToolError(
      `Cannot search with glob ${JSON.stringify(glob)}: ${
        (error as Error).message
      }; pass a pattern like "*.ts" or "src/**/*.py", or leave "glob" out`,
    );
  }
}

async function pathKind(
  path: string,
  shown: string,
): Promise<"file" | "directory"> {
  let info: FileInfo;
  try {
    info = await runtime.stat(path);
  } catch (error) {
    if (isError(error, "notFound")) {
      throw new ToolError(
        `Cannot search "${shown}": no such file or folder; check the path, or leave "path" out to search the whole workspace`,
      );
    }
    throw error;
  }
  if (info.isFile) return "file";
  if (info.isDirectory) return "directory";
  throw new ToolError(
    `Cannot search "${shown}": it is neither a file nor a folder`,
  );
}

function displayPath(workspace: string, path: string): string {
  if (!isWithin(workspace, path)) return path;
  const rel = relative(workspace, path) || ".";
  return sep === "/" ? rel : rel.split(sep).join("/");
}

/** Renders a result as `path:line: text` lines and a closing note. */
function renderSearch(result: SearchResult): string {
  const where = result.path === "." ? "the workspace" : `"${result.path}"`;
  if (result.matches.length === 0) {
    return `No matches for ${JSON.stringify(result.pattern)} in ${where} (${
      describeCounts(result)
    })`;
  }
  const lines = result.matches.map((m) => `${m.path}:${m.line}: ${m.text}`);
  if (result.longLines) lines.push(`(${longLinesNote(result.longLines)}.)`);
  if (result.truncated) {
    lines.push(
      `(Only the first ${
        result.matches.length === 1
          ? "matching line is"
          : `${result.matches.length} matching lines are`
      } shown; more exist. Narrow "pattern", "path" or "glob", or raise "maxResults" (at most ${MAX_RESULTS_CEILING}).)`,
    );
  }
  return lines.join("\n");
}

function describeCounts(result: SearchResult): string {
  const parts = [
    result.filesSearched === undefined
      ? "searched with ripgrep"
      : plural(result.filesSearched, "file") + " searched",
  ];
  if (result.binaryFiles > 0) {
    parts.push(`${plural(result.binaryFiles, "binary file")} skipped`);
  }
  if (result.unreadable > 0) {
    parts.push(`${plural(result.unreadable, "path")} unreadable`);
  }
  if (result.longLines) parts.push(longLinesNote(result.longLines));
  return parts.join(", ");
}

// A match past the first MiB of a huge (minified) line is not found: say so,
// so "No matches" is not taken for "not there".
function longLinesNote(count: number): string {
  const whose = count === 1 ? "its" : "their";
  return `${
    plural(count, "line")
  } over 1 MiB searched only in ${whose} first MiB (use rg for the rest)`;
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** How long a pattern is shown in a message before it is cut. */
const SHOWN_PATTERN_LENGTH = 200;

// A pattern as messages quote it: an 11 MB pattern came back whole in every
// error and in the approval request.
function _shown(pattern: string): string {
  if (pattern.length <= SHOWN_PATTERN_LENGTH) return JSON.stringify(pattern);
  return `${
    JSON.stringify(pattern.slice(0, SHOWN_PATTERN_LENGTH))
  }… (${pattern.length} characters)`;
}

// V8's message quotes the whole expression ("Invalid regular expression:
// /.../u: Unterminated group"): the reason alone, when the quote is long.
function _reason(message: string): string {
  if (message.length <= SHOWN_PATTERN_LENGTH) return message;
  const reason = message.slice(message.lastIndexOf(": ") + 2);
  return `invalid regular expression: ${reason}`;
}
