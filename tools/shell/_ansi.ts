// Strips ANSI escape sequences (colors, cursor moves, OSC titles and links)
// from a byte stream, so the model sees text, not terminal control codes.
// It works on bytes because every escape sequence is ASCII, which also keeps
// the common case (a chunk without ESC) free of copies.

const ESC = 0x1b;
const BEL = 0x07;

const enum State {
  Ground,
  Escape,
  EscapeIntermediate,
  Csi,
  String,
  StringEscape,
}

// An unterminated OSC/DCS string or CSI would swallow the rest of the output;
// past these lengths the bytes are treated as text again.
const MAX_STRING = 4096;
const MAX_CSI = 64;
// Text runs longer than this are searched and copied natively.
const SHORT_RUN = 64;

/** A stateful stripper: sequences split across chunks are still removed. */
export class AnsiStripper {
  #state: State = State.Ground;
  #length = 0;
  #scratch = new Uint8Array(0);

  /**
   * Returns `chunk` without escape sequences: the same array when it has
   * none, else a view of a scratch buffer that the next call overwrites.
   */
  push(chunk: Uint8Array): Uint8Array {
    if (this.idle && chunk.indexOf(ESC) === -1) return chunk;
    return this.strip(chunk);
  }

  /** Whether no sequence is open: a chunk without ESC then passes unchanged. */
  get idle(): boolean {
    return this.#state === State.Ground;
  }

  /** Like {@linkcode push}, without the check for a chunk free of ESC. */
  strip(chunk: Uint8Array): Uint8Array {
    if (this.#scratch.length < chunk.length) {
      this.#scratch = new Uint8Array(chunk.length);
    }
    const out = this.#scratch;
    let n = 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.#state === State.Ground) {
        // Text up to the next ESC is copied without the state machine: short
        // runs by a tight loop, long ones natively (a native call costs about
        // as much as copying a few dozen bytes in the loop).
        let end = i;
        const near = Math.min(chunk.length, i + SHORT_RUN);
        while (end < near && chunk[end] !== ESC) out[n++] = chunk[end++];
        if (end === near && end < chunk.length) {
          const next = chunk.indexOf(ESC, end);
          const stop = next === -1 ? chunk.length : next;
          out.set(chunk.subarray(end, stop), n);
          n += stop - end;
          end = stop;
        }
        i = end;
        if (i === chunk.length) break;
      }
      if (this.#state === State.Ground) {
        // A whole CSI sequence (colors, cursor moves) is skipped in one go.
        const after = csiEnd(chunk, i);
        if (after > 0) {
          i = after;
          continue;
        }
      }
      const byte = chunk[i++];
      if (this.#step(byte)) out[n++] = byte;
    }
    return out.subarray(0, n);
  }

  // Advances the state machine by one byte; true when the byte is text.
  #step(byte: number): boolean {
    switch (this.#state) {
      case State.Ground:
        if (byte !== ESC) return true;
        this.#enter(State.Escape);
        return false;
      case State.Escape:
        return this.#afterEscape(byte);
      case State.EscapeIntermediate:
        if (byte >= 0x20 && byte <= 0x2f) return false;
        this.#state = State.Ground;
        return byte < 0x30 || byte > 0x7e ? this.#step(byte) : false;
      case State.Csi:
        if (byte >= 0x40 && byte <= 0x7e) {
          this.#state = State.Ground;
          return false;
        }
        if (byte >= 0x20 && byte <= 0x3f && ++this.#length <= MAX_CSI) {
          return false;
        }
        this.#state = State.Ground;
        return this.#step(byte);
      case State.String:
        if (byte === BEL) this.#state = State.Ground;
        else if (byte === ESC) this.#state = State.StringEscape;
        else if (++this.#length > MAX_STRING) this.#state = State.Ground;
        return false;
      case State.StringEscape:
        this.#state = byte === 0x5c
          ? State.Ground
          : byte === ESC
          ? State.StringEscape
          : State.String;
        return false;
    }
  }

  #afterEscape(byte: number): boolean {
    if (byte === 0x5b) this.#enter(State.Csi); // [
    else if (
      byte === 0x5d || byte === 0x50 || byte === 0x58 || byte === 0x5e ||
      byte === 0x5f
    ) {
      this.#enter(State.String); // ] P X ^ _ : OSC, DCS, SOS, PM, APC
    } else if (byte >= 0x20 && byte <= 0x2f) {
      this.#enter(State.EscapeIntermediate);
    } else if (byte === ESC) return false;
    else {
      this.#state = State.Ground;
      // ESC followed by a final byte is a complete two-byte sequence; anything
      // else (a control or non-ASCII byte) ends the escape and is kept as text.
      return byte < 0x30 || byte > 0x7e ? this.#step(byte) : false;
    }
    return false;
  }

  #enter(state: State): void {
    this.#state = state;
    this.#length = 0;
  }
}

// The index after the CSI sequence whose ESC is at `at`, when all of it is in
// `bytes` (at most MAX_CSI parameter and intermediate bytes); else -1, and
// the state machine takes it byte by byte.
function csiEnd(bytes: Uint8Array, at: number): number {
  if (bytes[at + 1] !== 0x5b) return -1;
  const start = at + 2;
  const limit = Math.min(bytes.length, start + MAX_CSI);
  let i = start;
  while (i < limit && bytes[i] >= 0x20 && bytes[i] <= 0x3f) i++;
  return i < bytes.length && bytes[i] >= 0x40 && bytes[i] <= 0x7e ? i + 1 : -1;
}

/** Strips escape sequences from a complete string. */
export function stripAnsi(text: string): string {
  if (!text.includes("\x1b")) return text;
  const bytes = new AnsiStripper().push(new TextEncoder().encode(text));
  return new TextDecoder().decode(bytes);
}
