// Loads a grammar's compiled module with a `calloc` that never hands out a
// zero-byte block.
//
// Why: tree-sitter-swift's external scanner (every release up to 0.7.1, so
// every published WASM build, @repomix/tree-sitter-wasms@0.1.17 included)
// creates its state with `calloc(0, sizeof(struct ScannerState))`: the
// arguments are swapped, so it gets zero bytes and reads its 4-byte state
// (`ongoing_raw_str_hash_count`) from whatever the heap held there last. Its
// `deserialize` ignores the empty state a parse starts with, so nothing ever
// sets it, and web-tree-sitter creates the scanner anew for every parse. The
// first parse in a fresh worker reads 0 (fresh memory); later ones read a
// stale heap word (16252 here), and the same text gives two different trees.
// With the stale word the scanner takes no `#` for a directive and, wherever a
// raw string could start, reads on to the end of the file looking for 16252
// `#`s: a warm parse of a 1 MB Swift file took 23-40 s (one with `#if` lines
// 361 s) instead of 0.3 s.
//
// The grammar module imports `calloc` from the runtime, so the fix is at that
// import: a request for zero elements (or zero-sized ones) gets one zeroed
// element, which is what the scanner meant and still a valid answer to a
// zero-byte calloc. It costs one JavaScript call per parse, and only Swift
// asks for zero bytes (the other nine grammars were checked). Only a
// synchronous load can be given its imports this way: web-tree-sitter builds
// the instance with `new WebAssembly.Instance(module, imports)` inside
// `Language.loadSync`, and nothing else runs on this thread meanwhile.
import { Language } from "web-tree-sitter";

type Calloc = (count: number, size: number) => number;

/**
 * Loads a grammar from its compiled module, its `calloc` import rounding a
 * zero count or size up to one (see the note at the top of this file).
 */
export function loadZeroedCalloc(module: WebAssembly.Module): Language {
  const Instance = WebAssembly.Instance;
  WebAssembly.Instance = new Proxy(Instance, {
    construct(target, args: [WebAssembly.Module, WebAssembly.Imports?]) {
      const [instanced, imports] = args;
      return Reflect.construct(target, [
        instanced,
        instanced === module ? _withZeroedCalloc(imports) : imports,
      ]);
    },
  });
  try {
    return Language.loadSync(module);
  } finally {
    WebAssembly.Instance = Instance;
  }
}

// The same imports, `env.calloc` wrapped. Looked up lazily, as the runtime's
// own import object does (it resolves a symbol on first use).
function _withZeroedCalloc(
  imports: WebAssembly.Imports | undefined,
): WebAssembly.Imports | undefined {
  const env = imports?.env;
  if (env === undefined) return imports;
  let wrapped: Calloc | undefined;
  const zeroed = new Proxy(env, {
    get(target, name) {
      const value = Reflect.get(target, name);
      if (name !== "calloc" || typeof value !== "function") return value;
      const calloc = value as Calloc;
      wrapped ??= (count, size) => calloc(count || 1, size || 1);
      return wrapped;
    },
  });
  return { ...imports, env: zeroed };
}
