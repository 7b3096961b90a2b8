// Regex searches in the worker (tools/search/_regex_scanner.ts): the
// worker must answer exactly what an in-process scan answers, in walk order,
// under concurrency, and must not keep a script from exiting. No test here
// makes a regex backtrack catastrophically: in Deno 2.9.6 a terminated worker
// thread keeps running, so such a test would burn a core for the whole suite.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { runDeno } from "../../tests/support/run_deno.ts";
import { withWorkspace, writeFiles } from "../../tests/support/workspace.ts";
import { createTools } from "../create_tools.ts";
import { RegexScanner } from "./_regex_scanner.ts";
import { MAX_LINE_CHARS, scanFile } from "./_search_file.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Files whose lines are easy to get wrong: line ends, chunk edges, long lines. */
async function writeTrickyFiles(dir: string): Promise<string[]> {
  const files: Record<string, string | Uint8Array> = {
    "crlf.txt": "alpha needle\r\nbeta\r\n\r\nneedle é\r\nlast needle",
    "cr_only.txt": "one\rneedle two\rthree\n",
    // Four-byte and two-byte characters straddle the 64 KB read chunks.
    "utf8.txt": `${"ü€😀x".repeat(5000)}\n`.repeat(4) + "needle😀\n",
    "bom.txt": "\uFEFFneedle\nz\n",
    "empty.txt": "",
    "no_final_newline.txt": "x\nneedle at end",
    // A line past MAX_LINE_CHARS is searched in its first part only.
    "long.txt": `${"x".repeat(MAX_LINE_CHARS + 1000)}needle\nneedle short\n` +
      `needle${"q".repeat(MAX_LINE_CHARS + 10)}\nafter needle\n`,
    "binary.dat": new Uint8Array([110, 101, 101, 100, 108, 101, 0, 10]),
    "invalid_utf8.txt": new Uint8Array([
      0x6e,
      0x65,
      0x65,
      0x64,
      0x6c,
      0x65,
      0xff,
      0x0a,
      0xc3,
      0x0a,
    ]),
    "many.txt": "needle\n".repeat(50),
  };
  return await writeFiles(dir, files);
}

Deno.test("RegexScanner answers what an in-process scan answers, file by file", async () => {
  await withWorkspace(async (dir) => {
    const paths = await writeTrickyFiles(dir);
    const patterns = [/needle/gmu, /^$/gmu, /\r/gmu, /.$/gmu, /😀|é/gmu];
    const scanner = new RegexScanner();
    try {
      for (const pattern of patterns) {
        for (const limit of [1, 3, 1000]) {
          // All files of a round in flight at once, as search sends them.
          const inWorker = await Promise.all(
            paths.map((path) => scanner.scan(path, pattern, { limit })),
          );
          for (const [index, path] of paths.entries()) {
            const local = await scanFile(path, pattern, { limit });
            assert.deepEqual(inWorker[index], local, `${pattern} ${path}`);
          }
        }
      }
    } finally {
      scanner.close();
    }
  });
});

Deno.test("search() with regex answers like the literal search, in walk order, cut at maxResults", async () => {
  await withWorkspace(async (dir) => {
    // More files than are scanned at once, with sizes that finish out of order.
    for (let index = 0; index < 30; index++) {
      const folder = join(dir, `d${index % 3}`);
      await Deno.mkdir(folder, { recursive: true });
      const filler = "filler line\n".repeat(index % 2 === 0 ? 20_000 : 1);
      await Deno.writeTextFile(
        join(folder, `f${String(index).padStart(2, "0")}.txt`),
        `${filler}needle ${index}\nneedle again ${index}\n`,
      );
    }
    const tools = createTools({ cwd: dir, permissionMode: "readOnly" });
    for (const maxResults of [1, 7, 59, 60, 1000]) {
      const literal = await tools.search.execute({
        pattern: "needle",
        maxResults,
      });
      const regex = await tools.search.execute({
        pattern: "ne+dle",
        regex: true,
        maxResults,
      });
      assert.deepEqual(
        { ...regex, pattern: "needle" },
        literal,
        `maxResults ${maxResults}`,
      );
      assert.equal(literal.truncated, maxResults < 60);
      assert.equal(literal.matches.length, Math.min(maxResults, 60));
    }
  });
});

Deno.test("search() answers many regex searches at once as it answers them one by one", async () => {
  await withWorkspace(async (dir) => {
    await writeTrickyFiles(dir);
    const tools = createTools({ cwd: dir, permissionMode: "readOnly" });
    const inputs = ["needle", "^\\w+$", "(?i)NEEDLE\\s", "e{2}", "\\r"].map(
      (pattern) => ({ pattern, regex: true, maxResults: 1000 }),
    );
    const oneByOne = [];
    for (const input of inputs) {
      oneByOne.push(await tools.search.execute(input));
    }
    const atOnce = await Promise.all(
      [...inputs, ...inputs].map((input) => tools.search.execute(input)),
    );
    assert.deepEqual(atOnce, [...oneByOne, ...oneByOne]);
  });
});

