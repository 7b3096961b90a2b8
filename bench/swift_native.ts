// Swift outline speed against the native tree-sitter parser: Expo's iOS
// sources (the Swift corpus of _corpora.ts) outlined by a running pool, the
// cache cleared each round, and by a fresh pool, against a whole parse of the same files by the
// `tree-sitter` node binding with the `tree-sitter-swift` grammar, in
// alternating rounds of one run. Not a Deno.bench suite: the native side is
// a node process that times itself. `deno run -A bench/swift_native.ts`
// prints the medians and the ratio.
//
// The first run installs the binding into .bench-data/native/ (pinned
// versions; tree-sitter's addon is built by node-gyp, which needs python3,
// make and g++; tree-sitter-swift ships a prebuilt addon).
import { join } from "node:path";
import { exists } from "../internal/exists.ts";
import { Outliner } from "../outline/outliner.ts";
import { BENCH_DATA } from "../tests/support/npm_package.ts";
import { CORPORA, corpusFiles } from "./_corpora.ts";

const NATIVE = join(BENCH_DATA, "native");
const PACKAGES = ["tree-sitter@0.25.0", "tree-sitter-swift@0.7.1"];
const NODE_GYP = "node-gyp@12.4.0";
const ROUNDS = 7;

// Times ROUNDS whole parses of the files named on stdin (after two warm-up
// rounds) and prints each round's milliseconds as JSON.
const NATIVE_ROUNDS = `
const Parser = require("tree-sitter");
const Swift = require("tree-sitter-swift");
const fs = require("fs");
const paths = fs.readFileSync(0, "utf8").trim().split("\\n");
const texts = paths.map((path) => fs.readFileSync(path, "utf8"));
const parser = new Parser();
parser.setLanguage(Swift);
const parseAll = () => {
  for (const text of texts) {
    parser.parse(text, null, { bufferSize: text.length * 2 + 1024 });
  }
};
parseAll();
parseAll();
const rounds = [];
for (let round = 0; round < Number(process.argv[1]); round++) {
  const start = performance.now();
  parseAll();
  rounds.push(performance.now() - start);
}
console.log(JSON.stringify(rounds));
`;

async function run(
  command: string,
  args: string[],
  options: { cwd?: string; stdin?: string } = {},
): Promise<string> {
  const child = new Deno.Command(command, {
    args,
    cwd: options.cwd,
    stdin: options.stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (options.stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(options.stdin));
    await writer.close();
  }
  const output = await child.output();
  const text = new TextDecoder();
  if (!output.success) {
    throw new Error(
      `${command} ${args.join(" ")} failed: ${text.decode(output.stderr)}`,
    );
  }
  return text.decode(output.stdout);
}

async function installNative(): Promise<void> {
  const addon = join(
    NATIVE,
    "node_modules/tree-sitter/build/Release/tree_sitter_runtime_binding.node",
  );
  if (await exists(addon)) return;
  await Deno.mkdir(NATIVE, { recursive: true });
  // No install scripts: tree-sitter-swift's would download a CLI binary.
  await run("npm", [
    "install",
    "--prefix",
    NATIVE,
    "--ignore-scripts",
    "--no-save",
    "--no-package-lock",
    "--legacy-peer-deps",
    ...PACKAGES,
  ]);
  await run("npx", ["--yes", NODE_GYP, "rebuild"], {
    cwd: join(NATIVE, "node_modules/tree-sitter"),
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

await installNative();
const corpus = CORPORA.find((candidate) => candidate.language === "swift")!;
const paths = await corpusFiles(corpus);
const outliner = new Outliner();
const outlineAll = () =>
  Promise.all(paths.map((path) => outliner.outline(path)));
await outlineAll();
await outlineAll();

const native: number[] = [];
const ours: number[] = [];
for (let round = 0; round < 3; round++) {
  const rounds = await run("node", ["-e", NATIVE_ROUNDS, String(ROUNDS)], {
    cwd: NATIVE,
    stdin: paths.join("\n"),
  });
  native.push(...JSON.parse(rounds));
  for (let i = 0; i < ROUNDS; i++) {
    outliner.clearCache();
    const start = performance.now();
    await outlineAll();
    ours.push(performance.now() - start);
  }
}
await outliner.terminate();

// A fresh pool each time, as a process's first outlines get it: worker
// start, the grammar's compile, and its code not yet optimized by V8.
const cold: number[] = [];
for (let round = 0; round < 5; round++) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  const start = performance.now();
  const fresh = new Outliner();
  await Promise.all(paths.map((path) => fresh.outline(path)));
  cold.push(performance.now() - start);
  await fresh.terminate();
}

const [nativeMs, oursMs, coldMs] = [median(native), median(ours), median(cold)];
console.log(`${corpus.source}: ${paths.length} files`);
console.log(`native tree-sitter whole parse: ${nativeMs.toFixed(1)} ms`);
console.log(`outline, running pool:          ${oursMs.toFixed(1)} ms`);
console.log(
  `ratio (outline / native):       ${(oursMs / nativeMs).toFixed(2)}x`,
);
console.log(`outline, fresh pool:            ${coldMs.toFixed(1)} ms`);
console.log(
  `ratio (outline / native):       ${(coldMs / nativeMs).toFixed(2)}x`,
);
