// Thousands of random inputs for every tool of createTools: wrong types, huge
// strings, NUL bytes, odd and deep `..` paths. Each call must resolve or throw a
// ToolError; nothing else may escape. The tools run in a temp workspace in
// modes that write nothing outside it and run no command.
import assert from "node:assert/strict";
import { join } from "node:path";
import { createTools, ToolError } from "../mod.ts";

const CALLS_PER_TOOL = 1000;
const HANG_MS = 30_000;

/** A small deterministic PRNG, so a failure can be replayed from its seed. */
function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const KEYS = [
  "path",
  "line",
  "limit",
  "cwd",
  "force",
  "content",
  "oldText",
  "newText",
  "replaceAll",
  "command",
  "args",
  "env",
  "outputByteLimit",
  "timeoutSeconds",
  "entries",
  "query",
  "pattern",
  "glob",
  "maxResults",
  "symbol",
  "position",
  "__proto__",
  "constructor",
];

class Fuzzer {
  #random: () => number;
  constructor(seed: number) {
    this.#random = prng(seed);
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.#random() * items.length)];
  }

  chance(p: number): boolean {
    return this.#random() < p;
  }

  int(max: number): number {
    return Math.floor(this.#random() * max);
  }

  string(): string {
    const kind = this.int(14);
    switch (kind) {
      case 0:
        return "";
      case 1:
        return this.pick([
          "a.txt",
          "dir/c.txt",
          "crlf.txt",
          "bin.dat",
          "empty.txt",
          "dir",
          ".",
        ]);
      case 2:
        return "../".repeat(1 + this.int(40)) +
          this.pick(["etc/passwd", "", "a.txt"]);
      case 3:
        return this.pick([
          "/",
          "/etc/passwd",
          "/dev/zero",
          "/proc/self/mem",
          "~",
          "C:\\x",
        ]);
      case 4:
        return this.pick([
          "file:///etc/passwd",
          "file://%%",
          "file:relative",
          "http://x/y",
        ]);
      case 5:
        return this.pick(["\0", "a\0b", "a.txt\0", "\u202e\ud800", "🙂/ü.txt"]);
      case 6:
        return "x".repeat(1 + this.int(200_000));
      case 7:
        return this.pick([
          "$&",
          "$1$$",
          "$'",
          "\r\n",
          "\n",
          "line",
          "one\r\ntwo",
        ]);
      case 8:
        return "dir/" + "../".repeat(this.int(5)) + "new-" + this.int(50) +
          ".txt";
      default: {
        let s = "";
        const length = this.int(40);
        for (let i = 0; i < length; i++) {
          s += String.fromCharCode(this.int(0x3000));
        }
        return s;
      }
    }
  }

  value(depth = 0): unknown {
    const kind = this.int(depth > 2 ? 6 : 9);
    switch (kind) {
      case 0:
        return undefined;
      case 1:
        return null;
      case 2:
        return this.chance(0.5);
      case 3:
        return this.pick([
          0,
          -1,
          1,
          2,
          1.5,
          2 ** 53,
          -(2 ** 31),
          NaN,
          Infinity,
          -0,
          1e308,
        ]);
      case 4:
        return 1 + this.int(5000);
      case 5:
        return this.string();
      case 6:
        return Array.from({ length: this.int(5) }, () => this.value(depth + 1));
      case 7:
        return this.object(depth + 1);
      default:
        return { content: this.string(), priority: "high", status: "pending" };
    }
  }

  /** An object: the tool's own keys (from its JSON Schema) often, others rarely. */
  object(depth: number, schema: Schema = {}): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    const own = Object.keys(schema.properties ?? {});
    const required = schema.required ?? [];
    for (const key of new Set([...own, ...KEYS])) {
      const p = required.includes(key) ? 0.97 : own.includes(key) ? 0.5 : 0.05;
      if (!this.chance(p)) continue;
      // An own property even for "__proto__", as JSON.parse would make it.
      Object.defineProperty(out, key, {
        value: this.plausible(key, depth),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }

  /** Mostly well-typed values for a known key, sometimes anything. */
  plausible(key: string, depth: number): unknown {
    if (this.chance(0.2)) return this.value(depth);
    switch (key) {
      case "line":
      case "limit":
      case "outputByteLimit":
      case "maxResults":
        return this.pick([1, 2, 3, 10, 50, 2000, 99999, 0]);
      case "timeoutSeconds":
        return this.pick([0.01, 1, -1]);
      case "force":
      case "replaceAll":
        return this.chance(0.5);
      case "args":
        return Array.from({ length: this.int(3) }, () => this.string());
      case "env":
        return { A: this.string() };
      case "entries":
        return Array.from({ length: this.int(4) }, () => this.value(depth + 1));
      case "cwd":
        return this.chance(0.5)
          ? this.pick([".", "dir", "./dir/..", ws()])
          : this.string();
      case "path":
        return this.chance(0.5)
          ? this.pick([
            "a.txt",
            "crlf.txt",
            "dir/c.txt",
            "new.txt",
            "dir/n/e/w.txt",
          ])
          : this.string();
      case "oldText":
        return this.chance(0.5)
          ? this.pick(["line", "x\n", "one", "$&", "two\n", "c"])
          : this.string();
      default:
        return this.string();
    }
  }

  input(schema: Schema): unknown {
    return this.chance(0.1) ? this.value() : this.object(0, schema);
  }
}

interface Schema {
  properties?: Record<string, unknown>;
  required?: string[];
}

interface AnyTool {
  name: string;
  inputSchema: Schema;
  execute(input: unknown): Promise<unknown>;
  toModelText(output: unknown): string;
}

function toolsOf(tools: object, only?: string[]): AnyTool[] {
  return Object.values(tools).filter((value): value is AnyTool =>
    typeof value === "object" && value !== null && "execute" in value &&
    (only === undefined || only.includes((value as AnyTool).name))
  );
}

async function callOnce(
  tool: AnyTool,
  input: unknown,
): Promise<"ok" | "error"> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${tool.name} hung`)), HANG_MS);
  });
  try {
    const result = await Promise.race([tool.execute(input), hang]);
    assert.equal(typeof tool.toModelText(result), "string");
    return "ok";
  } catch (error) {
    if (error instanceof ToolError) return "error";
    throw new Error(
      `${tool.name} threw a non-ToolError for ${
        JSON.stringify(input)?.slice(0, 300)
      }: ${error}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
}

async function fuzz(
  tools: AnyTool[],
  seed: number,
): Promise<Record<string, number>> {
  const fuzzer = new Fuzzer(seed);
  const counts: Record<string, number> = {};
  for (const tool of tools) {
    for (let i = 0; i < CALLS_PER_TOOL; i++) {
      const outcome = await callOnce(tool, fuzzer.input(tool.inputSchema));
      counts[`${tool.name} ${outcome}`] =
        (counts[`${tool.name} ${outcome}`] ?? 0) + 1;
    }
  }
  return counts;
}

let current = "";
/** The workspace of the running test (a plausible absolute cwd). */
function ws(): string {
  return current;
}

async function workspace(): Promise<string> {
  const ws = await Deno.makeTempDir({ prefix: "fello-fuzz-" });
  current = ws;
  await Deno.mkdir(join(ws, "dir"));
  await Deno.writeTextFile(join(ws, "a.txt"), "line\nx\n$&\none\n".repeat(20));
  await Deno.writeTextFile(join(ws, "dir", "c.txt"), "c\n");
  await Deno.writeTextFile(join(ws, "crlf.txt"), "one\r\ntwo\r\n");
  await Deno.writeTextFile(join(ws, "empty.txt"), "");
  await Deno.writeFile(join(ws, "bin.dat"), new Uint8Array([1, 0, 2]));
  return ws;
}

Deno.test("every tool resolves or throws ToolError on random input (readOnly)", async () => {
  const ws = await workspace();
  try {
    const tools = createTools({ cwd: ws, permissionMode: "readOnly" });
    const all = toolsOf(tools);
    assert.ok(all.length >= 5, `only ${all.length} tools found`);
    const counts = await fuzz(all, 1);
    // Each tool saw valid calls too, not only rejected input.
    for (const name of ["ReadFile", "Plan"]) {
      assert.ok(counts[`${name} ok`] > 0, name);
    }
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});

Deno.test("file tools resolve or throw ToolError on random input (acceptEdits, writes confined)", async () => {
  const ws = await workspace();
  const outsideBefore = await Deno.readTextFile("/etc/hostname").catch(() =>
    null
  );
  try {
    const tools = createTools({ cwd: ws, permissionMode: "acceptEdits" });
    const counts = await fuzz(
      toolsOf(tools, ["ReadFile", "WriteFile", "EditFile", "EditSymbol"]),
      2,
    );
    for (const name of ["ReadFile", "WriteFile", "EditFile"]) {
      assert.ok(
        counts[`${name} ok`] > 0,
        `${name} never succeeded: ${JSON.stringify(counts)}`,
      );
      assert.ok(counts[`${name} error`] > 0, name);
    }
    const outsideAfter = await Deno.readTextFile("/etc/hostname").catch(() =>
      null
    );
    assert.equal(outsideAfter, outsideBefore);
  } finally {
    await Deno.remove(ws, { recursive: true });
  }
});
