// A quick look for a literal in a file's bytes, before any decoding: most
// files of a search hold no match, and decoding them to text costs more than
// reading them. The UTF-8 bytes of a case-sensitive literal (or of text every
// match of a regex holds) that occur nowhere in a file mean no line of its
// text matches (a byte that does not decode becomes U+FFFD, which such a
// literal does not hold). Blocking reads: for the scan workers, whose thread
// has nothing else to do meanwhile.
import { looksBinary, utf16Bom } from "../../internal/read_head.ts";
import { openedFileSizeSync } from "../../internal/open_file_size.ts";
import { runtime } from "../../internal/runtime/runtime.ts";
import { MAX_LINE_CHARS } from "./_search_file.ts";

/**
 * What a skim tells: `absent` (a text file without the literal and without
 * lines long enough to be cut), `binary` (skipped as scanFile skips it), or
 * `maybe` (scan the file to know).
 */
export type Skim = "absent" | "binary" | "maybe";

const CHUNK_BYTES = 256 * 1024;
let shared = new Uint8Array(0);
/** Longer literals are not skimmed for: the overlap kept between reads. */
export const MAX_SKIM_LITERAL = 64 * 1024;

/**
 * Skims `path` for `needle` (a literal's UTF-8 bytes, no U+FFFD in it).
 * `onChunk` and `afterChunk` bracket the work on each read, as in scanFile.
 */
export function skimForLiteral(
  path: string,
  needle: Uint8Array,
  options: { onChunk?: () => void; afterChunk?: () => void } = {},
): Skim {
  if (needle.length === 0 || needle.length > MAX_SKIM_LITERAL) return "maybe";
  using file = runtime.openSync(path, { read: true });
  // Up to the size the file has now, as scanFile reads it.
  let left = openedFileSizeSync(file, path);
  const overlap = needle.length - 1;
  // One buffer for every skim of this thread (they never overlap: no await).
  if (shared.length < overlap + CHUNK_BYTES) {
    shared = new Uint8Array(overlap + CHUNK_BYTES);
  }
  const buffer = shared;
  let kept = 0;
  // Bytes since the last line end: a line over MAX_LINE_CHARS bytes may be
  // cut by the scan (it counts characters), so such a file is scanned.
  let run = 0;
  let first = true;
  while (left > 0) {
    const read = file.readSync(
      buffer.subarray(kept, kept + Math.min(left, CHUNK_BYTES)),
    );
    if (read === null) break;
    left -= read;
    const fresh = buffer.subarray(kept, kept + read);
    if (first) {
      if (utf16Bom(fresh)) return "maybe";
      if (looksBinary(fresh)) return "binary";
      first = false;
    }
    options.onChunk?.();
    const found = indexOfBytes(buffer.subarray(0, kept + read), needle) !== -1;
    options.afterChunk?.();
    if (found) return "maybe";
    const firstBreak = fresh.indexOf(10);
    if (firstBreak === -1) {
      run += read;
    } else {
      // Lines inside one read are shorter than CHUNK_BYTES.
      if (run + firstBreak > MAX_LINE_CHARS) return "maybe";
      run = read - fresh.lastIndexOf(10) - 1;
    }
    if (run > MAX_LINE_CHARS) return "maybe";
    // The last bytes again before the next read: a match may span the two.
    const end = kept + read;
    kept = Math.min(overlap, end);
    buffer.copyWithin(0, end - kept, end);
  }
  return "absent";
}

/** Where `needle` first occurs in `haystack`, or -1. */
export function indexOfBytes(haystack: Uint8Array, needle: Uint8Array): number {
  const head = needle[0];
  const last = haystack.length - needle.length;
  for (
    let at = haystack.indexOf(head);
    at !== -1 && at <= last;
    at = haystack.indexOf(head, at + 1)
  ) {
    let k = 1;
    while (k < needle.length && haystack[at + k] === needle[k]) k++;
    if (k === needle.length) return at;
  }
  return -1;
}
