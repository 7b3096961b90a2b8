// @ts-self-types="./_wasm.d.ts"
// Imported lazily by grammars/grammars.ts, on Deno only; `import source`
// yields a compiled module without any read permission on the npm cache. The
// full npm: specifier: a computed import() leaves this file out of the graph
// that publishing rewrites bare names in.
import source wasm from "npm:tree-sitter-c@0.24.1/tree-sitter-c.wasm";

export { wasm };
