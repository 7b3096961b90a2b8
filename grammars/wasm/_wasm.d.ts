/** The compiled WebAssembly module of a grammar (or of web-tree-sitter itself). */
export declare const wasm: WebAssembly.Module;
