// Review 19 (adversarial) of commit 14eabdc, "Worker threads: the regex
// search and the image downscale start theirs like the outline pool": the
// regex worker (tools/_regex_scanner.ts, tools/_regex_worker.ts) and the image
// downscale worker (agent/_downscale.ts, agent/_downscale_worker.ts) moved
// from node:worker_threads Workers to Deno web Workers unref'd through Deno's
// private ref switch (tools/_thread.ts), with node:worker_threads as the
// fallback; an idle regex worker now swaps its scanner's `events`.
//
// How: every case was run against this commit and, side by side, against its
// parent (a git worktree of 14eabdc~1), in real child processes (`deno run`
// with exactly the permissions a user would give), with real files, the real
// agent against the scripted model server, and the real MCP client. The two
// faults found (both in the image downscale) are fixed and their tests run;
// the other tests cover paths no other test does (the node fallback of
// both workers, idle regex workers reused by concurrent scanners after a
// cancelled scan, the MCP server's exit after a cancelled stuck regex).
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { type CliOutput, decoded, MOD } from "./support/fello_cli.ts";
import { connectMcp } from "./support/mcp_client.ts";
import { startScriptedServer } from "./support/scripted_server.ts";
import { withWorkspace } from "./support/workspace.ts";
import { RegexScanner } from "../tools/search/_regex_scanner.ts";
import { scanFile } from "../tools/search/_search_file.ts";

const PACKAGE = dirname(MOD);
const CONFIG = join(PACKAGE, "deno.json");

/** Runs `script` in a child `deno run` with exactly `flags`; never throws. */
async function runChild(
  flags: string[],
  script: string,
): Promise<CliOutput> {
  return decoded(
    await new Deno.Command(Deno.execPath(), {
      args: ["run", `--config=${CONFIG}`, "--no-prompt", ...flags, script],
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(60_000),
    }).output(),
  );
}

/** A PNG wider than ImageAnalysis sends as is (2048 px): it is downscaled. */
async function widePng(): Promise<Uint8Array> {
  const { createJimp } = await import("@jimp/core");
  const png = (await import("@jimp/js-png")).default;
  const Jimp = createJimp({ formats: [png] });
  const image = new Jimp({ width: 2600, height: 40, color: 0xff0000ff });
  const data = await image.getBuffer("image/png");
  return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
}

/**
 * Runs one agent turn in a child process that calls ImageAnalysis on
 * `wide.png` in `dir`; prints the tool's result or error as JSON lines.
 */
async function analyzeInChild(
  dir: string,
  flags: string[],
): Promise<
  {
    events: { type: string; output?: unknown; error?: string }[];
    stderr: string;
  }
> {
  const ws = join(dir, "ws");
  await Deno.mkdir(ws);
  await Deno.writeFile(join(ws, "wide.png"), await widePng());
  await using server = startScriptedServer([
    {
      match: "look at the strip",
      replies: [
        {
          toolCalls: [{
            name: "ImageAnalysis",
            arguments: { path: "wide.png" },
          }],
        },
        { text: "done" },
      ],
    },
    { match: "Describe this image", replies: [{ text: "a red strip" }] },
  ]);
  const script = join(dir, "child.ts");
  await Deno.writeTextFile(
    script,
    `import { createAgent } from ${JSON.stringify(MOD)};
const agent = createAgent({ baseURL: ${
      JSON.stringify(server.baseURL)
    }, model: "m", cwd: ${JSON.stringify(ws)}, permissionMode: "readOnly" });
for await (const event of agent.stream("look at the strip")) {
  if (event.type === "tool-result" || event.type === "tool-error") {
    console.log(JSON.stringify(event));
  }
}
`,
  );
  const { code, stdout, stderr } = await runChild(flags, script);
  assert.equal(code, 0, stderr);
  const events = stdout.trim().split("\n").filter(Boolean).map((line) =>
    JSON.parse(line)
  );
  return { events, stderr };
}

