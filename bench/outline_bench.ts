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
// remove is the fixed cost of a fresh pool: Deno's node:worker_threads
// constructor blocks the main thread 25-45 ms per worker, so the second
// worker starts 40-60 ms after the first;
// runtime and grammar instantiation take 10-20 ms per worker; a fresh
// isolate's first parse and extraction run 10-30 ms slower than later ones,
// and V8 compiles its hot code again on background threads (0.1-0.15 s of CPU
// per fresh worker on the folder). On 2 cores that compiling competes with
// the other worker, which is why a fresh pool of two is only ~1.55x one fresh
// worker on the folder while a running pool is ~1.8-2x a running worker.
//
// Cold runs are timed as a process's first outline: from the pool's creation
// to the outline's end, after the previous pool's threads have had 100 ms to
// exit (timed back to back with the shutdown, as before 2026-11-30, the
// teardown overlapped the next outline and added 10-30 ms).
//
// Measured on the shared 2-core machine in two full runs on 2026-11-30, the
// seventh session of the day: the last one, on the session's final code
// (load average 0.5 at its start), and in brackets the first, before the
// session's C, C++, Python and TypeScript extractor fixes. Against the bare
// parse: cold with the default pool, cold with one worker, warm:
//   generated TypeScript 2 MB  1.48x (1.17)  1.74x (1.68)  0.74x (0.74)
//   generated Python 2 MB      1.00x (0.93)  1.48x (1.49)  0.62x (0.64)
//   generated C 2 MB           1.38x (1.39)  1.89x (1.92)  0.86x (0.84)
//   lib.dom.d.ts               1.70x (1.69)  2.15x (2.04)  0.87x (0.84)
//   typescript.js              1.12x (1.19)  1.13x (1.14)  1.17x (1.17)
//   sqlite3.c                  1.21x (1.25)  1.17x (1.26)  1.24x (1.29)
//   cached: 3,100x faster than cold for lib.dom.d.ts (1,283x), 5,000-57,000x
//   for the others
//   folder, pool / one worker: fresh 1.43x (1.64x), running 1.88x (1.80x)
//   (both workers read files with a blocking read: a single worker
//   outlines the folder in about 1.3 s, so the fixed cost of the second
//   isolate weighs more in the fresh pool's ratio)
//   incremental re-outline of an edited 500 KB file: 2.77x faster than the
//   bare parse (2.56x)
// The TypeScript and folder groups run again a minute after the last run:
// TypeScript cold 1.11x (one worker 1.67x), the folder fresh 1.50x, running
// 1.89x. The TypeScript text pass on the generated file and lib.dom.d.ts
// takes 4.6 and 5.4 ms (3.4 and 3.9 ms before the session's repairs).
// The sixth session's groups re-run four minutes later read the generated C
// file cold at 1.32x, lib.dom.d.ts at 1.59x and the folder at 1.48x fresh,
// 1.87x running. The C text pass costs about 13 ms per 1 MB piece (prepare
// 11 ms, the lift over macro lines 2 ms, cold); with the seventh session's
// macro rules, sqlite3.c's C++-style macro pass takes about 135 ms where it
// took 109 ms (best of 10, a busy machine). In a `deno run` script the
// same day, four fresh pools each against a fresh single worker outlined the
// folder 1.43-1.67x faster; profiled with --cpu-prof (which slows it), the
// main thread spent about 170 ms per fresh pool, 55 ms of it in Deno's
// worker constructor and 44 ms in garbage collection.
// This machine drifts by 20% or more between runs (two full runs the same
// hour, during a noisy spell, read lib.dom.d.ts cold at 1.93x and 2.14x, and
// its cached re-outline 3x slower). lib.dom.d.ts cold took 1.52-1.55x when
// its group ran alone. Four runs of 15 fresh-pool outlines interleaved with
// the bare parse, head start against even pieces: 1.47x/1.59x, 1.27x/1.38x,
// 1.42x/1.56x, 1.61x/1.67x.
//
// Why outside is faster: under `deno bench` (and `deno test`) Deno's
// node:worker_threads constructor takes 36-41 ms, against 22-29 ms under
// `deno run` (an empty worker, measured 2026-11-30; a web Worker takes 9-12
// ms under both). The scripts and the CLI that outline files run under
// `deno run`. The same hour, lib.dom.d.ts cold was 1.60x here and 1.34-1.46x
// (median of 10 each, against the same bare parse) in a `deno run` script.
//
// Run: deno bench -A bench/outline_bench.ts (the first run fetches sqlite3.c
// and TypeScript's lib files with `npm pack` into .bench-data/).
import type { Parser } from "web-tree-sitter";
import { createParser, type GrammarId } from "../grammars/grammars.ts";
import { Outliner } from "../outline/_outliner.ts";
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
