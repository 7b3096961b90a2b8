import assert from "node:assert/strict";
import {
  acquireScanBuffer,
  countNewlines,
  countNewlinesUnless,
  SCAN_BUFFER_BYTES,
} from "./scan_buffer.ts";
import { NEWLINE_WASM_BASE64 } from "./_newline_scan_wasm.ts";
import {
  compileNewlineWasm,
  newlineWasmModule,
} from "../tests/support/build_newline_wasm.ts";

/** The obvious byte loop, as the reference. */
function reference(
  bytes: Uint8Array,
  from: number,
  to: number,
  n: number,
): number {
  let found = 0;
  for (let i = from; i < to; i++) {
    if (bytes[i] === 10 && ++found === n) return i;
  }
  return -1 - found;
}

Deno.test("acquireScanBuffer() finds and counts newlines like a byte loop", () => {
  let seed = 7;
  const random = () =>
    (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (const wasm of [true, false]) {
    const buffer = acquireScanBuffer({ wasm });
    try {
      const { bytes } = buffer;
      assert.equal(bytes.length, SCAN_BUFFER_BYTES);
      for (let round = 0; round < 40; round++) {
        // Densities from "every byte" to "almost never", to hit every code path.
        const density = [1, 0.5, 0.05, 0.001, 0][round % 5];
        for (let i = 0; i < 8192; i++) {
          bytes[i] = random() < density ? 10 : 32 + (i % 90);
        }
        const from = Math.floor(random() * 3000);
        const to = from + Math.floor(random() * (8192 - from));
        const total = reference(bytes, from, to, Infinity);
        assert.equal(
          buffer.count(from, to),
          -1 - total,
          `count ${wasm} ${round}`,
        );
        for (const n of [1, 2, 3, 17, 64, 65, 1000, -1 - total, -total]) {
          if (n < 1) continue;
          assert.equal(
            buffer.find(from, to, n),
            reference(bytes, from, to, n),
            `find wasm=${wasm} round=${round} n=${n} [${from}, ${to})`,
          );
        }
      }
      bytes.fill(10);
      assert.equal(buffer.count(0, SCAN_BUFFER_BYTES), SCAN_BUFFER_BYTES);
      assert.equal(
        buffer.find(0, SCAN_BUFFER_BYTES, SCAN_BUFFER_BYTES),
        SCAN_BUFFER_BYTES - 1,
      );
    } finally {
      buffer.release();
    }
  }
});

Deno.test("acquireScanBuffer() hands out distinct buffers to concurrent scans", () => {
  const a = acquireScanBuffer();
  const b = acquireScanBuffer();
  try {
    a.bytes.fill(10, 0, 100);
    b.bytes.fill(0, 0, 100);
    assert.equal(a.count(0, 100), 100);
    assert.equal(b.count(0, 100), 0);
  } finally {
    a.release();
    b.release();
  }
});

/** Newline count of `bytes` by the obvious loop, or -1 when `stop` occurs. */
function referenceUnless(bytes: Uint8Array, stop: number): number {
  let found = 0;
  for (const byte of bytes) {
    if (byte === stop) return -1;
    if (byte === 10) found++;
  }
  return found;
}

Deno.test("countNewlines() agrees with a byte loop at every alignment and across buffer-sized pieces", () => {
  // More than two scan buffers, so chunks are copied in several pieces.
  const bytes = new Uint8Array(2 * SCAN_BUFFER_BYTES + 1500);
  let seed = 11;
  for (let i = 0; i < bytes.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    bytes[i] = seed % 7 === 0 ? 10 : 32 + (seed & 0x3f);
  }
  for (let start = 0; start < 5; start++) {
    for (
      const end of [start, start + 1, start + 15, start + 17, 1040, 5000]
        .concat([SCAN_BUFFER_BYTES + 3, bytes.length])
    ) {
      const view = bytes.subarray(start, end);
      assert.equal(
        countNewlines(view),
        referenceUnless(view, -1),
        `bytes ${start}..${end}`,
      );
    }
  }
  assert.equal(countNewlines(new Uint8Array(0)), 0);
});

Deno.test("countNewlinesUnless() gives -1 for a stop byte anywhere: in a 1 KiB block, a 16-byte vector, the last bytes, a later piece", () => {
  const size = SCAN_BUFFER_BYTES + 2100;
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = i % 9 === 0 ? 10 : 97;
  const expected = referenceUnless(bytes, 0x1b);
  assert.equal(countNewlinesUnless(bytes, 0x1b), expected);
  const places = [0, 500, 1023, 1024, 1030, SCAN_BUFFER_BYTES - 1]
    .concat([SCAN_BUFFER_BYTES + 1500, size - 20, size - 1]);
  for (const at of places) {
    bytes[at] = 0x1b;
    assert.equal(countNewlinesUnless(bytes, 0x1b), -1, `ESC at ${at}`);
    // Short views: the vector and byte loops, at odd offsets.
    const view = bytes.subarray(Math.max(0, at - 20), at + 3);
    assert.equal(countNewlinesUnless(view, 0x1b), -1, `ESC near ${at}`);
    assert.equal(countNewlines(bytes), referenceUnless(bytes, -1));
    bytes[at] = at % 9 === 0 ? 10 : 97;
  }
  assert.equal(countNewlinesUnless(bytes, 0x1b), expected);
  // The stop byte is compared as a byte, even a high one.
  assert.equal(countNewlinesUnless(Uint8Array.of(97, 10, 0xff), 0xff), -1);
  assert.equal(countNewlinesUnless(Uint8Array.of(97, 10, 0xfe), 0xff), 1);
});

Deno.test("_newline_scan_wasm.ts is the build of _newline_scan.wat", async () => {
  const bytes = await compileNewlineWasm();
  const module = await Deno.readTextFile(
    new URL("./_newline_scan_wasm.ts", import.meta.url),
  );
  assert.equal(module, newlineWasmModule(bytes));
  assert.equal(NEWLINE_WASM_BASE64, btoa(String.fromCharCode(...bytes)));
});