// Fixed fault: without --allow-env (createAgent() documents none) ImageAnalysis of a large image fails: the web Worker lost node's `env: {}`, and jimp's `debug` dependency reads the whole environment.
// Input: createAgent() run under `--allow-net=127.0.0.1 --allow-sys=hostname
// --allow-read=<workspace>,<package>` (its JSDoc's permissions), the model
// calls ImageAnalysis on a 2600x40 PNG. Now: the tool fails with `Cannot
// analyze "wide.png": the PNG image could not be decoded to downscale it
// (Requires env access, run again with the --allow-env flag); the file may be
// damaged` (in a terminal without --no-prompt, Deno asks for env access in the
// middle of the run instead). Before 14eabdc the node:worker_threads worker
// got `{ env: {} }` and the image was downscaled and sent (2048x32 JPEG).
// Expected: the same as before. Suggested fix: give the downscale a `node`
// thread (startThread(url, events, "node"), whose _nodeThread passes
// `env: {}`), or make the web worker's process.env empty before jimp loads.
Deno.test({
  name:
    "ImageAnalysis downscales a large image under createAgent()'s documented permissions, without --allow-env",
  async fn() {
    await withWorkspace(async (dir) => {
      const { events } = await analyzeInChild(dir, [
        "--allow-net=127.0.0.1",
        "--allow-sys=hostname",
        `--allow-read=${dir},${PACKAGE}`,
      ]);
      assert.equal(events.length, 1);
      assert.equal(events[0].type, "tool-result", events[0].error);
      const output = events[0].output as {
        resized: boolean;
        sent: { mediaType: string; width: number };
      };
      assert.equal(output.resized, true);
      assert.equal(output.sent.mediaType, "image/jpeg");
      assert.equal(output.sent.width, 2048);
    });
  },
});

// Fixed fault: without read access to the package, ImageAnalysis of a large image now prints "error: Uncaught (in worker "") Requires read access ..." on stderr, and (as before) blames the image: "the file may be damaged".
// Input: the same agent run with `--allow-read=<workspace>` only (and
// --allow-env). Now: the web Worker is created without the read check that
// the regex scanner's spawn() makes, Deno prints its module load failure as
// an uncaught error on the process's stderr (the CLI's terminal), and the
// tool error says `the PNG image could not be decoded to downscale it
// (Requires read access to ".../agent/_downscale_worker.ts" ...); the file may
// be damaged`. Before 14eabdc the node Worker's constructor threw at once:
// nothing on stderr, the same misleading message. Expected: nothing on stderr,
// and an error that names the missing read permission without blaming the
// file (or an in-process downscale, as the regex search falls back to).
Deno.test({
  name:
    "ImageAnalysis without read access to the package prints no uncaught error and does not blame the image",
  async fn() {
    await withWorkspace(async (dir) => {
      const { events, stderr } = await analyzeInChild(dir, [
        "--allow-net=127.0.0.1",
        "--allow-sys=hostname",
        "--allow-env",
        `--allow-read=${dir}`,
      ]);
      assert.doesNotMatch(stderr, /Uncaught/);
      assert.equal(events.length, 1);
      if (events[0].type === "tool-error") {
        assert.match(events[0].error!, /--allow-read/);
        assert.doesNotMatch(events[0].error!, /damaged/);
      }
    });
  },
});

Deno.test("ImageAnalysis downscales a large image with --allow-env, and the script exits", async () => {
  await withWorkspace(async (dir) => {
    const { events, stderr } = await analyzeInChild(dir, [
      "--allow-net=127.0.0.1",
      "--allow-sys=hostname",
      "--allow-env",
      `--allow-read=${dir},${PACKAGE}`,
    ]);
    assert.equal(stderr, "");
    assert.equal(events.length, 1);
    assert.equal(events[0].type, "tool-result", events[0].error);
    assert.deepEqual(
      (events[0].output as { sent: unknown }).sent,
      {
        mediaType: "image/jpeg",
        width: 2048,
        height: 32,
        bytes: (events[0].output as { sent: { bytes: number } }).sent.bytes,
      },
    );
  });
});

