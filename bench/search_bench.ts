// Speed of the `search` tool over a 12 MB tree of 300 generated source files
// (a .gitignore, a node_modules folder and a binary file included, as in a real
// project), next to ripgrep and grep on the same tree.
//
// Baseline: reading every file and counting its newlines (the I/O and decoding
// floor any line-numbering search pays). Goal: a rare literal within 3x of that
// floor; ripgrep (native, multi-threaded) shows what a tuned tool reaches.
//
// Run: deno bench -A bench/search_bench.ts
import { join } from "node:path";
import { createTools } from "../tools/create_tools.ts";

const FILES = 300;
const LINES_PER_FILE = 1000;

const root = Deno.makeTempDirSync({ prefix: "search_bench_" });
globalThis.addEventListener("unload", () => {
  Deno.removeSync(root, { recursive: true });
});
writeTree(root);
const tools = createTools({ cwd: root, permissionMode: "readOnly" });
const rgAvailable = hasCommand("rg");

function writeTree(dir: string): void {
  Deno.mkdirSync(join(dir, "node_modules/pkg"), { recursive: true });
  Deno.writeTextFileSync(join(dir, ".gitignore"), "dist/\n");
  Deno.writeFileSync(join(dir, "logo.png"), new Uint8Array(4096));
  for (let f = 0; f < FILES; f++) {
    const folder = join(dir, `src/module_${f % 20}`);
    Deno.mkdirSync(folder, { recursive: true });
    const lines: string[] = [];
    for (let i = 0; i < LINES_PER_FILE; i++) {
      lines.push(
        i === 500 && f % 50 === 7
          ? `  const found = lookupNeedleValue(${i}); // the rare match`
          : `  export function handler_${f}_${i}(input: Request): Promise<Response> { return route(input, ${i}); }`,
      );
    }
    Deno.writeTextFileSync(join(folder, `file_${f}.ts`), lines.join("\n"));
  }
}

function hasCommand(name: string): boolean {
  try {
    new Deno.Command(name, { args: ["--version"], stdout: "null" })
      .outputSync();
    return true;
  } catch {
    return false;
  }
}

async function readAllAndCountLines(dir: string): Promise<number> {
  let lines = 0;
  for await (const entry of Deno.readDir(dir)) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (entry.name !== "node_modules") {
        lines += await readAllAndCountLines(path);
      }
    } else if (entry.isFile) {
      const text = new TextDecoder().decode(await Deno.readFile(path));
      for (
        let i = text.indexOf("\n");
        i !== -1;
        i = text.indexOf("\n", i + 1)
      ) {
        lines++;
      }
    }
  }
  return lines;
}

async function run(command: string, args: string[]): Promise<void> {
  await new Deno.Command(command, { args, cwd: root, stdout: "null" }).output();
}

const group = "search 12 MB, 300 files";

Deno.bench({
  group,
  name: "floor: read every file + count newlines",
  baseline: true,
  fn: async () => {
    await readAllAndCountLines(root);
  },
});

Deno.bench({
  group,
  name: "search: rare literal",
  fn: async () => {
    const result = await tools.search.execute({ pattern: "lookupNeedleValue" });
    if (result.matches.length !== 6) throw new Error("wrong match count");
  },
});

Deno.bench({
  group,
  name: "search: rare literal, ignoring case",
  fn: async () => {
    await tools.search.execute({
      pattern: "LOOKUPNEEDLEVALUE",
      caseSensitive: false,
    });
  },
});

Deno.bench({
  group,
  name: "search: regex",
  fn: async () => {
    await tools.search.execute({
      pattern: "lookup\\w+Value\\(\\d+\\)",
      regex: true,
    });
  },
});

Deno.bench({
  group,
  name: "search: common literal, first 100 matches",
  fn: async () => {
    await tools.search.execute({ pattern: "handler_" });
  },
});

Deno.bench({
  group,
  name: "rg subprocess: rare literal",
  ignore: !rgAvailable,
  fn: async () => {
    await run("rg", ["-n", "-F", "lookupNeedleValue"]);
  },
});

Deno.bench({
  group,
  name: "grep -rn subprocess: rare literal",
  fn: async () => {
    await run("grep", [
      "-rn",
      "-F",
      "--exclude-dir=node_modules",
      "lookupNeedleValue",
      ".",
    ]);
  },
});
