import assert from "node:assert/strict";
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
