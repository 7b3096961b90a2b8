// ReadFile: a whole small file, or any range of lines of a file of any size,
// streamed so that memory does not grow with the file.
import { formatSize } from "../../internal/format_size.ts";
import { z } from "zod";
import type { ToolContext } from "../context.ts";
import {
  decodeText,
  SNIFF_BYTES,
  sniffFormat,
  type TextFormat,
} from "../../internal/decode.ts";
import { defineTool } from "../define.ts";
import {
  fileSystemError,
  type FileTarget,
  fileTarget,
  refuseAborted,
  refuseOpenedElsewhere,
  refuseRetargeted,
  statFile,
} from "../file_errors.ts";
import { lineIndexFor } from "../../internal/line_index.ts";
import { readAt, readUnsized, readWhole } from "../read_at.ts";
import { selectDecodedLines } from "./_select_decoded_lines.ts";
import {
  type LineSelection,
  LineTooLongError,
  PastEndError,
  selectLines,
  type SelectOptions,
} from "./_select_lines.ts";
import { formatNumberedLines } from "../../internal/numbered_lines.ts";
import { ToolError } from "../../internal/tool_error.ts";
import type {
  FileStat,
  RandomAccessFile,
  SymbolRange,
  Tool,
} from "../types.ts";
import { findSymbol } from "../_find_symbol.ts";
import DESCRIPTION from "./read_file.txt" with { type: "text" };

/**
 * Input of ReadFile.
 *
 * Executing ReadFile requires `--allow-read` for the file.
 *
 * @example Read 3 lines from line 2
 * ```ts
 * import { createTools, type ReadFileInput } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const input: ReadFileInput = { path: "deno.json", line: 2, limit: 3 };
 * const { content, startLine, endLine } = await createTools().ReadFile.execute(input);
 * assert.deepEqual([startLine, endLine], [2, 4]);
 * assert.match(content, /^ {2}"name": "@fello\/agent",/);
 * ```
 */
export interface ReadFileInput {
  /** The file: relative to the workspace (or `cwd`), absolute, or a `file://` URI. */
  path: string;
  /** The first line to read, 1-based. */
  line?: number;
  /** How many lines to read (at most 2,000 when only `line` is given). */
  limit?: number;
  /** Resolve a relative `path` against this folder (itself relative to the workspace). */
  cwd?: string;
  /** Read a file over 100 KB whole. */
  force?: boolean;
  /**
   * Read exactly one symbol's lines, doc comment included, by its name path
   * (`Outliner.run`, a unique suffix such as `run`, or `parse@120` to pick
   * one of several); not with `line` or `limit`, and at any file size.
   */
  symbol?: string;
}

/**
 * Result of ReadFile: the selected lines and where they are.
 *
 * Requires `--allow-read` for the file.
 *
 * @example Read lines 10-14 of a file
 * ```ts
 * import { createTools } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * const lines = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
 * await Deno.writeTextFile(`${cwd}/a.txt`, lines.join("\n") + "\n");
 * const tools = createTools({ cwd });
 * const { content, startLine, endLine, totalLines } = await tools.ReadFile
 *   .execute({ path: "a.txt", line: 10, limit: 5 });
 * assert.deepEqual([startLine, endLine, totalLines], [10, 14, 20]);
 * assert.equal(content.split("\n")[0], "line 10");
 * ```
 */
export interface ReadFileResult {
  /** The file, relative to the workspace when inside it, else absolute. */
  path: string;
  /** The selected lines exactly as in the file (decoded; line endings kept). */
  content: string;
  /** The first line returned, 1-based. */
  startLine: number;
  /** The last line returned (0 for an empty file). */
  endLine: number;
  /** The file's line count; may be undefined only for a partial read of a file over 10 MB. */
  totalLines?: number;
  /** The symbol read, for a read by `symbol`: its full name path, kind and lines. */
  symbol?: SymbolRange;
}

