// @ts-self-types="./_wasm.d.ts"
// Imported lazily by grammars/grammars.ts; `import source` yields a compiled
// module without any read permission on the npm cache.
import source wasm from "@repomix/tree-sitter-wasms/out/tree-sitter-swift.wasm";

export { wasm };
