// fileOutline() and outlineSymbols() with huge inputs: memory measured in a
// child process of its own.
import assert from "node:assert/strict";
import { join } from "node:path";
import { withWorkspace } from "../tests/support/workspace.ts";
import { childPeak, MB, MOD } from "../tests/support/child_peak.ts";

Deno.test("outlineSymbols() refuses a 300 MB binary .ts file without loading it", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "video.ts");
    await Deno.writeFile(path, new Uint8Array());
    await Deno.truncate(path, 300 * MB); // sparse: no disk used
    const { result, peak } = await childPeak(
      `import { outlineSymbols } from "${MOD}";
const started = performance.now();
let error = "";
try { await outlineSymbols(Deno.args[0]); } catch (e) { error = String(e); }
(globalThis as Record<string, unknown>).result = { error, ms: performance.now() - started };`,
      [path],
    );
    const { error } = result as { error: string; ms: number };
    assert.match(error, /binary/);
    assert.ok(
      peak < 400 * MB,
      `peak RSS ${Math.round(peak / MB)} MB to refuse a 300 MB binary file`,
    );
  });
});

Deno.test("fileOutline() cache keeps its memory within a budget across many big files", async () => {
  await withWorkspace(async (dir) => {
    let text = "";
    for (let i = 0; i < 100_000; i++) text += `# heading ${i}\n`;
    for (let f = 0; f < 12; f++) {
      await Deno.writeTextFile(join(dir, `f${f}.md`), text);
    }
    const { result } = await childPeak(
      `import { outlineSymbols } from "${MOD}";
const gc = (globalThis as unknown as { gc(): void }).gc;
gc();
const before = Deno.memoryUsage().heapUsed;
for (let f = 0; f < 12; f++) await outlineSymbols(\`\${Deno.args[0]}/f\${f}.md\`);
gc();
(globalThis as Record<string, unknown>).result = Deno.memoryUsage().heapUsed - before;`,
      [dir],
      { flags: ["--v8-flags=--expose-gc"] },
    );
    const retained = result as number;
    assert.ok(
      retained < 100 * MB,
      `${Math.round(retained / MB)} MB retained after outlining 12 files`,
    );
  });
});