/**
 * Prints, as the script's event loop runs dry, how long it stayed alive after
 * its work: what a worker or timer left holding it adds, without the start-up
 * and load time of a child process on a busy machine.
 */
const REPORT_IDLE = `
const workDone = performance.now();
globalThis.addEventListener("unload", () => {
  console.log(JSON.stringify({ idleMs: performance.now() - workDone }));
});
`;

/** Runs a regex search in a child `deno run` and reports what it found. */
const CHILD = `
import { createTools } from ${JSON.stringify(join(ROOT, "mod.ts"))};
const tools = createTools({ cwd: Deno.args[0], permissionMode: "readOnly" });
const found = [];
for (const pattern of ["needle", "^$", "\\\\r", ".$", "😀|é"]) {
  found.push(await tools.search.execute({ pattern, regex: true, maxResults: 1000 }));
}
console.log(JSON.stringify(found));
${REPORT_IDLE}`;

async function runChild(
  dir: string,
  allowRead: string,
): Promise<{ found: unknown; idleMs: number }> {
  const { stdout } = await runDeno(
    ["--no-prompt", allowRead],
    join(dir, "..", "child.js"),
    [dir],
  );
  const [found, idle] = stdout.trim().split("\n");
  return { found: JSON.parse(found), idleMs: JSON.parse(idle).idleMs };
}

Deno.test("a script's regex searches answer alike in the worker and in-process, and the script exits at once", async () => {
  await withWorkspace(async (root) => {
    const dir = join(root, "ws");
    await Deno.mkdir(dir);
    await writeTrickyFiles(dir);
    await Deno.writeTextFile(join(root, "child.js"), CHILD);
    // With the package's folder readable, the scans run in the worker;
    // without it, in-process.
    const inWorker = await runChild(dir, `--allow-read=${root},${ROOT}`);
    const inProcess = await runChild(dir, `--allow-read=${root}`);
    assert.deepEqual(inWorker.found, inProcess.found);
    // The idle worker is unref'd: the script ends when its work does.
    // Generous: a second would mean something kept the process alive.
    for (const { idleMs } of [inWorker, inProcess]) {
      assert.ok(
        idleMs < 1_000,
        `alive ${Math.round(idleMs)} ms after its work`,
      );
    }
  });
});

Deno.test("a script whose stuck regex search was cancelled exits at once", async () => {
  await withWorkspace(async (dir) => {
    // In a child process: the stuck worker dies with it.
    await Deno.writeTextFile(join(dir, "stuck.txt"), `${"a".repeat(40)}\n`);
    await Deno.writeTextFile(
      join(dir, "child.js"),
      `import { createTools } from ${JSON.stringify(join(ROOT, "mod.ts"))};
const tools = createTools({ cwd: ${
        JSON.stringify(dir)
      }, permissionMode: "readOnly" });
const cancel = new AbortController();
setTimeout(() => cancel.abort(), 200);
await tools.search.execute({ pattern: "(?=a)(a|a)*b", regex: true }, { signal: cancel.signal })
  .then(() => { throw new Error("not cancelled"); }, (error) => console.log(error.message));
${REPORT_IDLE}`,
    );
    const { stdout } = await runDeno(["-A"], join(dir, "child.js"));
    const [message, idle] = stdout.trim().split("\n");
    assert.match(message, /was cancelled/);
    // Generous: the watchdog's timer kept it alive for the 10 s budget before.
    const { idleMs } = JSON.parse(idle);
    assert.ok(idleMs < 5_000, `alive ${Math.round(idleMs)} ms after its work`);
  });
});

Deno.test("search() cancelled at any moment rejects as cancelled, never unhandled", async () => {
  await withWorkspace(async (dir) => {
    for (let i = 0; i < 40; i++) {
      await Deno.mkdir(join(dir, `d${i}`));
      await Deno.writeTextFile(
        join(dir, `d${i}`, "a.ts"),
        "foo(1)\n".repeat(200),
      );
    }
    const tools = createTools({ cwd: dir, permissionMode: "readOnly" });
    for (let round = 0; round < 40; round++) {
      const cancel = new AbortController();
      // The literal finds the same lines as the regex: a search that ends
      // before the abort has 1000 matches either way.
      const regex = round % 2 === 0;
      const search = tools.search.execute(
        { pattern: regex ? "\\w+\\(" : "foo(", regex, maxResults: 1000 },
        { signal: cancel.signal },
      );
      await new Promise((resolve) => setTimeout(resolve, round % 5));
      cancel.abort();
      await search.then(
        (result) => assert.equal(result.matches.length, 1000),
        (error) => assert.match(error.message, /was cancelled/),
      );
    }
  });
});
