// ReadFile and EditFile against the plain cost of reading (and writing) the
// same file in Deno. Files are generated once under .bench-data/ (gitignored).
// The 1 GB file is opt-in: FELLO_BENCH_HUGE=1 deno bench -A bench/read_file_bench.ts
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTools } from "../mod.ts";

const DATA = fileURLToPath(new URL("../.bench-data/", import.meta.url));
const HUGE = Deno.env.get("FELLO_BENCH_HUGE") === "1";
const KB = 1024;
const MB = 1024 * KB;
const GB = 1024 * MB;

/** One MB of source-like lines of varied length, and its line count. */
function lineBlock(): { bytes: Uint8Array; lines: number } {
  let text = "";
  let lines = 0;
  for (let i = 0; text.length < MB - 200; i++) {
    const pad = " ".repeat((i * 7) % 16);
    const tail = "x".repeat((i * 13) % 70);
    text += `${pad}const value${i} = compute(${i}, "${tail}");\n`;
    lines++;
  }
  return { bytes: new TextEncoder().encode(text), lines };
}

/**
 * Writes a file of about `size` bytes (whole lines) unless it exists; returns
 * its line count. `middle`, when given, is a line put in the middle.
 */
async function generate(
  name: string,
  size: number,
  middle = "",
): Promise<number> {
  const path = join(DATA, name);
  const block = lineBlock();
  const whole = Math.floor(size / block.bytes.length);
  const text = new TextDecoder().decode(block.bytes);
  // The remainder: the first lines of the block up to `size`.
  const restBytes = size - whole * block.bytes.length;
  const cut = text.lastIndexOf("\n", restBytes - 1) + 1;
  const rest = block.bytes.subarray(0, cut);
  const restLines = text.slice(0, cut).split("\n").length - 1;
  const marker = new TextEncoder().encode(middle);
  const expected = whole * block.bytes.length + rest.length + marker.length;
  const existing = await Deno.stat(path).catch(() => null);
  if (existing?.size !== expected) {
    await Deno.mkdir(DATA, { recursive: true });
    const file = await Deno.open(path, {
      write: true,
      create: true,
      truncate: true,
    });
    for (let i = 0; i < whole; i++) {
      if (i === Math.floor(whole / 2)) await file.write(marker);
      await file.write(block.bytes);
    }
    await file.write(rest);
    file.close();
  }
  return whole * block.lines + restLines + (middle ? 1 : 0);
}

/** The baseline: read the whole file into one reused 1 MB buffer, nothing else. */
async function readLoop(path: string): Promise<void> {
  const buffer = new Uint8Array(MB);
  const file = await Deno.open(path);
  try {
    while ((await file.read(buffer)) !== null) { /* only the read */ }
  } finally {
    file.close();
  }
}

const tools = createTools({ cwd: DATA, permissionMode: "allow" });

/**
 * Makes the next read a first read: a new modification time invalidates the
 * line index, exactly as an edit by another program would.
 */
let touches = 0;
async function touch(path: string): Promise<void> {
  const when = new Date(Date.UTC(2020, 0, 1) + ++touches * 1000);
  await Deno.utime(path, when, when);
}

const files = [
  { label: "100 KB", name: "100kb.txt", size: 100 * KB + 512 },
  { label: "10 MB", name: "10mb.txt", size: 10 * MB },
  ...(HUGE ? [{ label: "1 GB", name: "1gb.txt", size: GB }] : []),
];

for (const { label, name, size } of files) {
  const lines = await generate(name, size);
  const path = join(DATA, name);
  const group = `ReadFile ${label}`;
  const heavy = size >= GB ? { n: 5, warmup: 1 } : {};
  Deno.bench({
    group,
    name: `read loop, whole file (baseline) ${label}`,
    baseline: true,
    ...heavy,
    async fn() {
      await readLoop(path);
    },
  });
  Deno.bench({
    group,
    name: `refusal of a full read ${label}`,
    async fn() {
      await tools.ReadFile.execute({ path: name }).then(
        () => {
          throw new Error("expected a refusal");
        },
        () => {},
      );
    },
  });
  Deno.bench({
    group,
    name: `head read (line 1, limit 100) ${label}`,
    fn: async () =>
      void await tools.ReadFile.execute({ path: name, line: 1, limit: 100 }),
  });
  Deno.bench({
    group,
    name: `middle read (limit 100), no line index ${label}`,
    ...heavy,
    async fn() {
      await touch(path);
      await tools.ReadFile.execute({
        path: name,
        line: Math.floor(lines / 2),
        limit: 100,
      });
    },
  });
  Deno.bench({
    group,
    name: `tail read (last 100 lines), first ${label}`,
    ...heavy,
    async fn() {
      await touch(path);
      await tools.ReadFile.execute({
        path: name,
        line: lines - 99,
        limit: 100,
      });
    },
  });
  let settled = false;
  Deno.bench({
    group,
    name: `tail read (last 100 lines), repeated ${label}`,
    async fn(b) {
      // The index of a file changed in the last 2 s is not kept (the touch
      // above moved its change time): let that pass, untimed.
      if (!settled) {
        await new Promise((resolve) => setTimeout(resolve, 2100));
        settled = true;
      }
      b.start();
      await tools.ReadFile.execute({
        path: name,
        line: lines - 99,
        limit: 100,
      });
      b.end();
    },
  });
}

// EditFile on 50 MB against reading and writing the same file.
{
  await generate("50mb.txt", 50 * MB, "const marker = 'the one edited';\n");
  const path = join(DATA, "50mb.txt");
  const markers = ["'the one edited'", "'THE ONE EDITED'"];
  let edits = 0;
  Deno.bench({
    group: "EditFile 50 MB",
    name: "read + write 50 MB (baseline)",
    baseline: true,
    n: 20,
    async fn() {
      await Deno.writeFile(path, await Deno.readFile(path));
    },
  });
  Deno.bench({
    group: "EditFile 50 MB",
    name: "EditFile one replacement in 50 MB",
    n: 20,
    async fn() {
      const [oldText, newText] = edits++ % 2 === 0
        ? markers
        : [...markers].reverse();
      await tools.EditFile.execute({ path: "50mb.txt", oldText, newText });
    },
  });
}
