// Outline speed on large files and on a folder of 500 files.
//
// Per file (one group each): the baseline is a bare web-tree-sitter parse of
// the same text on the main thread (parser ready, text in memory, warmed by
// the warmup run); "cold" is a whole outline from a fresh pool, as a first
// outline gets it (worker start, runtime and grammar load, read, parse,
// extraction, transfer), with the default pool and with one worker; "warm"
// outlines it again with the pool running and the cache cleared (a pool
// replaces a worker after a file over 4 MiB, so the two largest files get a
// fresh worker each time); "cached" re-outlines an unchanged file. The folder
// is outlined by a fresh pool against a fresh single worker, and again by a
// running pool against a running worker. Targets: cold within 1.5x of the
// bare parse, cached at least 50x faster than cold, and the pool at least
// 1.7x one worker on the folder (2 cores).
//
// Files of 1 MiB or more are parsed in pieces, one per worker, side by side
// (outline/_pieces.ts); a file that cannot be cut between top-level blocks
// (typescript.js is one function, the middle of sqlite3.c is inside some
// `#if`) is parsed whole. A fresh pool gives the piece of its second worker
// 8,000 lines less, as that worker starts later. What the pieces cannot
// remove is the fixed cost of a fresh pool: each web Worker's constructor
// blocks the main thread ~10 ms and the worker boots in another 15-20 ms, so
// the second worker parses ~20 ms after the first; runtime and grammar
// instantiation take 5-10 ms per worker; a fresh isolate's first parse and
// extraction run 10-30 ms slower than later ones, and V8 compiles its hot
// code again on background threads. On 2 cores that compiling competes with
// the other worker, and two parses side by side each run 1.2-1.3x slower than
// one alone: a fresh pool of two is ~1.6x one fresh worker on the folder
// while a running pool is ~1.8x a running worker.
//
// Cold runs are timed as a process's first outline: from the pool's creation
// to the outline's end, after the previous pool's threads have had 100 ms to
// exit (timed back to back with the shutdown, as before 2026-11-30, the
// teardown overlapped the next outline and added 10-30 ms).
//
// Measured on the shared 2-core machine on 2026-11-30, the ninth session of
// the day, on its final code, in a full run during a quiet spell (and in
// brackets the eighth session's last full run). Against the bare parse: cold
// with the default pool, cold with one worker, warm:
//   generated TypeScript 2 MB  1.16x (1.14)  1.53x (1.70)  0.71x (0.76)
//   generated Python 2 MB      0.87x (1.01)  1.43x (1.38)  0.65x (0.62)
//   generated C 2 MB           1.18x (1.33)  1.71x (1.72)  0.77x (0.77)
//   lib.dom.d.ts               1.34x (1.58)  1.76x (1.94)  0.85x (0.85)
//   typescript.js              1.12x (1.12)  1.13x (1.09)  1.13x (1.12)
//   sqlite3.c                  1.22x (1.34)  1.20x (1.32)  1.26x (1.39)
//   cached: 2,400-49,000x faster than cold
//   folder, pool / one worker: fresh 1.59x (1.41x), running 1.77x (1.76x)
//   incremental re-outline of an edited 500 KB file: 3.35x faster than the
//   bare parse (2.11x)
// The first full run after the two startup changes read lib.dom.d.ts cold at
// 1.49x, the folder 1.62x fresh and 1.81x running.
// The session's changes: the pool's workers are web Workers, unref'd while
// idle, instead of node:worker_threads, whose constructor blocked the main
// thread 36-41 ms per worker under `deno bench` (tools/_thread.ts); and
// web-tree-sitter's glue no longer takes Deno for Node.js, which cost a
// fresh worker 15-20 ms setting up `process` and loading Node's `fs`
// (grammars/grammars.ts). Interleaved under `deno test` (16 rounds each,
// against the same bare parse), a cold lib.dom.d.ts outline read 1.27x,
// 1.33x and 1.30x where the code before the second change read 1.50x, 1.50x
// and 1.52x, and that code 1.45x, 1.44x and 1.48x where the session's
// starting code read 1.56x, 1.56x and 1.67x. The lib.dom.d.ts group run
// alone minutes after that first full run read 1.38x and 1.29x.
// This machine drifts by 20% or more between runs, more so when both cores
// work: two full runs of the same outline code during a noisy hour read
// lib.dom.d.ts cold at 1.90x (its bare parse ran before the spell, 155 ms, its
// cold outlines in it) and 1.42x (a bare parse of 200 ms), the running folder
// pool at 1.74x and 1.42x, the generated C file at 1.48x and 1.65x.
//
// Run: deno bench -A bench/outline_bench.ts (the first run fetches sqlite3.c
// and TypeScript's lib files with `npm pack` into .bench-data/).
import type { Parser } from "web-tree-sitter";
import { createParser, type GrammarId } from "../grammars/grammars.ts";
import { Outliner } from "../outline/outliner.ts";
import {
  generatedFile,
  makeC,
  makePython,
  makeTypeScript,
  packageFile,
} from "./_bench_data.ts";

