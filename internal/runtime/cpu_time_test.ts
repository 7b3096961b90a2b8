// cpuTimeMs() of the runtime facade, on Deno's implementation and on the
// node: one (_node.ts, run here under Deno's node compatibility).
import assert from "node:assert/strict";
import { type Runtime, runtime } from "./runtime.ts";
import { nodeRuntime } from "./_node.ts";

const FACADES: [string, Runtime][] = [
  ["Deno", runtime],
  ["node:", nodeRuntime()],
];

for (const [name, facade] of FACADES) {
  Deno.test(`cpuTimeMs() of the ${name} facade grows as the process computes`, () => {
    const before = facade.cpuTimeMs();
    assert.equal(typeof before, "number");
    // Spins until the clock moves: a thread starved on a busy machine gets
    // no CPU time for a while. Generously bounded.
    const end = performance.now() + 10_000;
    let after = before!;
    while (after === before && performance.now() < end) {
      after = facade.cpuTimeMs()!;
    }
    assert.ok(after > before!, `${before} ms, then ${after} ms`);
  });
}