/** A full read of a file bigger than this is refused without `force`. */
export const FULL_READ_LIMIT = 102_400;
/** Lines returned when `line` is given without `limit`. */
export const DEFAULT_LINE_LIMIT = 2000;
/** Partial reads of files up to this size always report `totalLines`. */
const COUNT_ALL_UP_TO = 10 * 1024 * 1024;
/** The most text one partial read returns, cut at a line end. */
const MAX_SELECTED_BYTES = 16 * 1024 * 1024;
/** Even `force` cannot return more than this in one string. */
const MAX_FORCED_BYTES = 256 * 1024 * 1024;
/**
 * The most characters of numbered text the model is given: far more than any
 * model takes, and bounded so that rendering a forced read of 256 MB cannot
 * run out of memory (the rest is named with how to read it).
 */
const MAX_MODEL_CHARS = 32 * 1024 * 1024;

const NAME = "ReadFile";

const schema = z.object({
  path: z.string().describe("The file to read"),
  line: z.number().int().min(1).optional().describe("1-based first line"),
  limit: z.number().int().min(1).optional().describe("Number of lines"),
  cwd: z.string().optional().describe("Folder for a relative path"),
  force: z.boolean().optional().describe("Read a file over 100 KB whole"),
  symbol: z.string().optional().describe(
    "Read one symbol by name path, e.g. Class.method",
  ),
});

/** Creates the ReadFile tool for a context. */
export function createReadFile(
  context: ToolContext,
): Tool<ReadFileInput, ReadFileResult> {
  return defineTool({
    name: NAME,
    kind: "read",
    description: DESCRIPTION,
    schema,
    run: (input, options) => readFile(context, input, options.signal),
    toModelText: readFileText,
  });
}

async function readFile(
  context: ToolContext,
  input: ReadFileInput,
  signal?: AbortSignal,
): Promise<ReadFileResult> {
  const target = fileTarget(context, {
    tool: NAME,
    verb: "read",
    path: input.path,
    cwd: input.cwd,
  });
  const { path } = target;
  if (input.symbol !== undefined) checkSymbolInput(input, target);
  // Before any await: a read made after a write of this file (in one step)
  // waits for it, and sees what it wrote.
  using queued = context.queueForFile(path);
  await queued.file.wait(signal);
  refuseAborted(signal, target);
  const authorized = await context.authorize({
    tool: NAME,
    action: "read",
    path,
    description: `Read "${target.display}"`,
  }, { turn: queued.ask, signal });
  // A file swapped for a symlink while a person decided is not read there
  // (without a wait, there was no moment to swap it in; spare the check).
  if (authorized.waited) await refuseRetargeted(context, target, authorized);
  let stat = await statFile(context.files, target);
  const bySymbol = input.symbol !== undefined;
  const partial = bySymbol || input.line !== undefined ||
    input.limit !== undefined;
  if (!partial) checkFullReadSize(stat, target, input.force === true);
  let file: RandomAccessFile;
  try {
    file = await context.files.open(path);
  } catch (error) {
    throw fileSystemError(target, error);
  }
  try {
    // What opened must be what was decided on, whatever the path leads to now.
    await refuseOpenedElsewhere(context, target, file, authorized.realPath);
    if (stat.size === 0) {
      ({ file, stat } = await sizedNow(file, stat, {
        target,
        full: !partial,
        force: input.force === true,
      }));
    }
    const head = new Uint8Array(Math.min(SNIFF_BYTES, stat.size));
    await readAt(file, head, 0);
    const format = sniffFormat(head, target);
    const result = bySymbol
      ? await readSymbol(file, stat, format, target, {
        symbol: input.symbol!,
        signal,
      })
      : partial
      ? await readLines(file, stat, format, target, {
        input,
        signal,
        backend: context.files,
      })
      : await readAll(file, stat, format);
    return { path: target.display, ...result };
  } catch (error) {
    throw fileSystemError(target, error);
  } finally {
    file.close();
  }
}

