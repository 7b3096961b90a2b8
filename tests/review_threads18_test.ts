// Review 18: the outline pool on web Workers unref'd while idle (166dd82:
// outline/_thread.ts, outline/_thread_port.ts, outline/_pool.ts,
// outline/_worker.ts) and web-tree-sitter's glue initialized with the global
// `process` hidden (22960f1: grammars/grammars.ts). Reviewed by reading the
// diffs and Deno 2.9.6's Worker (its private ref switch unrefs both the
// control and the message poll), then black box with real subprocesses, real
// files and both kinds of thread: scripts, `fello outline` and `fello mcp`
// end on their own; crashed, stalled (Atomics.wait and a real FIFO read),
// cancelled and recycled workers; 600 files and 60 cancelled calls at once;
// restricted permissions (package and workspace only, a TTY answering the
// prompts, FELLO_GRAMMARS_DIR); the package served over HTTP (a web Worker
// from the data: URL workerUrl() makes); RSS over 30 recycles (no worse than
// node:worker_threads). Two faults were found, each written as a test of
// the correct behaviour: the first is fixed and its test runs; the second is
// left open by decision and its test stays ignored. The other tests check
// what this review verified and no other test covers.
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { fello, MOD } from "./support/fello_cli.ts";
import { runDeno } from "./support/run_deno.ts";
import { withWorkspace } from "./support/workspace.ts";
import { startThread, type ThreadKind } from "../internal/thread.ts";

const PACKAGE = dirname(MOD);
const POOL = new URL("../outline/_pool.ts", import.meta.url).href;
const GRAMMARS = new URL("../grammars/grammars.ts", import.meta.url).href;
const THREAD_PORT = new URL("../internal/thread_port.ts", import.meta.url).href;
const KINDS: ThreadKind[] = ["web", "node"];

// Every failure path of the pool, then a good job, and no terminate(): the
// script must end by itself once its work is done.
const POOL_SCRIPT = `
import { CancelledError, OutlinePool } from ${JSON.stringify(POOL)};
const [threads, dir] = Deno.args;
const pool = new OutlinePool({ size: 1, threads, stallMs: 200 });
const job = { path: dir + "/d.md", extension: ".md", budgetMs: 30000, recycleBytes: 1 << 30 };
const outcome = (promise, expected, pattern) =>
  promise.then((reply) => reply.type, (error) =>
    pattern.test(error.message) || error instanceof CancelledError ? expected : error.message);
const out = [];
out.push(await outcome(pool.run({ ...job, crash: true }), "crashed", /the parser worker crashed/));
out.push(await outcome(pool.run({ ...job, budgetMs: 50, stall: true }), "stalled", /did not answer in 250 ms/));
const controller = new AbortController();
const running = pool.run({ ...job, stall: true, signal: controller.signal });
setTimeout(() => controller.abort(), 100);
out.push(await outcome(running, "cancelled", /^$/));
const recycled = await pool.run({ ...job, recycleBytes: 1 });
out.push(recycled.type === "result" && recycled.recycle ? "recycled" : JSON.stringify(recycled));
out.push((await pool.run(job)).type);
console.log(JSON.stringify({ out, started: pool.workersStarted }));
`;

Deno.test("a pool of either kind lets the script end by itself after a crash, a stall, a cancelled and a recycled job", async () => {
  await withWorkspace(async (ws) => {
    await Deno.writeTextFile(join(ws, "d.md"), "# Title\n");
    const script = join(ws, "pool.js");
    await Deno.writeTextFile(script, POOL_SCRIPT);
    // runDeno fails the test if the process does not exit 0 (or in 60 s).
    const runs = await Promise.all(
      KINDS.map((kind) => runDeno(["-A"], script, [kind, ws])),
    );
    for (const [i, { stdout }] of runs.entries()) {
      assert.deepEqual(JSON.parse(stdout), {
        out: ["crashed", "stalled", "cancelled", "recycled", "result"],
        started: 5,
      }, KINDS[i]);
    }
  });
});

// Code that runs while web-tree-sitter initializes (timers, another module's
// top-level code) must always see the global process. The runtime's
// instantiation is held back 30 ms so that such code does run meanwhile; the
// glue's synchronous start, where it is called, must not see process.
const INIT_SCRIPT = `
const seen = new Set();
const look = () => seen.add(typeof globalThis.process);
const instantiate = WebAssembly.instantiate;
let glue, other;
WebAssembly.instantiate = (...args) => {
  WebAssembly.instantiate = instantiate;
  glue = typeof globalThis.process;
  other = import("data:text/javascript,globalThis.__other = typeof process;");
  return new Promise((resolve) => setTimeout(resolve, 30)).then(() => instantiate(...args));
};
let ticks = 0;
let ticking = true;
const tick = () => { ticks++; look(); if (ticking) setTimeout(tick, 1); };
tick();
const { createParser } = await import(${JSON.stringify(GRAMMARS)});
const parser = await createParser("go");
ticking = false;
await other;
const tree = parser.parse("package main\\n");
console.log(JSON.stringify({ glue, seen: [...seen], other: globalThis.__other, ticked: ticks > 3, root: tree.rootNode.type, node: typeof process.versions.node }));
tree.delete();
parser.delete();
`;

