// Output bytes kept in a list of blocks instead of one growing array: growing
// an array copies it into one twice its size (three times the bytes held at
// that moment), and a string decoded from one array doubles what is held. A
// block list grows without copies, drops the blocks between its first and its
// last bytes, and is decoded block by block, each freed once it is text.
import { countNewlines } from "../../internal/scan_buffer.ts";
import {
  boundaryAfter,
  boundaryBefore,
  isValidUtf8,
} from "../../internal/utf8.ts";

/** The largest block; smaller ones start the list, so short output stays small. */
const BLOCK = 1024 * 1024;
const encoder = new TextEncoder();
const FIRST_BLOCK = 4096;

interface Block {
  bytes: Uint8Array;
  length: number;
}

/** A range of kept bytes: `[start, end)`. */
export type ByteRange = readonly [start: number, end: number];

/**
 * Bytes appended in chunks. A chunk is never split between two blocks, so a
 * block holds whole characters when the chunks do, and blocks decode one by
 * one to the text of the whole. Positions count the bytes kept.
 */
export class ByteBlocks {
  #blocks: Block[] = [];
  #length = 0;
  // Dropped blocks, reused: a long stream then allocates nothing and leaves
  // no garbage behind.
  #spares: Uint8Array[] = [];

  /** Bytes kept. */
  get length(): number {
    return this.#length;
  }

  /** Copies `chunk` in. */
  append(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    let last = this.#blocks.at(-1);
    if (last === undefined || last.length + chunk.length > last.bytes.length) {
      last = { bytes: this.#newBlock(chunk.length), length: 0 };
      this.#blocks.push(last);
    }
    last.bytes.set(chunk, last.length);
    last.length += chunk.length;
    this.#length += chunk.length;
  }

  #newBlock(needed: number): Uint8Array {
    const size = Math.max(
      needed,
      Math.min(BLOCK, Math.max(FIRST_BLOCK, this.#length)),
    );
    const spare = this.#spares.at(-1);
    if (spare !== undefined && spare.length >= needed) {
      return this.#spares.pop()!;
    }
    return new Uint8Array(size);
  }

  /**
   * Drops the blocks after those holding the first `first` bytes, oldest
   * first, as long as the last `last` bytes stay.
   */
  keepEnds(first: number, last: number): void {
    let at = 0;
    let before = 0; // bytes in the blocks before `at`
    while (at < this.#blocks.length && before < first) {
      before += this.#blocks[at++].length;
    }
    while (
      at < this.#blocks.length - 1 &&
      this.#length - before - this.#blocks[at].length >= last
    ) {
      const [dropped] = this.#blocks.splice(at, 1);
      this.#length -= dropped.length;
      this.#spares.push(dropped.bytes);
    }
  }

  /** Views of the kept bytes in `[start, end)`, in order. */
  views(start = 0, end = this.#length): Uint8Array[] {
    const views: Uint8Array[] = [];
    let offset = 0;
    for (const { bytes, length } of this.#blocks) {
      if (offset >= end) break;
      if (offset + length > start) {
        views.push(
          bytes.subarray(
            Math.max(0, start - offset),
            Math.min(length, end - offset),
          ),
        );
      }
      offset += length;
    }
    return views;
  }

  /** The byte at `index`. */
  at(index: number): number | undefined {
    return this.views(index, index + 1)[0]?.[0];
  }

  /** The position of the first `byte` at or after `start`, or -1. */
  indexOf(byte: number, start: number): number {
    let offset = start;
    for (const view of this.views(start)) {
      const found = view.indexOf(byte);
      if (found >= 0) return offset + found;
      offset += view.length;
    }
    return -1;
  }

  /** The position of the last `byte` before `end`, or -1. */
  lastIndexOf(byte: number, end: number): number {
    const views = this.views(0, end);
    let offset = end;
    for (let i = views.length - 1; i >= 0; i--) {
      offset -= views[i].length;
      const found = views[i].lastIndexOf(byte);
      if (found >= 0) return offset + found;
    }
    return -1;
  }

  // A block starts a chunk, and so a character: a boundary search ends in
  // the block where it starts.

  /** The smallest position >= `start` that does not split a character. */
  boundaryAfter(start: number): number {
    const [view] = this.views(start);
    return view === undefined ? start : start + boundaryAfter(view, 0);
  }

  /** The largest position <= `end` that does not split a character. */
  boundaryBefore(end: number): number {
    const [view] = this.views(end);
    if (view === undefined) return end;
    const block = new Uint8Array(view.buffer, 0, view.byteOffset + view.length);
    return end - (view.byteOffset - boundaryBefore(block, view.byteOffset));
  }

  /** The number of `\n` bytes in `[start, end)`. */
  countNewlines(start: number, end = this.#length): number {
    let count = 0;
    for (const view of this.views(start, end)) count += countNewlines(view);
    return count;
  }

  /**
   * How many UTF-8 bytes the text of `[start, end)` takes: as many as the
   * bytes, or more where invalid ones become U+FFFD (3 bytes each). Blocks
   * are measured one by one, which never counts less than the whole.
   */
  textBytes(start: number, end: number): number {
    let bytes = 0;
    for (const view of this.views(start, end)) {
      bytes += isValidUtf8(view)
        ? view.length
        : encoder.encode(new TextDecoder().decode(view)).length;
    }
    return bytes;
  }

  /**
   * The text of each range. Nothing is kept afterwards: each block's memory
   * is freed as soon as it is decoded, so the text takes its place.
   */
  texts(ranges: readonly ByteRange[]): string[] {
    const pieces = ranges.map(([start, end]) => this.views(start, end));
    const lastUse = new Map<ArrayBufferLike, Uint8Array>();
    for (const view of pieces.flat()) lastUse.set(view.buffer, view);
    // Blocks that no range needs go at once.
    for (
      const bytes of [
        ...this.#blocks.map((block) => block.bytes),
        ...this.#spares,
      ]
    ) {
      if (!lastUse.has(bytes.buffer)) detach(bytes);
    }
    this.#blocks = [];
    this.#length = 0;
    this.#spares = [];
    return pieces.map((views) => {
      const decoder = new TextDecoder();
      // `+` joins without copying (V8 keeps the pieces), so the peak is the
      // bytes not yet decoded plus the text so far.
      let text = "";
      for (const view of views) {
        text += decoder.decode(view, { stream: true });
        if (lastUse.get(view.buffer) === view) detach(view);
      }
      return text + decoder.decode();
    });
  }
}

// Detaching a buffer frees its memory at once, where dropping it would leave
// it to the next garbage collection, after the text has been allocated.
function detach(bytes: Uint8Array): void {
  (bytes.buffer as ArrayBuffer).transfer(0);
}