const MB = 1024 * 1024;

interface Input {
  label: string;
  path: string;
  grammar: GrammarId;
  /** Iterations of the slow benches: large files take seconds each. */
  n: number;
}

// A folder of 500 TypeScript files (~8 KB each), all outlined at once.
const files: string[] = [];
for (let i = 0; i < 500; i++) {
  files.push(
    await generatedFile(
      `folder500/f${i}.ts`,
      () => makeTypeScript(8 * 1024, i),
    ),
  );
}

// As coldOutline() below: the pool's shutdown is not timed.
async function outlineFolder(
  b: Deno.BenchContext,
  workers: number,
): Promise<void> {
  await settle();
  b.start();
  const outliner = new Outliner({ workers });
  await Promise.all(files.map((file) => outliner.outline(file)));
  b.end();
  await outliner.terminate();
}

Deno.bench({
  group: "folder of 500 TypeScript files",
  name: "500 files: one worker",
  baseline: true,
  n: 5,
  warmup: 1,
  async fn(b) {
    await outlineFolder(b, 1);
  },
});

Deno.bench({
  group: "folder of 500 TypeScript files",
  name: `500 files: pool (${navigator.hardwareConcurrency} workers)`,
  n: 5,
  warmup: 1,
  async fn(b) {
    await outlineFolder(b, navigator.hardwareConcurrency);
  },
});

// The same folder with the workers already running (started by the warmup
// run), the cache cleared each time: the pool's scaling on its own, without
// the cost of starting workers that the group above includes.
const running = { one: new Outliner({ workers: 1 }), pool: new Outliner() };

async function outlineFolderAgain(outliner: Outliner): Promise<void> {
  outliner.clearCache();
  await Promise.all(files.map((file) => outliner.outline(file)));
}

Deno.bench({
  group: "folder of 500 TypeScript files, workers running",
  name: "500 files again: one running worker",
  baseline: true,
  n: 5,
  warmup: 1,
  async fn() {
    await outlineFolderAgain(running.one);
  },
});

Deno.bench({
  group: "folder of 500 TypeScript files, workers running",
  name: "500 files again: running pool",
  n: 5,
  warmup: 1,
  async fn() {
    await outlineFolderAgain(running.pool);
  },
});

