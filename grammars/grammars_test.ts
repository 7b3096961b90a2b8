// The pinned grammars: loading each one, a grammar folder, and the
// web-tree-sitter runtime's start in a process of its own.
import assert from "node:assert/strict";
import { join } from "node:path";
import { decoded } from "../tests/support/fello_cli.ts";
import { runDeno } from "../tests/support/run_deno.ts";
import { withWorkspace } from "../tests/support/workspace.ts";
import {
  createParser,
  grammarFileName,
  type GrammarId,
  GRAMMARS,
  loadLanguage,
} from "./grammars.ts";

const SNIPPETS: Record<GrammarId, [string, string]> = {
  typescript: ["let x: number = <number>y;", "program"],
  tsx: ["const a = <div />;", "program"],
  javascript: ["const a = <div />;", "program"],
  python: ["def f():\n    pass\n", "module"],
  go: ["package main\n", "source_file"],
  c: ["int main(void) { return 0; }\n", "translation_unit"],
  cpp: ["namespace a { class B {}; }\n", "translation_unit"],
  swift: ["struct S {}\n", "source_file"],
  kotlin: ["fun f() {}\n", "source_file"],
  dart: ["void main() {}\n", "program"],
};

Deno.test("createParser() loads each of the ten pinned grammars and parses without errors", async () => {
  for (const id of Object.keys(GRAMMARS) as GrammarId[]) {
    const parser = await createParser(id);
    const [source, rootType] = SNIPPETS[id];
    const tree = parser.parse(source);
    assert.ok(tree !== null, id);
    try {
      assert.equal(tree.rootNode.type, rootType, id);
      assert.equal(tree.rootNode.hasError, false, `${id}: ${tree.rootNode}`);
    } finally {
      tree.delete();
      parser.delete();
    }
  }
});

Deno.test("loadLanguage() reads a grammars folder and names the missing file", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await assert.rejects(
      loadLanguage("go", { grammarsDir: dir }),
      new Error(
        `Cannot load the go grammar from "${dir}/tree-sitter-go.wasm": No such file or directory (os error 2): readfile '${dir}/tree-sitter-go.wasm'; put tree-sitter-go.wasm there or unset FELLO_GRAMMARS_DIR`,
      ),
    );
    assert.equal(grammarFileName("swift"), "tree-sitter-swift.wasm");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

// tree-sitter-swift's scanner allocates its state with calloc(0, 4): without
// the zeroed calloc, every parse after the first read a stale heap word, took
// no `#` for a directive and made `let a` an ERROR.
Deno.test("createParser() gives Swift the same tree on every parse", async () => {
  const parser = await createParser("swift");
  try {
    const trees: string[] = [];
    for (const text of ["#if DEBUG\nlet a = 1\n#endif\n", "struct S {}\n"]) {
      for (let i = 0; i < 3; i++) {
        const tree = parser.parse(text)!;
        trees.push(tree.rootNode.toString());
        tree.delete();
      }
    }
    assert.deepEqual(trees, [
      ...Array(3).fill(
        "(source_file (directive (simple_identifier)) (property_declaration (value_binding_pattern) name: (pattern bound_identifier: (simple_identifier)) value: (integer_literal)) (directive))",
      ),
      ...Array(3).fill(
        "(source_file (class_declaration name: (type_identifier) body: (class_body)))",
      ),
    ]);
  } finally {
    parser.delete();
  }
});

Deno.test("initializing web-tree-sitter leaves the global process as it was", async () => {
  // In a process of its own: the runtime initializes once per thread.
  const grammars = new URL("./grammars.ts", import.meta.url).href;
  const script = `
    const before = Object.getOwnPropertyDescriptor(globalThis, "process");
    const { createParser } = await import(${JSON.stringify(grammars)});
    const parser = await createParser("typescript");
    const after = Object.getOwnPropertyDescriptor(globalThis, "process");
    console.log(JSON.stringify({
      root: parser.parse("let a = 1;").rootNode.type,
      same: before.get === after.get && before.configurable === after.configurable,
      node: typeof process.versions.node,
    }));`;
  const { code, stdout, stderr } = decoded(
    await new Deno.Command(Deno.execPath(), {
      args: [
        "eval",
        `--config=${new URL("../deno.json", import.meta.url).pathname}`,
        script,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output(),
  );
  assert.equal(code, 0, stderr);
  assert.deepEqual(JSON.parse(stdout), {
    root: "program",
    same: true,
    node: "string",
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
const { createParser } = await import(${
  JSON.stringify(new URL("./grammars.ts", import.meta.url).href)
});
const parser = await createParser("go");
ticking = false;
await other;
const tree = parser.parse("package main\\n");
console.log(JSON.stringify({ glue, seen: [...seen], other: globalThis.__other, ticked: ticks > 3, root: tree.rootNode.type, node: typeof process.versions.node }));
tree.delete();
parser.delete();
`;

Deno.test("createParser() never hides process from code that runs while web-tree-sitter initializes", async () => {
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
