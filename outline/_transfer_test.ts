import assert from "node:assert/strict";
import { packOutline, unpackOutline } from "./_transfer.ts";
import type { OutlineResult } from "./types.ts";

Deno.test("unpackOutline() gives back what JSON would, key order included", () => {
  const result: OutlineResult = {
    language: "TypeScript",
    totalLines: 40,
    symbols: [
      {
        kind: "class",
        name: "A",
        startLine: 1,
        endLine: 20,
        children: [
          { kind: "method", name: "m", startLine: 2, endLine: 3, children: [] },
          {
            kind: "property",
            name: "p",
            startLine: 4,
            endLine: 4,
            children: [],
            doc: "",
          },
        ],
        doc: "A class. \u2014 \u{1f600}",
      },
      { kind: "function", name: "f", startLine: 22, endLine: 40, children: [] },
    ],
  };
  const packed = packOutline(result);
  assert.equal(packed.numbers.length, 4 * 4);
  const back = unpackOutline(structuredClone(packed));
  assert.equal(JSON.stringify(back), JSON.stringify(result));
  assert.deepEqual(back, JSON.parse(JSON.stringify(result)));
});

Deno.test("unpackOutline() handles a file without symbols", () => {
  const empty: OutlineResult = { language: "Go", totalLines: 0, symbols: [] };
  assert.deepEqual(unpackOutline(packOutline(empty)), empty);
});