Deno.test("initializing web-tree-sitter never hides process from code that runs meanwhile", async () => {
  await withWorkspace(async (ws) => {
    const script = join(ws, "init.js");
    await Deno.writeTextFile(script, INIT_SCRIPT);
    const { stdout } = await runDeno(["-A"], script);
    assert.deepEqual(JSON.parse(stdout), {
      glue: "undefined",
      seen: ["object"],
      other: "object",
      ticked: true,
      root: "source_file",
      node: "string",
    });
  });
});

// Where Deno's npm cache holds a package file.
async function npmCacheFile(pkg: string, file: string): Promise<string> {
  const info = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json"],
    stdout: "piped",
  }).output();
  const { npmCache } = JSON.parse(new TextDecoder().decode(info.stdout));
  return `${npmCache}/registry.npmjs.org/${pkg}/${file}`;
}

Deno.test("outline runs its web workers with read access to the package and the workspace only, and from FELLO_GRAMMARS_DIR", async () => {
  await withWorkspace(async (ws) => {
    const src = join(ws, "src");
    const grammars = join(ws, "grammars");
    await Deno.mkdir(src);
    await Deno.mkdir(grammars);
    await Deno.writeTextFile(
      join(src, "m.go"),
      "package main\n\nfunc F() {}\n",
    );
    await Deno.writeTextFile(join(src, "i.ts"), "export interface I {}\n");
    await Deno.copyFile(
      await npmCacheFile("tree-sitter-go/0.25.0", "tree-sitter-go.wasm"),
      join(grammars, "tree-sitter-go.wasm"),
    );
    const [plain, fromDir] = await Promise.all([
      // No --allow-env: the npm grammars, posted to the workers.
      fello(["outline", "."], {
        cwd: src,
        flags: [`--allow-read=${PACKAGE},${src}`],
      }),
      // The worker loads Go from the folder (node:path imported lazily there).
      fello(["outline", "m.go"], {
        cwd: src,
        env: { FELLO_GRAMMARS_DIR: grammars },
        flags: [`--allow-read=${PACKAGE},${ws}`, "--allow-env"],
      }),
    ]);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /^File: i\.ts\n[^]*\nFile: m\.go\n[^]*func F/);
    assert.equal(fromDir.code, 0, fromDir.stderr);
    assert.match(fromDir.stdout, /^File: m\.go\nLanguage: Go\n[^]*func F/);
    assert.equal(fromDir.stderr, "");
  });
});

// Fixed fault: `fello outline` under --allow-read=<workspace>,<pkg>/outline/,<pkg>/grammars/ (exactly the folders its own errors ask for) starts a worker per file that dies loading tools/_read_head.ts: stderr gets a raw "error: Uncaught (in worker "")" dump per file (with ANSI color codes inside the error message when color is on) and "the parser worker crashed (...); try again", instead of asking for tools/ up front (or outlining).
Deno.test({
  name:
    "outline under read access to the folders it asks for asks for the rest up front instead of crashing workers",
  async fn() {
    await withWorkspace(async (ws) => {
      await Deno.writeTextFile(join(ws, "a.ts"), "export function a() {}\n");
      const folder = (name: string) => `${join(PACKAGE, name)}/`;
      const result = await fello(["outline", "a.ts"], {
        cwd: ws,
        flags: [
          `--allow-read=${ws},${folder("outline")},${folder("grammars")}`,
        ],
      });
      if (result.code === 0) {
        assert.match(result.stdout, /^File: a\.ts\n/);
      } else {
        const tools = folder("internal");
        assert.equal(
          result.stderr,
          `fello outline: Deno denies reading "${tools}": run deno again with --allow-read=${tools} (or a parent folder)\n`,
        );
      }
    });
  },
});

// A worker module that ends itself (Deno.exit) on its first message.
function exitingWorker(ws: string): Promise<URL> {
  const path = join(ws, "exiting_worker.js");
  return Deno.writeTextFile(
    path,
    `// @ts-nocheck: a worker written by the test
import { threadPort } from ${JSON.stringify(THREAD_PORT)};
const port = await threadPort();
port.onMessage(() => Deno.exit(3));
`,
  ).then(() => new URL(`file://${path}`));
}

// Resolves to the error a thread of `kind` reports once its worker ends
// itself, or to "unreported" after 5 s.
async function reportedEnd(kind: ThreadKind): Promise<string> {
  let result = "unreported";
  await withWorkspace(async (ws) => {
    const url = await exitingWorker(ws);
    const reported = Promise.withResolvers<string>();
    const thread = startThread(url, {
      message: () => {},
      error: (error) => reported.resolve(error.message),
    }, kind);
    const timer = setTimeout(() => reported.resolve("unreported"), 5000);
    try {
      thread.ref();
      thread.post({}, []);
      result = await reported.promise;
    } finally {
      clearTimeout(timer);
      await thread.stop();
    }
  });
  return result;
}

Deno.test("a node thread reports a worker that ended itself", async () => {
  assert.match(await reportedEnd("node"), /exit code 3/);
});

// Left open by decision: Deno dispatches no event when a web Worker closes
// itself, and the outline worker never ends itself (ThreadEvents.error says
// so; the pool's watchdog still ends a job left unanswered).
// FAULT: a web thread whose worker ends itself (Deno.exit or close() in the worker) reports nothing, though ThreadEvents.error promises "or the worker stopped by itself" and the node kind reports "exit code N": a pool job on it would wait for the watchdog (budget + 10 s) and fail as "is the file a pipe?", and later posts are silently dropped.
Deno.test({
  name: "a web thread reports a worker that ended itself",
  ignore: true,
  async fn() {
    assert.notEqual(await reportedEnd("web"), "unreported");
  },
});