const inputs: Input[] = [
  {
    label: "generated TypeScript 2 MB",
    path: await generatedFile("large.ts", () => makeTypeScript(2 * MB)),
    grammar: "typescript",
    n: 10,
  },
  {
    label: "generated Python 2 MB",
    path: await generatedFile("large.py", () => makePython(2 * MB)),
    grammar: "python",
    n: 10,
  },
  {
    label: "generated C 2 MB",
    path: await generatedFile("large.c", () => makeC(2 * MB)),
    grammar: "c",
    n: 10,
  },
  {
    label: "lib.dom.d.ts (1.9 MB)",
    path: await packageFile("typescript@5.9.3", "lib/lib.dom.d.ts"),
    grammar: "typescript",
    n: 10,
  },
  {
    label: "typescript.js (9.1 MB)",
    path: await packageFile("typescript@5.9.3", "lib/typescript.js"),
    grammar: "javascript",
    n: 2,
  },
  {
    label: "sqlite3.c (9.5 MB)",
    path: await packageFile("better-sqlite3@12.4.1", "deps/sqlite3/sqlite3.c"),
    grammar: "c",
    n: 2,
  },
];

/**
 * Times one outline by a fresh pool, as a process's first outline is: the
 * pool's shutdown is not timed, and the threads of the last iteration's pool
 * get time to exit first (back to back, their teardown overlapped the next
 * outline and added 10-30 ms to it).
 */
async function coldOutline(
  b: Deno.BenchContext,
  path: string,
  workers?: number,
): Promise<void> {
  await settle();
  b.start();
  const outliner = new Outliner({ workers });
  await outliner.outline(path);
  b.end();
  await outliner.terminate();
}

/** Lets the threads of the pool terminated last exit before the next run. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 100));
}

// One running outliner answers the "warm" and "cached" benches.
const warm = new Outliner();

for (const input of inputs) {
  // Loaded by the warmup run of the baseline, so earlier groups (and the
  // folder benches, registered first) run without these large texts in memory.
  let loaded: { text: string; parser: Parser } | undefined;
  const group = input.label;
  Deno.bench({
    group,
    name: `${group}: bare main-thread parse`,
    baseline: true,
    n: input.n,
    warmup: 1,
    async fn() {
      loaded ??= {
        text: await Deno.readTextFile(input.path),
        parser: await createParser(input.grammar),
      };
      loaded.parser.parse(loaded.text)?.delete();
    },
  });
  Deno.bench({
    group,
    name: `${group}: cold outline (fresh pool)`,
    n: input.n,
    warmup: 1,
    // An async function: Deno times a plain one that returns a promise as
    // synchronous.
    async fn(b) {
      await coldOutline(b, input.path);
    },
  });
  Deno.bench({
    group,
    name: `${group}: cold outline (fresh pool of one worker)`,
    n: input.n,
    warmup: 1,
    async fn(b) {
      await coldOutline(b, input.path, 1);
    },
  });
  Deno.bench({
    group,
    name: `${group}: warm outline (running pool, not cached)`,
    n: input.n,
    warmup: 1,
    async fn() {
      warm.clearCache();
      await warm.outline(input.path);
    },
  });
  Deno.bench({
    group,
    name: `${group}: cached re-outline`,
    n: 200,
    warmup: 1,
    async fn() {
      await warm.outline(input.path);
    },
  });
}

// An EditFile-like change to a 500 KB TypeScript file: one function renamed,
// alternately, so every run sees a changed file (size and mtime) and the
// worker re-parses from its kept tree.
const editedText = makeTypeScript(500 * 1024, 7);
const editedPath = await generatedFile("edited.ts", () => editedText);
const versions = [
  editedText,
  editedText.replace("make7_40(", "makeRenamed7_40("),
];
const editing = new Outliner({ workers: 1 });
const editParser = await createParser("typescript");
let edits = 0;

Deno.bench({
  group: "edited 500 KB TypeScript file",
  name: "edited 500 KB: bare main-thread parse",
  baseline: true,
  n: 20,
  warmup: 2,
  fn() {
    editParser.parse(versions[edits++ % 2])?.delete();
  },
});

Deno.bench({
  group: "edited 500 KB TypeScript file",
  name: "edited 500 KB: re-outline after the edit (incremental)",
  n: 20,
  warmup: 2,
  async fn() {
    await Deno.writeTextFile(editedPath, versions[edits++ % 2]);
    await editing.outline(editedPath);
  },
});
