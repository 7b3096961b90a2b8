// Outliner: cancelled and shared calls, parse budgets, the result cache, the
// grammar folder, incremental re-parses and failures of the parse itself.
import assert from "node:assert/strict";
import { join } from "node:path";
import { ToolError } from "../internal/tool_error.ts";
import { makeFifo } from "../tests/support/fifo.ts";
import { npmCacheFile } from "../tests/support/npm_cache.ts";
import { modulesOutside } from "../tests/support/worker_graph.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import { Outliner, type OutlinerOptions, WORKER_FOLDERS } from "./outliner.ts";

const FIXTURES = new URL("../tests/fixtures/outline/", import.meta.url)
  .pathname;

// About 1 MB of TypeScript: a parse of a few hundred milliseconds.
function bigTypeScript(): string {
  return Array.from(
    { length: 10_000 },
    (_, i) =>
      `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`,
  ).join("");
}

// Resolves once the parse's job is posted to the pool's one worker and
// `calls` calls wait for it.
async function parsing(outliner: Outliner, calls = 1): Promise<void> {
  const { pool } = outliner;
  const posted = () =>
    outliner.waiting === calls && outliner.parses === 1 &&
    pool.workersStarted === 1 && pool.idle === 0;
  for (let i = 0; i < 2000 && !posted(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.ok(posted(), "the parse was posted with every call waiting");
}

// About 400 KB of documented TypeScript: enough to overrun a 1 ms budget.
function documentedTypeScript(): string {
  const parts: string[] = [];
  for (let i = 0; i < 4000; i++) {
    parts.push(
      `/** Doc ${i}. */\nexport function f${i}(a: number, b: string): number {\n  return a + b.length * ${i};\n}\n`,
    );
  }
  return parts.join("\n");
}

// Runs `fn` with a fresh workspace and an Outliner (one worker unless
// `options` say otherwise), both gone after it.
async function withOutliner(
  fn: (outliner: Outliner, dir: string) => Promise<void>,
  options: OutlinerOptions = { workers: 1 },
): Promise<void> {
  await withWorkspace(async (dir) => {
    const outliner = new Outliner(options);
    try {
      await fn(outliner, dir);
    } finally {
      await outliner.terminate();
    }
  });
}

async function withBigFile(
  fn: (path: string, outliner: Outliner) => Promise<void>,
): Promise<void> {
  const dir = await Deno.makeTempDir();
  const outliner = new Outliner({ workers: 1, splitBytes: Infinity });
  try {
    const path = join(dir, "big.ts");
    await Deno.writeTextFile(path, bigTypeScript());
    await fn(path, outliner);
  } finally {
    await outliner.terminate();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("Outliner.outline() rejects a cancelled call and replaces the worker parsing for it alone", async () => {
  await withBigFile(async (path, outliner) => {
    await assert.rejects(
      outliner.outline(path, { signal: AbortSignal.abort() }),
      (error) =>
        error instanceof ToolError && /was cancelled/.test(error.message),
    );
    assert.equal(outliner.parses, 0, "an aborted call starts no parse");
    const controller = new AbortController();
    const call = outliner.outline(path, { signal: controller.signal });
    await parsing(outliner);
    controller.abort();
    await assert.rejects(call, /Outlining ".*big\.ts" was cancelled/);
    // The next parse needs a new worker: the old one was stopped mid-parse.
    const { symbols } = await outliner.outline(path);
    assert.equal(symbols.length, 10_000);
    assert.equal(outliner.pool.workersStarted, 2);
  });
});

Deno.test("Outliner.outline() keeps parsing for a call that still waits when another call of the file is cancelled", async () => {
  await withBigFile(async (path, outliner) => {
    const controller = new AbortController();
    const cancelled = outliner.outline(path, { signal: controller.signal });
    const waiting = outliner.outline(path, {
      signal: new AbortController().signal,
    });
    await parsing(outliner, 2);
    controller.abort();
    await assert.rejects(cancelled, /was cancelled/);
    assert.equal((await waiting).symbols.length, 10_000);
    assert.equal(outliner.parses, 1, "the two calls shared one parse");
    assert.equal(outliner.pool.workersStarted, 1, "its worker was kept");
  });
});

Deno.test("WORKER_FOLDERS hold every local module the outline worker loads", async () => {
  // The read check up front covers these folders: a module elsewhere would
  // crash each worker under a grant that passes the check.
  const worker = new URL("./_worker.ts", import.meta.url);
  assert.deepEqual(await modulesOutside(worker, WORKER_FOLDERS), []);
});

Deno.test("Outliner cancels a parse over its budget with a clear error and keeps serving", async () => {
  await withOutliner(async (outliner, dir) => {
    await Deno.writeTextFile(`${dir}/big.ts`, documentedTypeScript());
    await assert.rejects(
      outliner.outline("big.ts", { cwd: dir, parseBudgetMs: 1 }),
      {
        name: "ToolError",
        message:
          'Cannot outline "big.ts": parsing took longer than the 1 ms budget; read it by line ranges instead, or raise parseBudgetMs',
      },
    );
    const small = await outliner.outline("sample.ts", { cwd: FIXTURES });
    assert.equal(small.symbols.length, 13);
    const big = await outliner.outline("big.ts", { cwd: dir });
    assert.equal(big.symbols.length, 4000);
    assert.deepEqual(big.symbols[3999], {
      kind: "function",
      name: "f3999",
      startLine: 19997,
      endLine: 19999,
      doc: "Doc 3999.",
      children: [],
    });
  });
});

Deno.test("Outliner gives each concurrent call for one file its own parse budget", async () => {
  await withOutliner(async (outliner, ws) => {
    await Deno.writeTextFile(join(ws, "big.ts"), documentedTypeScript());
    const [hasty, patient] = await Promise.allSettled([
      outliner.outline("big.ts", { cwd: ws, parseBudgetMs: 1 }),
      outliner.outline("big.ts", { cwd: ws }),
    ]);
    assert.equal(hasty.status, "rejected");
    assert.equal(
      patient.status,
      "fulfilled",
      patient.status === "rejected" ? String(patient.reason) : "",
    );
    assert.equal(patient.value.symbols.length, 4000);
  });
});

Deno.test("Outliner answers an unchanged file from its cache and re-parses a changed one", async () => {
  await withOutliner(async (outliner, dir) => {
    const path = `${dir}/m.py`;
    await Deno.writeTextFile(path, "def a():\n    pass\n");
    const [first, twin] = await Promise.all([
      outliner.outline(path),
      outliner.outline("m.py", { cwd: dir }),
    ]);
    assert.equal(outliner.parses, 1);
    assert.equal(twin, first);
    assert.equal(await outliner.outline("m.py", { cwd: dir }), first);
    assert.equal(outliner.parses, 1);
    await Deno.writeTextFile(
      path,
      "def a():\n    pass\n\ndef b():\n    pass\n",
    );
    const second = await outliner.outline(path);
    assert.equal(outliner.parses, 2);
    assert.deepEqual(second.symbols.map((s) => s.name), ["a", "b"]);
    // Same size, new modification time: parsed again.
    await Deno.writeTextFile(
      path,
      "def a():\n    pass\n\ndef c():\n    pass\n",
    );
    await Deno.utime(path, new Date(), new Date(Date.now() + 5000));
    const third = await outliner.outline(path);
    assert.equal(outliner.parses, 3);
    assert.deepEqual(third.symbols.map((s) => s.name), ["a", "c"]);
  });
});

Deno.test("Outliner notices a same-size change within one file system clock tick", async () => {
  await withOutliner(async (outliner, dir) => {
    const path = `${dir}/tick.ts`;
    await Deno.writeTextFile(path, "export function a() {}\n");
    // A modification time a minute ahead stays "racy" however long the
    // outlines below take: a cold worker on a loaded machine can take
    // longer than the 2 s after which an entry counts as settled.
    const mtime = new Date(Date.now() + 60_000);
    await Deno.utime(path, mtime, mtime);
    const first = await outliner.outline(path);
    assert.equal(await outliner.outline(path), first);
    assert.equal(outliner.parses, 1);
    // Same size, and the clock did not tick: only the content tells.
    await Deno.writeTextFile(path, "export function b() {}\n");
    await Deno.utime(path, mtime, mtime);
    const second = await outliner.outline(path);
    assert.equal(outliner.parses, 2);
    assert.equal(second.symbols[0].name, "b");
  });
});

Deno.test("Outliner keeps its cache within cacheBytes, dropping the least recently used", async () => {
  const body = Array.from({ length: 10 }, (_, i) => `function f${i}() {}\n`);
  // Ten symbols weigh about 2.2 KB (see _weight): room for one file.
  await withOutliner(async (outliner, dir) => {
    await Deno.writeTextFile(`${dir}/a.ts`, body.join(""));
    await Deno.writeTextFile(`${dir}/b.ts`, body.join(""));
    await outliner.outline(`${dir}/a.ts`);
    await outliner.outline(`${dir}/b.ts`);
    assert.equal(outliner.parses, 2);
    await outliner.outline(`${dir}/b.ts`);
    assert.equal(outliner.parses, 2, "b.ts is cached");
    await outliner.outline(`${dir}/a.ts`);
    assert.equal(outliner.parses, 3, "a.ts was dropped for b.ts");
  }, { workers: 1, cacheBytes: 3_000 });
  // Larger than the whole budget: never kept.
  await withOutliner(async (tiny, dir) => {
    await Deno.writeTextFile(`${dir}/a.ts`, body.join(""));
    await tiny.outline(`${dir}/a.ts`);
    await tiny.outline(`${dir}/a.ts`);
    assert.equal(tiny.parses, 2);
  }, { workers: 1, cacheBytes: 100 });
});

Deno.test("Outliner counts the texts outlineText keeps against cacheBytes", async () => {
  // One function and a 1,000-character comment: about 2.3 KB kept; the
  // outline of c.ts weighs about 220 bytes.
  const text = (name: string) =>
    `// ${"x".repeat(1_000)}\nfunction ${name}() {}\n`;
  await withOutliner(async (outliner, dir) => {
    await outliner.outlineText(`${dir}/a.ts`, text("a"));
    await outliner.outlineText(`${dir}/a.ts`, text("a"));
    assert.equal(outliner.parses, 1, "a.ts's text is kept");
    await outliner.outlineText(`${dir}/b.ts`, text("b"));
    await outliner.outlineText(`${dir}/a.ts`, text("a"));
    assert.equal(outliner.parses, 3, "a.ts's text was dropped for b.ts's");
    // A cached result and a kept text share the budget, the least recently
    // used going first.
    await Deno.writeTextFile(`${dir}/c.ts`, "function c() {}\n");
    await outliner.outline(`${dir}/c.ts`);
    await outliner.outline(`${dir}/c.ts`);
    assert.equal(outliner.parses, 4, "c.ts's outline is cached");
    await outliner.outlineText(`${dir}/a.ts`, text("a"));
    assert.equal(
      outliner.parses,
      5,
      "a.ts's text was dropped for c.ts's outline",
    );
    await outliner.outline(`${dir}/c.ts`);
    assert.equal(
      outliner.parses,
      6,
      "c.ts's outline was dropped for a.ts's text",
    );
  }, { workers: 1, cacheBytes: 2_400 });
});

Deno.test("Outliner caps symbols in the worker and keeps capped and whole results apart", async () => {
  await withOutliner(async (outliner, dir) => {
    const body = Array.from({ length: 5 }, (_, i) => `function f${i}() {}\n`);
    await Deno.writeTextFile(`${dir}/a.ts`, body.join(""));
    const capped = await outliner.outline(`${dir}/a.ts`, { maxSymbols: 2 });
    assert.deepEqual(capped.symbols.map((s) => s.name), ["f0", "f1"]);
    assert.equal(capped.omitted, 3);
    // A capped result does not answer a call without the cap.
    const whole = await outliner.outline(`${dir}/a.ts`);
    assert.equal(whole.symbols.length, 5);
    assert.equal(whole.omitted, undefined);
    assert.equal(outliner.parses, 2);
    // A whole result answers any cap... as the whole (the format cuts it).
    await outliner.outline(`${dir}/a.ts`, { maxSymbols: 2 });
    assert.equal(outliner.parses, 2);
  });
});

Deno.test("Outliner replaces a worker after a file over recycleBytes", async () => {
  await withOutliner(async (outliner) => {
    await outliner.outline("sample.md", { cwd: FIXTURES }); // 300+ bytes
    await outliner.outline("sample.py", { cwd: FIXTURES });
    assert.equal(outliner.pool.workersStarted, 2);
  }, { workers: 1, recycleBytes: 100 });
  await withOutliner(async (small) => {
    await small.outline("sample.md", { cwd: FIXTURES });
    await small.outline("sample.py", { cwd: FIXTURES });
    assert.equal(small.pool.workersStarted, 1);
  });
});

Deno.test("Outliner re-parses an edited file from its previous tree, matching a fresh parse", async () => {
  await withOutliner(async (outliner, dir) => {
    const fresh = new Outliner({ workers: 1 });
    try {
      const path = `${dir}/edit.ts`;
      const original = await Deno.readTextFile(`${FIXTURES}sample.ts`);
      await Deno.writeTextFile(path, original);
      await outliner.outline(path);
      assert.equal(outliner.incrementalParses, 0);
      // An EditFile-like change: a new documented function in the middle
      // (with non-ASCII text before it) and a renamed interface.
      const edited = original
        .replace(
          "/** Greets someone. */",
          "/** Adds é. */\nexport function added(): void {}\n\n/** Greets someone. */",
        )
        .replace("SessionNotificationFelloExt", "Renamed");
      await Deno.writeTextFile(path, edited);
      const incremental = await outliner.outline(path);
      assert.equal(outliner.incrementalParses, 1);
      assert.deepEqual(incremental, await fresh.outline(path));
      assert.equal(incremental.symbols[2].name, "Renamed");
      assert.deepEqual(incremental.symbols[5], {
        kind: "function",
        name: "added",
        startLine: 28,
        endLine: 28,
        doc: "Adds é.",
        children: [],
      });
    } finally {
      await fresh.terminate();
    }
  });
});

Deno.test("Outliner's incremental re-parse after an edit that leaves a syntax error matches a fresh parse", async () => {
  await withOutliner(async (outliner, ws) => {
    const before = [
      "union kv_number {",
      "};",
      "enum kv_status {",
      "};",
      "static unsigned kv_hash(const char *key);",
      "",
      "/*",
      "** Hash a key (djb2).",
      "static unsigned kv_hash(const char *key){",
      "  unsigned h = 5381;",
      "}",
      "# if KV_THREADSAFE>1",
      "/* Take the lock. */",
      "static int kv_lock(kv_store *s){ return 1; }",
      "const char **kv_lookup(kv_store *s, const char *key){",
      "}",
      "",
    ].join("\n");
    const after = before.replace("char *key);\n\n/*\n*", "");
    const edited = join(ws, "kv.c");
    await Deno.writeTextFile(edited, before);
    await outliner.outline(edited);
    await Deno.writeTextFile(edited, after);
    const incremental = await outliner.outline(edited);
    // A text the old tree parses with errors is parsed again from
    // scratch: this outline is not counted as incremental.
    assert.equal(outliner.parses, 2);
    const fresh = join(ws, "fresh.c");
    await Deno.writeTextFile(fresh, after);
    assert.deepEqual(incremental, await outliner.outline(fresh));
  });
});

Deno.test("Outliner reports a parse that runs out of WASM memory clearly, then keeps serving", async () => {
  await withOutliner(async (outliner, ws) => {
    // 10 MB in lines of 2 KB with no blank line: parsed whole (no pieces),
    // and no line long enough to be refused before parsing.
    await Deno.writeTextFile(
      join(ws, "dense.js"),
      `${"1;".repeat(1000)}\n`.repeat(5000),
    );
    await Deno.writeTextFile(join(ws, "ok.ts"), "export function ok() {}\n");
    await assert.rejects(
      // A budget far past the default 30 s: on a loaded machine the parse
      // can take that long before it runs out of memory.
      outliner.outline("dense.js", { cwd: ws, parseBudgetMs: 600_000 }),
      (error: Error) => {
        assert.doesNotMatch(error.message, /Aborted\(\)|ASSERTIONS/);
        assert.match(error.message, /^Cannot outline "dense\.js": .*memory/);
        return true;
      },
    );
    const ok = await outliner.outline("ok.ts", { cwd: ws });
    assert.deepEqual(ok.symbols.map((s) => s.name), ["ok"]);
  });
});

Deno.test("Outliner loads grammars from grammarsDir when given", async () => {
  await withOutliner(async (outliner, dir) => {
    await assert.rejects(
      outliner.outline("sample.py", { cwd: FIXTURES, grammarsDir: dir }),
      (error: Error) => {
        assert.match(
          error.message,
          /^Cannot outline "sample\.py": Cannot load the python grammar from ".*tree-sitter-python\.wasm"/,
        );
        return true;
      },
    );
    await Deno.copyFile(
      await pythonGrammar(),
      `${dir}/tree-sitter-python.wasm`,
    );
    const result = await outliner.outline("sample.py", {
      cwd: FIXTURES,
      grammarsDir: dir,
    });
    assert.equal(result.symbols.length, 8);
  });
});

Deno.test("Outliner refuses a grammar folder holding another language's grammar", async () => {
  await withOutliner(async (outliner, dir) => {
    await Deno.copyFile(
      await pythonGrammar(),
      join(dir, "tree-sitter-typescript.wasm"),
    );
    await assert.rejects(
      outliner.outline("sample.ts", { cwd: FIXTURES, grammarsDir: dir }),
      /Cannot load the typescript grammar from ".*tree-sitter-typescript\.wasm"/,
    );
  });
});

Deno.test("Outliner answers a call with another grammarsDir from that grammar, not the cache", async () => {
  await withOutliner(async (outliner, empty) => {
    const pinned = await outliner.outline("sample.py", { cwd: FIXTURES });
    assert.ok(pinned.symbols.length > 0);
    await assert.rejects(
      outliner.outline("sample.py", { cwd: FIXTURES, grammarsDir: empty }),
      /Cannot load the python grammar from/,
    );
  });
});

// The pinned Python grammar, a real .wasm to copy into a grammar folder.
function pythonGrammar(): Promise<string> {
  return npmCacheFile(
    "tree-sitter-python",
    "0.25.0",
    "tree-sitter-python.wasm",
  );
}

// Settles `promise` within `ms`, or answers "pending".
function settledWithin<T>(
  promise: Promise<T>,
  ms: number,
): Promise<T | "pending"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<"pending">((done) => {
      timer = setTimeout(() => done("pending"), ms);
    }),
  ]);
}

Deno.test("Outliner.outline() does not hang when a regular file is replaced by a FIFO after its stat", async () => {
  await withWorkspace(async (dir) => {
    const path = join(dir, "a.ts");
    await Deno.writeTextFile(path, "function f() {}\n");
    await makeFifo(join(dir, "pipe"));
    const outliner = new Outliner({ workers: 1 });
    const outlined = outliner.outline(path);
    // #parse() counts the parse right after the stat: swap the file then.
    while (outliner.parses === 0) await new Promise((r) => setTimeout(r, 0));
    await Deno.rename(join(dir, "pipe"), path);
    // 20 s: ample for a loaded machine, well before the pool's watchdog
    // (budget and stall allowance, 40 s) would end a hung read.
    const settled = await settledWithin(outlined.catch((e) => e), 20_000);
    // Release a blocked read (EOF) so the test can end either way.
    if (settled === "pending") {
      (await Deno.open(path, { write: true })).close();
    }
    await outlined.catch(() => {});
    await outliner.terminate();
    assert.notEqual(settled, "pending", "the outline hung on the FIFO");
    assert.equal(
      (settled as Error).message,
      'Cannot outline "a.ts": it is not a regular file (a device, socket or pipe)'
        .replace("a.ts", path),
    );
  });
});

Deno.test("Outliner.outline() refuses a symlink to a FIFO, a socket and /dev/null, naming the file", async () => {
  await withWorkspace(async (dir) => {
    await makeFifo(join(dir, "pipe"));
    await Deno.symlink(join(dir, "pipe"), join(dir, "to_pipe.ts"));
    await Deno.symlink("/dev/null", join(dir, "null.py"));
    const listener = Deno.listen({
      transport: "unix",
      path: join(dir, "s.go"),
    });
    const outliner = new Outliner({ workers: 1 });
    try {
      for (const name of ["to_pipe.ts", "null.py", "s.go"]) {
        await assert.rejects(outliner.outline(name, { cwd: dir }), {
          name: "ToolError",
          message:
            `Cannot outline "${name}": it is not a regular file (a device, socket or pipe)`,
        });
      }
    } finally {
      listener.close();
      await outliner.terminate();
    }
  });
});

// Doc comments in a few languages, ending rows counted from their text.
const DOC_SOURCES: Record<string, { source: string; docs: unknown[] }> = {
  ".ts": {
    source:
      "/**\n * Doc A.\n */\nfunction a() {}\n\n/** Far. */\n\nfunction b() {}\nlet x = 1; /** Trailing. */\nfunction c() {}\n",
    // A JSDoc counts across one blank line, as TypeScript reads it.
    docs: [["a", "Doc A."], ["b", "Far."], ["x", null], ["c", null]],
  },
  ".kt": {
    source: "/**\n * Doc K.\n */\nfun k() {}\n\n/** Far. */\n\nfun f() {}\n",
    docs: [["k", "Doc K."], ["f", null]],
  },
  ".swift": {
    source:
      "/// Doc S.\n/// more\nfunc s() {}\nlet x = 1 /// trailing\nfunc t() {}\n",
    docs: [["s", "Doc S."], ["x", null], ["t", null]],
  },
  ".dart": {
    source: "/// Doc D.\nvoid d() {}\n\n/** Block D. */\nvoid e() {}\n",
    docs: [["d", "Doc D."], ["e", "Block D."]],
  },
  ".cpp": {
    source: "/// Doc P.\nint p();\n/* plain */\n/// Doc Q.\nint q();\n",
    docs: [["p", "Doc P."], ["q", "Doc Q."]],
  },
};

Deno.test("Outliner reads the doc comment above a symbol the same with LF and CRLF line ends", async () => {
  await withWorkspace(async (dir) => {
    const outliner = new Outliner({ workers: 1 });
    try {
      for (const [ext, { source, docs }] of Object.entries(DOC_SOURCES)) {
        for (const [eol, name] of [["\n", "lf"], ["\r\n", "crlf"]]) {
          const path = join(dir, `${name}${ext}`);
          await Deno.writeTextFile(path, source.replaceAll("\n", eol));
          const { symbols } = await outliner.outline(path);
          assert.deepEqual(
            symbols.map((s) => [s.name, s.doc ?? null]),
            docs,
            `${ext} with ${name}`,
          );
        }
      }
    } finally {
      await outliner.terminate();
    }
  });
});
