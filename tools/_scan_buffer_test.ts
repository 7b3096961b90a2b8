import assert from "node:assert/strict";
import { acquireScanBuffer, SCAN_BUFFER_BYTES } from "./_scan_buffer.ts";
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

Deno.test("_newline_scan_wasm.ts is the build of _newline_scan.wat", async () => {
  const bytes = await compileNewlineWasm();
  const module = await Deno.readTextFile(
    new URL("./_newline_scan_wasm.ts", import.meta.url),
  );
  assert.equal(module, newlineWasmModule(bytes));
  assert.equal(NEWLINE_WASM_BASE64, btoa(String.fromCharCode(...bytes)));
});
