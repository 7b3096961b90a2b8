// Reads standard input line by line, for prompts typed in an interactive
// session and for permission answers. One reader serves both, since a stream
// can be locked only once.

let reader: ReadableStreamDefaultReader<string> | undefined;
let buffered = "";
let ended = false;
let inflight: Promise<string | null> | undefined;

/**
 * The next line of stdin without its newline, or null at the end of input. A
 * read abandoned by its caller (a permission question cancelled by Ctrl-C)
 * hands its line to the next caller instead of losing it.
 */
export function readLine(): Promise<string | null> {
  inflight ??= nextLine().finally(() => inflight = undefined);
  return inflight;
}

async function nextLine(): Promise<string | null> {
  reader ??= Deno.stdin.readable.pipeThrough(new TextDecoderStream())
    .getReader();
  while (true) {
    const newline = buffered.indexOf("\n");
    if (newline >= 0) {
      const line = buffered.slice(0, newline).replace(/\r$/, "");
      buffered = buffered.slice(newline + 1);
      return line;
    }
    if (ended) {
      if (buffered === "") return null;
      const last = buffered;
      buffered = "";
      return last;
    }
    const { done, value } = await reader.read();
    if (done) ended = true;
    else buffered += value;
  }
}

/** Reads all of stdin (a piped prompt). */
export async function readAll(): Promise<string> {
  const lines: string[] = [];
  for (let line = await readLine(); line !== null; line = await readLine()) {
    lines.push(line);
  }
  return lines.join("\n");
}
