// @ts-self-types="./_wasm.d.ts"
// Imported lazily by grammars/grammars.ts, on Deno only; `import source`
// yields a compiled module without any read permission on the npm cache. The
// full npm: specifier: a computed import() leaves this file out of the graph
// that publishing rewrites bare names in.
import source wasm from "npm:tree-sitter-python@0.25.0/tree-sitter-python.wasm";

export { wasm };
