// @ts-self-types="./_wasm.d.ts"
// Imported lazily by grammars/grammars.ts; `import source` yields a compiled
// module without any read permission on the npm cache.
import source wasm from "tree-sitter-cpp/tree-sitter-cpp.wasm";

export { wasm };