// /proc and /sys files say 0 bytes and hold text: read what is there, at
// most what the read may return and a byte more, refusing a binary one on its
// first bytes (/proc/self/pagemap is hundreds of GB of them), and close the
// file: its bytes are in memory now.
async function sizedNow(
  file: RandomAccessFile,
  stat: FileStat,
  { target, full, force }: {
    target: FileTarget;
    full: boolean;
    force: boolean;
  },
): Promise<{ file: RandomAccessFile; stat: FileStat }> {
  const limit = full && !force ? FULL_READ_LIMIT : MAX_FORCED_BYTES;
  try {
    const { bytes, file: inMemory } = await readUnsized(file, limit, {
      checkHead: (head) => sniffFormat(head, target),
      headBytes: SNIFF_BYTES,
    });
    if (full && bytes.length > limit) unsizedTooBig(target, force);
    return { file: inMemory, stat: { ...stat, size: bytes.length } };
  } finally {
    file.close();
  }
}

/** A full read of a file without a size (in stat) that is over the limit. */
function unsizedTooBig(target: FileTarget, force: boolean): never {
  if (!force) {
    throw new ToolError(
      `Cannot read "${target.display}" whole: it is over 100 KB (its size is not known before reading; it reports 0 bytes), the limit for a full read; read the part you need with line and limit, or pass force: true to read it all`,
    );
  }
  throw new ToolError(
    `Cannot read "${target.display}" whole: it is over ${
      formatSize(MAX_FORCED_BYTES)
    }, too big to return at once even with force; read it in parts with line and limit`,
  );
}

function checkFullReadSize(
  stat: FileStat,
  target: FileTarget,
  force: boolean,
): void {
  if (stat.size > FULL_READ_LIMIT && !force) {
    // Just past the limit, the rounded size reads "100 KB": bytes say more.
    const size = formatSize(stat.size);
    const shown = size === formatSize(FULL_READ_LIMIT)
      ? `${stat.size} bytes`
      : `${size} (${stat.size} bytes)`;
    throw new ToolError(
      `Cannot read "${target.display}" whole: it is ${shown}, over the 100 KB limit (${FULL_READ_LIMIT} bytes) for a full read; call file_outline on it first to see its structure, then read the part you need with line and limit, or pass force: true to read it all`,
    );
  }
  if (stat.size > MAX_FORCED_BYTES) {
    throw new ToolError(
      `Cannot read "${target.display}" whole: it is ${
        formatSize(stat.size)
      }, too big to return at once even with force; read it in parts with line and limit`,
    );
  }
}

type Lines = Omit<ReadFileResult, "path">;

function checkSymbolInput(input: ReadFileInput, target: FileTarget): void {
  if (input.line !== undefined || input.limit !== undefined) {
    throw new ToolError(
      `Cannot read "${target.display}": symbol cannot be combined with line or limit; give either the symbol's name path, or line and limit`,
    );
  }
}

// A symbol's lines: the whole text is read to outline it (ReadFile's size
// limit for full reads does not apply: only the symbol is returned).
async function readSymbol(
  file: RandomAccessFile,
  stat: FileStat,
  format: TextFormat,
  target: FileTarget,
  { symbol, signal }: { symbol: string; signal?: AbortSignal },
): Promise<Lines> {
  if (stat.size > MAX_FORCED_BYTES) {
    throw new ToolError(
      `Cannot read "${target.display}" by symbol: it is ${
        formatSize(stat.size)
      }, too big to outline; read it by lines with line and limit`,
    );
  }
  const { content: text } = await readAll(file, stat, format);
  const found = await findSymbol(target, text, symbol, signal);
  const { name, kind, startLine, endLine, totalLines } = found;
  return {
    content: text.slice(found.start, found.end),
    startLine,
    endLine,
    totalLines,
    symbol: { name, kind, startLine, endLine },
  };
}

async function readAll(
  file: RandomAccessFile,
  stat: FileStat,
  format: TextFormat,
): Promise<Lines> {
  const bytes = await readWhole(file, stat.size);
  const content = decodeText(bytes.subarray(format.bomLength), format.encoding);
  const totalLines = countLines(content);
  return { content, startLine: 1, endLine: totalLines, totalLines };
}

