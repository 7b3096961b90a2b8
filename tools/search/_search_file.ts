// Finds the lines of one file that match a pattern, streaming it in chunks so
// memory stays bounded whatever the file size. Binary files (a NUL byte in the
// first 8000 bytes, as git decides) are skipped; UTF-16 text with a byte order
// mark is searched as ReadFile reads it.
import { looksBinary, utf16Bom } from "../../internal/read_head.ts";
import { countChar } from "../../internal/count_char.ts";
import {
  openedFileSize,
  openedFileSizeSync,
} from "../../internal/open_file_size.ts";
import { runtime } from "../../internal/runtime/runtime.ts";

/** A matching line. */
export interface LineMatch {
  /** 1-based line number. */
  line: number;
  /** The line without its line ending, cut around the match when longer than 200 characters. */
  text: string;
  /** Where the first match starts in `text`. */
  column: number;
}

/** What scanning a file found. */
export interface FileScan {
  matches: LineMatch[];
  /** The file looked binary and was not searched. */
  binary: boolean;
  /** Lines over MAX_LINE_CHARS, searched in their first part only. */
  cutLines?: number;
}

const CHUNK_BYTES = 64 * 1024;
/**
 * A line longer than this is searched in its first part only, so one huge
 * minified line cannot hold the whole file in memory.
 */
export const MAX_LINE_CHARS: number = 1024 * 1024;

/**
 * Scans `path` for lines matching `pattern` (a regex with the `g` flag),
 * stopping after `limit` matching lines.
 */
export async function scanFile(
  path: string,
  pattern: RegExp,
  options: {
    limit: number;
    signal?: AbortSignal;
    /** Called before each chunk is matched (the regex worker's heartbeat). */
    onChunk?: () => void;
    /** Called once a chunk is matched. */
    afterChunk?: () => void;
    /**
     * Read with blocking calls, for a worker thread with nothing else to do
     * meanwhile (they cost less); the signal is then seen only between files.
     */
    blocking?: boolean;
  },
): Promise<FileScan> {
  const blocking = options.blocking === true;
  using file = blocking
    ? runtime.openSync(path, { read: true })
    : await runtime.open(path, { read: true });
  // Up to the size the file has now: one that keeps growing (a log being
  // written, `yes > f`) would otherwise keep the search going for ever.
  let left = blocking
    ? openedFileSizeSync(file, path)
    : await openedFileSize(file, path);
  const scanner = new LineScanner(pattern, options.limit);
  let decoder = new TextDecoder();
  // No bigger than the file: most are small, and zeroing 64 KiB for each
  // cost more than reading it.
  const buffer = new Uint8Array(Math.min(left, CHUNK_BYTES));
  let first = true;
  while (!scanner.full && left > 0) {
    options.signal?.throwIfAborted();
    const view = buffer.subarray(0, Math.min(left, CHUNK_BYTES));
    const read = blocking ? file.readSync(view) : await file.read(view);
    if (read === null) break;
    left -= read;
    const bytes = buffer.subarray(0, read);
    if (first) {
      const utf16 = utf16Bom(bytes);
      if (utf16) decoder = new TextDecoder(utf16);
      else if (looksBinary(bytes)) return { matches: [], binary: true };
      first = false;
    }
    options.onChunk?.();
    scanner.push(decoder.decode(bytes, { stream: true }));
    options.afterChunk?.();
  }
  options.onChunk?.();
  if (!scanner.full) scanner.end(decoder.decode());
  options.afterChunk?.();
  const scan: FileScan = { matches: scanner.matches, binary: false };
  if (scanner.cutLines > 0) scan.cutLines = scanner.cutLines;
  return scan;
}

/** Feeds text in pieces, keeps line numbers, collects matching lines. */
export class LineScanner {
  readonly matches: LineMatch[] = [];
  /** Lines searched in their first MAX_LINE_CHARS only. */
  cutLines = 0;
  #pattern: RegExp;
  #single: RegExp;
  #limit: number;
  #line = 1;
  #carry = "";
  #skippingLongLine = false;

  constructor(pattern: RegExp, limit: number) {
    this.#pattern = pattern;
    this.#single = new RegExp(pattern.source, pattern.flags.replace("g", ""));
    this.#limit = limit;
  }

  /** Whether `limit` matches were found. */
  get full(): boolean {
    return this.matches.length >= this.#limit;
  }

  /** Scans the complete lines of `text`, carrying an unfinished last line. */
  push(text: string): void {
    if (this.#skippingLongLine) {
      const newline = text.indexOf("\n");
      if (newline === -1) return;
      this.#skippingLongLine = false;
      this.#line++;
      text = text.slice(newline + 1);
    }
    const block = this.#carry + text;
    const lastNewline = block.lastIndexOf("\n");
    if (lastNewline === -1) {
      this.#carry = block;
      if (block.length > MAX_LINE_CHARS) this.#cutLongLine();
      return;
    }
    this.#carry = block.slice(lastNewline + 1);
    this.#scan(block.slice(0, lastNewline + 1));
  }

  /** Scans what is left: the last line, when it has no line ending. */
  end(rest = ""): void {
    this.push(rest);
    if (this.#carry !== "" && !this.#skippingLongLine) this.#scan(this.#carry);
    this.#carry = "";
  }

  #cutLongLine(): void {
    this.cutLines++;
    const line = this.#line;
    this.#scan(this.#carry);
    this.#line = line;
    this.#carry = "";
    this.#skippingLongLine = true;
  }

  /** Scans whole lines; leaves `#line` at the line after the block. */
  #scan(block: string): void {
    const pattern = this.#pattern;
    pattern.lastIndex = 0;
    let counted = 0; // newlines before `counted` are in #line already
    while (!this.full && pattern.lastIndex <= block.length) {
      const found = pattern.exec(block);
      // Past the last line end is the next block's line, not an empty one.
      if (!found || (found.index === block.length && block.endsWith("\n"))) {
        break;
      }
      const start = found.index === 0
        ? 0
        : block.lastIndexOf("\n", found.index - 1) + 1;
      let end = block.indexOf("\n", found.index);
      if (end === -1) end = block.length;
      this.#line += countChar(block, "\n", counted, start);
      counted = start;
      const text = block.slice(start, end).replace(/\r$/, "");
      // Re-checked on the line alone: a match may have crossed the line end,
      // or (in `m` mode) treated a CR as a line end of its own.
      const column = text.search(this.#single);
      if (column !== -1) {
        this.matches.push({
          line: this.#line,
          text: shortenLine(text, column),
          column,
        });
      }
      pattern.lastIndex = end + 1;
    }
    this.#line += countChar(block, "\n", counted);
  }
}

const MAX_TEXT_CHARS = 200;

/** Cuts a long line to a window around the match, marking cuts with `…`. */
export function shortenLine(text: string, column: number): string {
  if (text.length <= MAX_TEXT_CHARS) return text;
  const start = Math.max(
    0,
    Math.min(column - 60, text.length - MAX_TEXT_CHARS),
  );
  const end = start + MAX_TEXT_CHARS;
  return `${start > 0 ? "…" : ""}${text.slice(start, end)}${
    end < text.length ? "…" : ""
  }`;
}
