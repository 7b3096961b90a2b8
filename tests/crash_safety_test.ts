// Kills (SIGKILL) a child process in the middle of big WriteFile and EditFile
// calls, many times: the file must always hold the old or the new content,
// never a mix, and a temp file orphaned by a kill must be recognizable by its
// name and removed by a later write in that folder. A script that dies of an
// uncaught error while Shell runs must take its commands with it.
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTools } from "../mod.ts";
import { outputWithin } from "./support/fello_cli.ts";
import {
  killLeftovers,
  readPidFiles,
  waitForPid,
  waitUntilGone,
} from "./support/processes.ts";
import { withWorkspace } from "./support/workspace.ts";

const MOD = new URL("../mod.ts", import.meta.url).pathname;
const CONFIG = new URL("../deno.json", import.meta.url).pathname;

const ROOT = fileURLToPath(new URL("../", import.meta.url));
const KILLS = 10;
// A random kill lands mid-write only now and then (less often on a loaded
// machine), so every other kill waits for a temp file to appear; keep killing
// until one lands mid-write, up to this many times.
const MAX_KILLS = 60;
const SIZE = 8 * 1024 * 1024;
const TEMP = /^\.big\.txt\.fello-tmp-\d+-[0-9a-z]+$/;

const CHILD = `
import { createTools } from ${JSON.stringify(join(ROOT, "mod.ts"))};
const [ws, mode, size] = [Deno.args[0], Deno.args[1], Number(Deno.args[2])];
const tools = createTools({ cwd: ws, permissionMode: "allow" });
const a = "A".repeat(size);
const b = "B".repeat(size - 1000);
const markers = ["<<A>>", "<<BBBB>>"];
console.log("ready");
for (let i = 0; ; i++) {
  if (mode === "write") {
    await tools.WriteFile.execute({ path: "big.txt", content: i % 2 ? a : b });
  } else {
    const text = await Deno.readTextFile(ws + "/big.txt");
    const [from, to] = text.includes(markers[0]) ? markers : [...markers].reverse();
    await tools.EditFile.execute({ path: "big.txt", oldText: from, newText: to });
  }
}
`;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

async function tempFiles(ws: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(ws)) {
    if (TEMP.test(entry.name)) names.push(entry.name);
  }
  return names;
}

/** Starts the child, waits until it writes, kills it at a random moment. */
async function killMidway(
  script: string,
  ws: string,
  options: { mode: string; onTempFile: boolean },
): Promise<void> {
  const { mode } = options;
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      `--config=${join(ROOT, "deno.json")}`,
      script,
      ws,
      mode,
      `${SIZE}`,
    ],
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  let seen = "";
  while (!seen.includes("ready")) {
    const { value, done } = await reader.read();
    if (done) break;
    seen += new TextDecoder().decode(value);
  }
  await reader.cancel();
  if (options.onTempFile) {
    // Kill the moment a temp file shows up: surely mid-write, however loaded
    // the machine is (bounded, in case the writes are too quick to catch).
    const deadline = Date.now() + 5000;
    while ((await tempFiles(ws)).length === 0 && Date.now() < deadline) {
      await sleep(1);
    }
  } else {
    // Wide enough to reach a write even when a loaded machine slows the first one.
    await sleep(20 + Math.random() * 400);
  }
  child.kill("SIGKILL");
  const status = await child.status;
  const stderr = await new Response(child.stderr).text();
  assert.equal(
    status.signal,
    "SIGKILL",
    `the child ended on its own: ${stderr}`,
  );
}

async function crashLoop(
  mode: "write" | "edit",
  initial: string,
  valid: (text: string) => boolean,
): Promise<void> {
  const ws = await Deno.realPath(
    await Deno.makeTempDir({ prefix: "fello-crash-" }),
  );
  try {
    const script = join(ws, "child.js");
    await Deno.writeTextFile(script, CHILD);
    await Deno.writeTextFile(join(ws, "big.txt"), initial);
    let orphansSeen = 0;
    for (let i = 0; i < KILLS || (orphansSeen === 0 && i < MAX_KILLS); i++) {
      // Alternate random kills with kills aimed at an open temp file.
      await killMidway(script, ws, { mode, onTempFile: i % 2 === 1 });
      const text = await Deno.readTextFile(join(ws, "big.txt"));
      assert.ok(
        valid(text),
        `kill ${i}: big.txt is neither old nor new (${text.length} chars)`,
      );
      orphansSeen += (await tempFiles(ws)).length;
    }
    assert.ok(
      orphansSeen > 0,
      "no kill landed mid-write; the test proved nothing",
    );
    const tools = createTools({ cwd: ws, permissionMode: "allow" });
    await tools.WriteFile.execute({
      path: "other.txt",
      content: "later write",
    });
    assert.deepEqual(await tempFiles(ws), []);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
}

Deno.test("writeFile() killed mid-write leaves the old or the new file", async () => {
  const a = "A".repeat(SIZE);
  const b = "B".repeat(SIZE - 1000);
  await crashLoop("write", a, (text) => text === a || text === b);
});

Deno.test("editFile() killed mid-edit leaves the old or the new file", async () => {
  const head = "x".repeat(SIZE / 2) + "\n";
  const tail = "\n" + "y".repeat(SIZE / 2);
  await crashLoop(
    "edit",
    `${head}<<A>>${tail}`,
    (text) =>
      text === `${head}<<A>>${tail}` || text === `${head}<<BBBB>>${tail}`,
  );
});

Deno.test("createTools() in a script that dies of an uncaught error or rejection while Shell runs leaves no command running", async () => {
  await withWorkspace(async (dir) => {
    const script = join(dir, "crash.ts");
    await Deno.writeTextFile(
      script,
      `import { createTools } from ${JSON.stringify(MOD)};
const [cwd, how] = Deno.args;
const tools = createTools({ cwd, permissionMode: "allow" });
tools.Shell.execute({ command: "echo $$ > " + how + ".pid; exec sleep 100" });
while (true) {
try {
  if (Deno.readTextFileSync(cwd + "/" + how + ".pid").trim()) break;
} catch { /* not yet */ }
await new Promise((resolve) => setTimeout(resolve, 20));
}
if (how === "throw") throw new Error("the script crashed");
Promise.reject(new Error("an unhandled rejection"));
`,
    );
    const ways = ["throw", "reject"];
    try {
      for (const how of ways) {
        const child = new Deno.Command(Deno.execPath(), {
          args: ["run", `--config=${CONFIG}`, "-A", script, dir, how],
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
        }).spawn();
        const output = await outputWithin(child, 30_000);
        assert.equal(output.code, 1, `${how}: the script failed`);
        const pid = await waitForPid(join(dir, `${how}.pid`));
        assert.ok(await waitUntilGone(pid), `${how}: sleep ${pid} survived`);
      }
    } finally {
      killLeftovers(
        await readPidFiles(ways.map((how) => join(dir, `${how}.pid`))),
      );
    }
  });
});
