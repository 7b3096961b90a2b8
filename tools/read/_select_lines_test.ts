import assert from "node:assert/strict";
import { CHECKPOINT_EVERY, type LineIndex } from "../../internal/line_index.ts";
import { selectDecodedLines } from "./_select_decoded_lines.ts";
import {
  LineTooLongError,
  PastEndError,
  selectLines,
  type SelectOptions,
} from "./_select_lines.ts";
import type { RandomAccessFile } from "../types.ts";

/** An in-memory file whose reads return random short counts, as real reads may. */
function memoryFile(bytes: Uint8Array, random: () => number): RandomAccessFile {
  return {
    read(buffer, position) {
      const available = Math.max(0, bytes.length - position);
      const n = Math.min(
        buffer.length,
        available,
        1 + Math.floor(random() * 300_000),
      );
      buffer.set(bytes.subarray(position, position + n));
      return Promise.resolve(n);
    },
    close() {},
  };
}

function prng(seed: number): () => number {
  return () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
}

function freshIndex(size: number): LineIndex {
  return { size, mtimeMs: 0, changeMs: null, checkpoints: [0] };
}

/** The expected selection, from a split. */
function expected(
  lines: string[],
  endsWithNewline: boolean,
  options: SelectOptions,
) {
  const { startLine, maxLines, maxBytes } = options;
  const total = lines.length;
  if (startLine > Math.max(total, 1)) return { pastEnd: total };
  let text = "";
  let end = startLine - 1;
  while (end < Math.min(total, startLine - 1 + maxLines)) {
    const line = lines[end] + (end < total - 1 || endsWithNewline ? "\n" : "");
    if (text.length + line.length > maxBytes) break;
    text += line;
    end++;
  }
  if (end === startLine - 1 && total > 0) return { tooLong: startLine };
  return { text, endLine: end, total };
}

Deno.test("selectLines() matches a split for random files, selections, byte caps and short reads", async () => {
  const random = prng(11);
  for (let round = 0; round < 25; round++) {
    const count = Math.floor(random() * 3 * CHECKPOINT_EVERY);
    const lines = Array.from(
      { length: count },
      (_, i) =>
        `${i}`.padEnd(
          Math.floor(random() * (random() < 0.02 ? 5000 : 40)),
          "x",
        ),
    );
    const endsWithNewline = random() < 0.5;
    const text = lines.join("\n") + (endsWithNewline && count > 0 ? "\n" : "");
    const bytes = new TextEncoder().encode(text);
    const index = freshIndex(bytes.length); // shared across picks: exercises reuse
    for (let pick = 0; pick < 12; pick++) {
      const options: SelectOptions = {
        startLine: 1 + Math.floor(random() * (count + 2)),
        maxLines: 1 + Math.floor(random() * 3000),
        maxBytes: random() < 0.3 ? 1 + Math.floor(random() * 20_000) : 1 << 24,
        countAllUpTo: random() < 0.5 ? Infinity : 0,
      };
      const want = expected(lines, endsWithNewline, options);
      const label = `round ${round} ${JSON.stringify(options)}`;
      const run = selectLines(memoryFile(bytes, random), index, options);
      if ("pastEnd" in want) {
        await assert.rejects(run, (e) => e instanceof PastEndError, label);
        continue;
      }
      if ("tooLong" in want) {
        await assert.rejects(run, (e) => e instanceof LineTooLongError, label);
        continue;
      }
      const got = await run;
      const content = new TextDecoder().decode(
        bytes.subarray(got.startByte, got.endByte),
      );
      assert.equal(content, want.text, label);
      assert.equal(got.endLine, want.endLine, label);
      if (got.totalLines !== undefined) {
        assert.equal(got.totalLines, want.total, label);
      }
      if (options.countAllUpTo === Infinity) {
        assert.equal(got.totalLines, want.total, label);
      }
    }
    // Checkpoints point at the starts of lines 1, 2049, 4097, ...
    index.checkpoints.forEach((offset, i) => {
      const line = i * CHECKPOINT_EVERY;
      const start = new TextEncoder().encode(
        lines.slice(0, line).map((l) => l + "\n").join(""),
      )
        .length;
      assert.equal(offset, start, `checkpoint ${i}`);
    });
  }
});

Deno.test("selectDecodedLines() selects UTF-16 lines with a character cap", async () => {
  const random = prng(5);
  const text = "α\r\nβγ\n\nδδδδδδδδδδ\nend";
  const bytes = new Uint8Array(2 + text.length * 2);
  bytes.set([0xff, 0xfe]);
  for (let i = 0; i < text.length; i++) {
    bytes[2 + 2 * i] = text.charCodeAt(i) & 0xff;
    bytes[3 + 2 * i] = text.charCodeAt(i) >> 8;
  }
  const format = { encoding: "utf-16le" as const, bomLength: 2 };
  const run = (startLine: number, maxLines: number, maxBytes = 1 << 20) =>
    selectDecodedLines(memoryFile(bytes, random), bytes.length, format, {
      startLine,
      maxLines,
      maxBytes,
      countAllUpTo: Infinity,
    });
  const all = await run(1, 100);
  assert.equal(all.content, text);
  assert.equal(all.selection.totalLines, 5);
  const middle = await run(2, 2);
  assert.equal(middle.content, "βγ\n\n");
  assert.equal(middle.selection.endLine, 3);
  const capped = await run(1, 100, 16); // 8 characters
  assert.equal(capped.content, "α\r\nβγ\n\n");
  assert.equal(capped.selection.endLine, 3);
  await assert.rejects(run(4, 1, 8), LineTooLongError);
  await assert.rejects(run(6, 1), PastEndError);
});