Deno.test("idle regex workers reused by concurrent scanners after a cancelled scan answer each its own scan", async () => {
  await withWorkspace(async (dir) => {
    // Long enough that the cancel lands mid-scan: the worker still owes
    // that job's answer when its scanner closes.
    const big = join(dir, "big.txt");
    await Deno.writeTextFile(big, "c\n".repeat(400_000));
    const files: string[] = [];
    for (let i = 0; i < 4; i++) {
      const path = join(dir, `f${i}.txt`);
      await Deno.writeTextFile(
        path,
        `x${i}\nneedle ${i}\n${"y\n".repeat(i)}z${i}\n`,
      );
      files.push(path);
    }
    const cancelled = new RegexScanner();
    const cancel = new AbortController();
    const scan = cancelled.scan(big, /never/gm, {
      limit: 10,
      signal: cancel.signal,
    });
    setTimeout(() => cancel.abort(), 5);
    await assert.rejects(scan, (error: Error) => error.name === "AbortError");
    cancelled.close();
    const patterns = [/needle \d/gm, /^z\d$/gm, /^y$/gm, /x[0-3]/gm];
    for (let round = 0; round < 4; round++) {
      // Two scanners at once, each with its own pattern and files: a reply
      // handed to the wrong scanner would show as a wrong or missing scan.
      const scanners = [new RegexScanner(), new RegexScanner()];
      try {
        const got = await Promise.all(scanners.map((scanner, which) => {
          const pattern = patterns[(round + which * 2) % patterns.length];
          return Promise.all(
            files.map((path) => scanner.scan(path, pattern, { limit: 5 })),
          );
        }));
        for (const [which, scans] of got.entries()) {
          const pattern = patterns[(round + which * 2) % patterns.length];
          for (const [index, path] of files.entries()) {
            assert.deepEqual(
              scans[index],
              await scanFile(path, pattern, { limit: 5 }),
              `round ${round}, ${pattern} on f${index}.txt`,
            );
          }
        }
      } finally {
        for (const scanner of scanners) scanner.close();
      }
    }
  });
});

/** Prints, as the script's event loop runs dry, how long it stayed alive after its work. */
const REPORT_IDLE = `
const workDone = performance.now();
globalThis.addEventListener("unload", () => {
  console.log(JSON.stringify({ idleMs: performance.now() - workDone }));
});
`;

Deno.test("with node:worker_threads as the fallback, regex searches, a regex timeout and a downscale work and the script exits", async () => {
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
    const { code, stdout, stderr } = await runChild(
      [`--allow-read=${dir},${PACKAGE}`],
      script,
    );
    assert.equal(code, 0, stderr);
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

Deno.test("the MCP server answers regex searches around a cancelled stuck one, then exits on its own", async () => {
  await withWorkspace(async (dir) => {
    await Deno.writeTextFile(join(dir, "a.txt"), "needle 1\nfoo\nneedle 2\n");
    await Deno.writeTextFile(join(dir, "stuck.txt"), `${"a".repeat(40)}\n`);
    const client = await connectMcp({ workspace: dir });
    // Its child process, to see whether it ended by itself or was killed.
    const child = (client.transport as unknown as {
      _process: {
        once(
          event: "exit",
          listener: (code: number | null, signal: string | null) => void,
        ): void;
      };
    })._process;
    const exited = new Promise<[number | null, string | null]>((resolve) =>
      child.once("exit", (code, signal) => resolve([code, signal]))
    );
    const search = (pattern: string, path: string, signal?: AbortSignal) =>
      client.callTool(
        { name: "search", arguments: { pattern, regex: true, path } },
        { signal },
      );
    const text = async (pattern: string, path: string) => {
      const result = await search(pattern, path);
      return (result.content as { text: string }[])[0].text;
    };
    try {
      assert.equal(
        await text("ne+dle \\d", "a.txt"),
        "a.txt:1: needle 1\na.txt:3: needle 2",
      );
      const cancel = new AbortController();
      const stuck = search("(a|a)*b", "stuck.txt", cancel.signal);
      setTimeout(() => cancel.abort(), 300);
      await assert.rejects(stuck);
      // The cancelled match still spins in its worker (stopped at the
      // budget); the next search gets a worker of its own.
      assert.equal(await text("^foo$", "a.txt"), "a.txt:2: foo");
    } finally {
      // Ends the server's stdin; it is killed only if still alive 2 s later.
      await client.close();
    }
    assert.deepEqual(await exited, [0, null]);
  });
});