async function readLines(
  file: RandomAccessFile,
  stat: FileStat,
  format: TextFormat,
  target: FileTarget,
  { input, signal, backend }: {
    input: ReadFileInput;
    signal?: AbortSignal;
    backend: object;
  },
): Promise<Lines> {
  const options: SelectOptions = {
    startLine: input.line ?? 1,
    maxLines: input.limit ?? DEFAULT_LINE_LIMIT,
    maxBytes: MAX_SELECTED_BYTES,
    countAllUpTo: COUNT_ALL_UP_TO,
    signal,
  };
  try {
    if (format.encoding !== "utf-8") {
      const { selection, content } = await selectDecodedLines(
        file,
        stat.size,
        format,
        options,
      );
      return linesResult(selection, content);
    }
    const index = lineIndexFor(
      backend,
      target.path,
      stat,
      format.bomLength,
    );
    const selection = await selectLines(file, index, options);
    const bytes = new Uint8Array(selection.endByte - selection.startByte);
    await readAt(file, bytes, selection.startByte);
    return linesResult(selection, decodeText(bytes, "utf-8"));
  } catch (error) {
    throw explainSelection(error, target, options);
  }
}

function linesResult(selection: LineSelection, content: string): Lines {
  const lines: Lines = {
    content,
    startLine: selection.startLine,
    endLine: selection.endLine,
  };
  if (selection.totalLines !== undefined) {
    lines.totalLines = selection.totalLines;
  }
  return lines;
}

function explainSelection(
  error: unknown,
  target: FileTarget,
  options: SelectOptions,
): unknown {
  if (error instanceof PastEndError) {
    const total = error.totalLines;
    const advice = total === 0
      ? "the file is empty"
      : `use a line from 1 to ${total}`;
    return new ToolError(
      `Cannot read "${target.display}" from line ${options.startLine}: the file has only ${total} ${
        total === 1 ? "line" : "lines"
      }; ${advice}`,
    );
  }
  if (error instanceof LineTooLongError) {
    return new ToolError(
      `Cannot read "${target.display}" at line ${error.line}: that single line is over ${
        formatSize(options.maxBytes)
      }; inspect it with Shell (for example "head -c 2000") instead`,
    );
  }
  if (signalAborted(error)) {
    return new ToolError(`Reading "${target.display}" was aborted`, {
      cause: error,
    });
  }
  return error;
}

function signalAborted(error: unknown): boolean {
  return error instanceof DOMException && error.name === "AbortError";
}

/** Lines in a text: newlines, plus one for a last line without a newline. */
function countLines(text: string): number {
  if (text.length === 0) return 0;
  let count = 0;
  let at = text.indexOf("\n");
  while (at !== -1) {
    count++;
    at = text.indexOf("\n", at + 1);
  }
  return text.endsWith("\n") ? count : count + 1;
}

/** The text the model sees: numbered lines and, when more remain, how to continue. */
export function readFileText(result: ReadFileResult): string {
  const { path, content, startLine, endLine, totalLines } = result;
  if (result.symbol !== undefined) {
    const { kind, name } = result.symbol;
    const body = formatNumberedLines(content, startLine, {
      maxChars: MAX_MODEL_CHARS,
    });
    return `${body}\n\n(${kind} ${name}: lines ${startLine}-${endLine} of ${totalLines} in "${path}".)`;
  }
  if (content.length === 0) {
    return totalLines === 0
      ? `(The file "${path}" is empty: 0 lines.)`
      : `(No text in "${path}" at line ${startLine}.)`;
  }
  const body = formatNumberedLines(content, startLine, {
    maxChars: MAX_MODEL_CHARS,
  });
  const more = totalLines === undefined || endLine < totalLines;
  if (!more) return body;
  const of = totalLines === undefined ? "" : ` of ${totalLines}`;
  return `${body}\n\n(Lines ${startLine}-${endLine}${of} in "${path}". More lines remain: use line=${
    endLine + 1
  } to continue.)`;
}
