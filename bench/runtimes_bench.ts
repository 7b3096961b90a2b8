// Bun against Deno, same files in the same run: outline (a running pool and a
// fresh one) and ReadFile. One long-lived process per runtime runs
// bench/_runtime_probe.ts, started before the benches; each iteration sends it
// one request over a pipe and waits for its answer, so both runtimes pay the
// same round trip (well under a millisecond) and no process start. Deno is
// the baseline of each group. Bun's benches are ignored when `bun` is not on
// PATH; they need the checkout's node_modules (`bun install`).
//
// Figures: bench/README.md.
//
// Run: deno bench -A bench/runtimes_bench.ts (the first run fetches
// TypeScript's lib files with `npm pack` into .bench-data/).
import { join } from "node:path";
import { has } from "../tests/support/has.ts";
import { generatedFile, makePython } from "./_bench_data.ts";
import { packageFile } from "../tests/support/npm_package.ts";

const ROOT = new URL("../", import.meta.url).pathname;
const PROBE = join(ROOT, "bench/_runtime_probe.ts");
const MB = 1024 * 1024;

/** A probe process: one request a line in, one answer a line out. */
class Probe {
  #child: Deno.ChildProcess;
  #writer: WritableStreamDefaultWriter<Uint8Array>;
  #reader: ReadableStreamDefaultReader<string>;
  #buffer = "";

  constructor(program: string, args: string[]) {
    this.#child = new Deno.Command(program, {
      args: [...args, PROBE],
      cwd: ROOT,
      stdin: "piped",
      stdout: "piped",
      stderr: "inherit",
    }).spawn();
    // Held only while a request waits: the probe ends when the bench process
    // does (its stdin closes).
    this.#child.unref();
    this.#writer = this.#child.stdin.getWriter();
    this.#reader = this.#child.stdout.pipeThrough(new TextDecoderStream())
      .getReader();
  }

  /** Sends `request` and waits for its "ok". */
  async ask(request: string): Promise<void> {
    this.#child.ref();
    try {
      await this.#writer.write(new TextEncoder().encode(`${request}\n`));
      while (!this.#buffer.includes("\n")) {
        const { value, done } = await this.#reader.read();
        if (done) {
          throw new Error(`The probe ended before answering ${request}`);
        }
        this.#buffer += value;
      }
    } finally {
      this.#child.unref();
    }
    const end = this.#buffer.indexOf("\n");
    const answer = this.#buffer.slice(0, end);
    this.#buffer = this.#buffer.slice(end + 1);
    if (answer !== "ok") throw new Error(`${request}: ${answer}`);
  }
}

const noBun = !has("bun");
const deno = new Probe(Deno.execPath(), ["run", "-A"]);
const bun = noBun ? undefined : new Probe("bun", ["run"]);

// 100,000 lines of 80 bytes: ReadFile counts all the lines of a file this
// size (under 10 MB) on each read.
const LINES = 100_000;
const lines = await generatedFile("runtimes/lines.txt", () => {
  const text: string[] = [];
  for (let i = 1; i <= LINES; i++) {
    text.push(`line ${i} `.padEnd(79, "abcdefghij"));
  }
  return text.join("\n") + "\n";
});

const dom = await packageFile("typescript@5.9.3", "lib/lib.dom.d.ts");
const python = await generatedFile("large.py", () => makePython(2 * MB));
const cases: { group: string; request: string; n: number }[] = [
  {
    group: "outline lib.dom.d.ts, running pool",
    request: `outline-warm ${dom}`,
    n: 5,
  },
  {
    group: "outline lib.dom.d.ts, fresh pool",
    request: `outline-cold ${dom}`,
    n: 5,
  },
  {
    group: "outline generated Python 2 MB, running pool",
    request: `outline-warm ${python}`,
    n: 5,
  },
  {
    group: "ReadFile 2,000 lines from line 1 of 8 MB",
    request: `read ${lines} 1`,
    n: 20,
  },
  {
    group: "ReadFile 2,000 lines from line 98,001 of 8 MB",
    request: `read ${lines} ${LINES - 1999}`,
    n: 20,
  },
];

// An async function, so that Deno.bench awaits each iteration.
for (const { group, request, n } of cases) {
  Deno.bench({
    group,
    name: `Deno (baseline) ${group}`,
    baseline: true,
    n,
    warmup: 1,
    async fn() {
      await deno.ask(request);
    },
  });
  Deno.bench({
    group,
    name: `Bun ${group}`,
    ignore: noBun,
    n,
    warmup: 1,
    async fn() {
      await bun!.ask(request);
    },
  });
}
