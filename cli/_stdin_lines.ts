// Reads standard input line by line, for prompts typed in an interactive
// session and for permission answers. One reader serves both, since a stream
// can be locked only once. Each chunk is searched once and a line's pieces are
// joined once: searching the whole buffered text after every chunk made a
// 40 MB piped prompt take 10 s and 946 MB.

import { runtime } from "../internal/runtime/runtime.ts";
/** The most a prompt piped on stdin may hold, in characters (10 MB of ASCII). */
export const MAX_PIPED_PROMPT_CHARS = 10 * 1024 * 1024;

let reader: ReadableStreamDefaultReader<string> | undefined;
/** The last chunk read, from `chunkAt` on not yet returned. */
let chunk = "";
let chunkAt = 0;
/** The pieces of the line being read (no newline in them). */
let pieces: string[] = [];
/** Their length, and whether some of the line was dropped past a maximum. */
let lineLength = 0;
let lineCut = false;
let ended = false;
let inflight: Promise<string | null> | undefined;
/** Counts the readers that took stdin over from an abandoned readLine. */
let takeovers = 0;

/**
 * The next line of stdin without its newline, or null at the end of input. A
 * read abandoned by its caller (a permission question cancelled by Ctrl-C)
 * hands its line to the next caller instead of losing it. A line longer than
 * `maxChars` is cut to its start and "…", the rest dropped as it comes: a
 * 600 MB "answer" without a newline crashed fello run.
 */
export function readLine(
  options: { maxChars?: number } = {},
): Promise<string | null> {
  const maxChars = options.maxChars ?? Infinity;
  inflight ??= nextLine(maxChars).finally(() => inflight = undefined);
  return inflight;
}

async function nextLine(maxChars: number): Promise<string | null> {
  const takeover = takeovers;
  while (true) {
    const newline = chunk.indexOf("\n", chunkAt);
    if (newline >= 0) {
      keepPiece(chunk.slice(chunkAt, newline), maxChars);
      chunkAt = newline + 1;
      return takeLine().replace(/\r$/, "");
    }
    keepRestOfChunk(maxChars);
    if (ended) return pieces.length === 0 ? null : takeLine();
    await readChunk();
    // readText took over: what came is left for it.
    if (takeovers !== takeover) return null;
  }
}

/**
 * Reads all of stdin (a piped prompt), lines joined with "\n". Throws when it
 * holds more than {@linkcode MAX_PIPED_PROMPT_CHARS}, without reading on.
 */
export async function readAll(): Promise<string> {
  keepRestOfChunk();
  let length = lineLength;
  while (!ended) {
    if (length > MAX_PIPED_PROMPT_CHARS) {
      takeLine(); // dropped
      throw new Error(
        `the prompt on stdin is over 10 MB (${MAX_PIPED_PROMPT_CHARS} characters); put the text in a file and ask fello to read it, e.g. fello run "Summarize notes.txt"`,
      );
    }
    await readChunk();
    length += keepRestOfChunk();
  }
  const text = takeLine().replaceAll("\r\n", "\n");
  return text.endsWith("\n") ? text.slice(0, -1) : text;
}

/**
 * The next text stdin holds, as it came (a terminal in raw mode sends keys
 * one read at a time), or null at its end: what is buffered first, else the
 * next read. For the line editor; shares the reader with readLine.
 */
export async function readText(): Promise<string | null> {
  if (inflight) {
    // A readLine whose caller gave up (a question cancelled by Ctrl-C)
    // still waits for a chunk: it leaves that chunk here.
    takeovers++;
    await inflight;
  }
  while (true) {
    if (pieces.length > 0 || chunk.length > chunkAt) {
      keepRestOfChunk();
      return takeLine();
    }
    if (ended) return null;
    await readChunk();
  }
}

/** Puts `text` back in front of what stdin holds, for the next reader. */
export function unread(text: string): void {
  if (text === "") return;
  chunk = text + chunk.slice(chunkAt);
  chunkAt = 0;
}

async function readChunk(): Promise<void> {
  reader ??= runtime.stdin.readable.pipeThrough(new TextDecoderStream())
    .getReader();
  const { done, value } = await reader.read();
  if (done) ended = true;
  else {
    chunk = value;
    chunkAt = 0;
  }
}

// Moves what is left of the last chunk into the line's pieces; returns its
// length.
function keepRestOfChunk(maxChars = Infinity): number {
  const rest = chunk.length - chunkAt;
  if (rest > 0) {
    keepPiece(chunkAt === 0 ? chunk : chunk.slice(chunkAt), maxChars);
  }
  chunk = "";
  chunkAt = 0;
  return Math.max(0, rest);
}

// Adds a piece to the line, as far as `maxChars` allows.
function keepPiece(piece: string, maxChars: number): void {
  const room = maxChars - lineLength;
  if (piece.length > room) {
    lineCut = true;
    if (room <= 0) return;
    piece = piece.slice(0, room);
  }
  pieces.push(piece);
  lineLength += piece.length;
}

function takeLine(): string {
  const line = (pieces.length === 1 ? pieces[0] : pieces.join("")) +
    (lineCut ? "…" : "");
  pieces = [];
  lineLength = 0;
  lineCut = false;
  return line;
}
