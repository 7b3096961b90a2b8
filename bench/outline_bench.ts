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
// Figures, and what a fresh pool spends its time on: bench/README.md.
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
} from "./_bench_data.ts";
import { packageFile } from "../tests/support/npm_package.ts";
import { CORPORA, corpusFiles } from "./_corpora.ts";

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

// Expo's iOS sources (182 Swift files, 0.5 MB): a Swift outline parses a
// file without its code bodies (swift/_code_bodies.ts). Against the bare
// parse of the whole files; bench/swift_native.ts sets the same outline
// against the native parser.
const swiftFiles = await corpusFiles(
  CORPORA.find((corpus) => corpus.language === "swift")!,
);
const swiftTexts = await Promise.all(
  swiftFiles.map((path) => Deno.readTextFile(path)),
);
const swiftParser = await createParser("swift");
const swiftPool = new Outliner();

Deno.bench({
  group: "Expo's Swift sources",
  name: "Swift 182 files: bare main-thread parse",
  baseline: true,
  n: 10,
  warmup: 2,
  fn() {
    for (const text of swiftTexts) swiftParser.parse(text)?.delete();
  },
});

Deno.bench({
  group: "Expo's Swift sources",
  name: "Swift 182 files: warm outline (running pool, not cached)",
  n: 10,
  warmup: 2,
  async fn() {
    swiftPool.clearCache();
    await Promise.all(swiftFiles.map((path) => swiftPool.outline(path)));
  },
});
