// ReadFile `symbol` on TypeScript's lib.dom.d.ts (1.9 MB, fetched into
// .bench-data/ on first use) against a plain ReadFile of the same whole file.
// "cold": a fresh pool of outline workers (the pool's start, the grammar
// loaded into each worker, the file parsed in pieces side by side); "warm": a
// running pool parsing a text it has not seen (a copy of the file whose last
// line changes before each run, outside the timing); "again": the same text
// read again, answered from the outlines kept of the last texts; "the
// outline alone" is the warm parse without the read and the name lookup. The symbol
// is an interface's member deep in the file, `WebAssembly.Global.value`.
// Figures go in bench/README.md.
import { join } from "node:path";
import { createTools } from "../mod.ts";
import { outlineText, stopOutlineWorkers } from "../outline/outline.ts";
import { BENCH_DATA, packageFile } from "../tests/support/npm_package.ts";

const source = await Deno.readTextFile(
  await packageFile("typescript@5.6.2", "lib/lib.dom.d.ts"),
);
const path = join(BENCH_DATA, "read_symbol_lib.dom.d.ts");
await Deno.writeTextFile(path, source);
const tools = createTools({ cwd: "/", permissionMode: "allow" });
const symbol = "WebAssembly.Global.value";
const group = "ReadFile symbol, lib.dom.d.ts";
let runs = 0;

/** A text of the file not outlined before: its last line changed. */
async function changeFile(): Promise<void> {
  await Deno.writeTextFile(path, `${source}// run ${runs++}\n`);
}

/** Lets the threads of the pool stopped last exit before the next run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 100));
}

Deno.bench({
  group,
  name: "plain ReadFile of the whole file",
  baseline: true,
  async fn() {
    await tools.ReadFile.execute({ path, force: true });
  },
});

Deno.bench({
  group,
  name: "ReadFile symbol, cold (fresh pool)",
  async fn(b) {
    await stopOutlineWorkers();
    await changeFile();
    await settle();
    b.start();
    await tools.ReadFile.execute({ path, symbol });
    b.end();
  },
});

Deno.bench({
  group,
  name: "ReadFile symbol, warm (running pool, new text)",
  async fn(b) {
    await changeFile();
    b.start();
    await tools.ReadFile.execute({ path, symbol });
    b.end();
  },
});

Deno.bench({
  group,
  name: "ReadFile symbol, again (same text)",
  async fn() {
    await tools.ReadFile.execute({ path, symbol });
  },
});

Deno.bench({
  group,
  name: "the outline alone, warm (running pool, new text)",
  async fn(b) {
    const text = `${source}// run ${runs++}\n`;
    b.start();
    await outlineText(path, text);
    b.end();
  },
});
