// startThread()'s fallback to node:worker_threads, where Deno's ref switch for
// web Workers is not found: the regex search and the image downscale still
// work on it, and the script still ends by itself.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { MOD } from "../tests/support/fello_cli.ts";
import { runDeno } from "../tests/support/run_deno.ts";
import { widePng } from "../tests/support/wide_png.ts";
import { withWorkspace } from "../tests/support/workspace.ts";

const PACKAGE = dirname(MOD);

/** Prints, as the script's event loop runs dry, how long it stayed alive after its work. */
const REPORT_IDLE = `
const workDone = performance.now();
globalThis.addEventListener("unload", () => {
  console.log(JSON.stringify({ idleMs: performance.now() - workDone }));
});
`;

Deno.test("startThread() falling back to node:worker_threads runs regex searches, a regex timeout and a downscale, and the script exits", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "needle 1\nfoo\nneedle 2\n");
    // Never ends: the stuck match spins until the process exits.
    await Deno.writeTextFile(join(dir, "stuck.txt"), `${"a".repeat(40)}\n`);
    await Deno.writeFile(join(dir, "wide.png"), await widePng());
    const script = join(dir, "child.ts");
    const pkg = (path: string) => JSON.stringify(join(PACKAGE, path));
    await Deno.writeTextFile(
      script,
      `// A second symbol-keyed function hides Deno's ref switch: node threads.
(Worker.prototype as unknown as Record<symbol, unknown>)[Symbol()] = () => {};
const { DEFAULT_THREAD_KIND } = await import(${pkg("internal/thread.ts")});
const { createTools } = await import(${pkg("mod.ts")});
const { createSearch } = await import(${pkg("tools/search/search.ts")});
const { contextOf } = await import(${pkg("tools/context_of.ts")});
const { downscaleInWorker } = await import(${pkg("agent/_downscale.ts")});
const dir = ${JSON.stringify(dir)};
const tools = createTools({ cwd: dir, permissionMode: "readOnly" });
const search = createSearch(contextOf(tools), { regexBudgetMs: 300 });
const found = [];
const regex = (pattern, path) => search.execute({ pattern, regex: true, path });
found.push((await regex("ne+dle \\\\d", "a.txt")).matches.length);
found.push(await regex("(a|a)*b", "stuck.txt").then(() => "finished", (e) => e.message.slice(0, 45)));
found.push((await regex("^foo$", "a.txt")).matches.length);
const image = await downscaleInWorker(await Deno.readFile(dir + "/wide.png"), { maxSide: 100, maxBytes: 100000 });
console.log(JSON.stringify({ kind: DEFAULT_THREAD_KIND, found, image: [image.mediaType, image.width, image.height] }));
${REPORT_IDLE}`,
    );
    // No --allow-env: a node thread gets an empty environment.
    // runDeno fails the test unless the script exits 0.
    const { stdout } = await runDeno(
      [`--allow-read=${dir},${PACKAGE}`],
      script,
    );
    const [result, idle] = stdout.trim().split("\n").map((line) =>
      JSON.parse(line)
    );
    assert.deepEqual(result, {
      kind: "node",
      found: [2, 'Search for "(a|a)*b" stopped: the regular exp', 1],
      image: ["image/jpeg", 100, 2],
    });
    // Generous: a second would mean a thread or a timer held the process.
    assert.ok(idle.idleMs < 1_000, `alive ${idle.idleMs} ms after its work`);
  });
});
