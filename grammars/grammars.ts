// The pinned grammar table and the loader. Each grammar sits behind its own
// dynamic import (grammars/wasm/<id>.js) so only the languages used are
// compiled; a folder of `.wasm` files (option or FELLO_GRAMMARS_DIR) replaces
// the npm packages, like the specification's grammar directory.
import { type Language, Parser } from "web-tree-sitter";
import { loadZeroedCalloc } from "./_zeroed_calloc.ts";
import { runtime as host } from "../internal/runtime/runtime.ts";

/** The grammars the engine can load. */
export type GrammarId =
  | "typescript"
  | "tsx"
  | "javascript"
  | "python"
  | "go"
  | "c"
  | "cpp"
  | "swift"
  | "kotlin"
  | "dart";

/** Where a grammar comes from: the pinned npm package and its file. */
export interface GrammarSource {
  /** The npm package, version pinned in deno.json. */
  package: string;
  /** The `.wasm` file inside the package; its base name is looked up in a grammars folder. */
  file: string;
}

/** The ten grammars and their pinned packages, chosen for loading in web-tree-sitter 0.27. */
export const GRAMMARS: Readonly<Record<GrammarId, GrammarSource>> = {
  typescript: {
    package: "tree-sitter-typescript@0.23.2",
    file: "tree-sitter-typescript.wasm",
  },
  tsx: {
    package: "tree-sitter-typescript@0.23.2",
    file: "tree-sitter-tsx.wasm",
  },
  javascript: {
    package: "tree-sitter-javascript@0.25.0",
    file: "tree-sitter-javascript.wasm",
  },
  python: {
    package: "tree-sitter-python@0.25.0",
    file: "tree-sitter-python.wasm",
  },
  go: { package: "tree-sitter-go@0.25.0", file: "tree-sitter-go.wasm" },
  c: { package: "tree-sitter-c@0.24.1", file: "tree-sitter-c.wasm" },
  cpp: { package: "tree-sitter-cpp@0.23.4", file: "tree-sitter-cpp.wasm" },
  // Its scanner reads its state from stale heap unless loaded through
  // _zeroed_calloc.ts: a calloc(0, 4) in every tree-sitter-swift release to
  // 0.7.1 (the npm package ships no WASM), so no other build is better.
  swift: {
    package: "@repomix/tree-sitter-wasms@0.1.17",
    file: "out/tree-sitter-swift.wasm",
  },
  kotlin: {
    package: "@tree-sitter-grammars/tree-sitter-kotlin@1.1.0",
    file: "tree-sitter-kotlin.wasm",
  },
  dart: {
    package: "@repomix/tree-sitter-wasms@0.1.17",
    file: "out/tree-sitter-dart.wasm",
  },
};

type WasmModule = { wasm: WebAssembly.Module };

// One module per grammar (grammars/wasm/<id>.js), imported by a computed
// specifier: Deno fetches the npm package behind a literal import() (or a
// template it can expand) at start-up even when it never runs, and the ten
// grammar packages weigh 250 MB. Deno's `import source` needs no read
// permission on the npm cache.
function importWasm(name: string): Promise<WasmModule> {
  const specifier = new URL(`./wasm/${name}.js`, import.meta.url).href;
  return import(specifier);
}

// Bun and Node cannot parse `import source`: they read and compile the
// `.wasm` from the installed package instead.
async function compileFromPackage(
  pkg: string,
  file: string,
): Promise<WebAssembly.Module> {
  const name = pkg.slice(0, pkg.lastIndexOf("@"));
  const { fileURLToPath } = await import("node:url");
  const path = fileURLToPath(import.meta.resolve(`${name}/${file}`));
  return await WebAssembly.compile(await host.readFile(path));
}

/** The environment variable naming a folder of grammar `.wasm` files. */
export const GRAMMARS_DIR_ENV = "FELLO_GRAMMARS_DIR";

/**
 * How a failed load from a grammar folder ends its advice. Callers that know
 * the folder came from elsewhere (an option, a flag) replace it.
 */
export const UNSET_GRAMMARS_DIR = `or unset ${GRAMMARS_DIR_ENV}`;

/** Options for {@linkcode loadLanguage}. */
export interface LoadLanguageOptions {
  /**
   * A folder holding `tree-sitter-<name>.wasm` files to use instead of the
   * npm packages. Defaults to `$FELLO_GRAMMARS_DIR` when set.
   */
  grammarsDir?: string;
  /** The grammar's compiled module, e.g. posted by the main thread; wins over the rest. */
  module?: WebAssembly.Module;
  /** The compiled web-tree-sitter runtime to initialize with, if not done yet. */
  runtime?: WebAssembly.Module;
}

let runtime: Promise<void> | undefined;

/**
 * The compiled web-tree-sitter runtime, imported once per thread. Posting it
 * (or a grammar module) to a worker shares the compiled code, so code that one
 * worker tiered up is fast in the next one too.
 */
export async function runtimeModule(): Promise<WebAssembly.Module> {
  if (host.name !== "deno") {
    return await compileFromPackage(
      "web-tree-sitter@0.27.2",
      "web-tree-sitter.wasm",
    );
  }
  return (await importWasm("web_tree_sitter")).wasm;
}

/** The compiled module of a pinned grammar, imported lazily once per thread. */
export async function grammarModule(
  id: GrammarId,
): Promise<WebAssembly.Module> {
  const { package: pkg, file } = GRAMMARS[id];
  if (host.name !== "deno") return await compileFromPackage(pkg, file);
  return (await importWasm(id)).wasm;
}

/**
 * Initializes web-tree-sitter once per thread (main thread or worker) from its
 * precompiled runtime module (`module`, or the pinned one), so no read access
 * to the npm cache is needed.
 */
export function initTreeSitter(module?: WebAssembly.Module): Promise<void> {
  runtime ??= initRuntime(module).catch((error) => {
    runtime = undefined;
    throw error;
  });
  return runtime;
}

async function initRuntime(module?: WebAssembly.Module): Promise<void> {
  const wasm = module ?? await runtimeModule();
  type InitOptions = NonNullable<Parameters<typeof Parser.init>[0]>;
  const options = {
    instantiateWasm(
      imports: WebAssembly.Imports,
      done: (
        instance: WebAssembly.Instance,
        module: WebAssembly.Module,
      ) => void,
    ): Record<string, never> {
      WebAssembly.instantiate(wasm, imports).then((instance) =>
        done(instance, wasm)
      );
      return {};
    },
    // emscripten prints "Aborted(...)" on stderr as it aborts (a parse out of
    // WASM memory), then throws an error that says the same: the error is
    // what reaches the caller, and the line would be noise beside it.
    printErr(text: string): void {
      if (!text.startsWith("Aborted(")) console.error(text);
    },
  } as unknown as InitOptions;
  await _withoutProcess(() => Parser.init(options));
}

// web-tree-sitter's emscripten glue takes Deno for Node.js when it sees the
// global `process`, and then loads Node's `module` and `fs` to read its WASM
// file: 15-20 ms in a fresh worker (most of it Deno setting up `process`), for
// a file never read here (`instantiateWasm` above gets the module). The glue
// looks once, as Parser.init() starts: `process` is hidden for that
// synchronous moment, and the glue takes neither the Node.js nor the browser
// path, which only read files.
function _withoutProcess<T>(start: () => T): T {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, "process");
  if (!descriptor?.configurable) return start();
  delete (globalThis as { process?: unknown }).process;
  try {
    return start();
  } finally {
    Object.defineProperty(globalThis, "process", descriptor);
  }
}

/**
 * Loads a grammar, from the pinned npm package or from `grammarsDir`.
 * Initializes web-tree-sitter first. Not cached: callers keep the result.
 *
 * Requires `--allow-read` for `grammarsDir` (none for the npm packages), and
 * `--allow-env` to honour `FELLO_GRAMMARS_DIR`.
 *
 * @example Load Go from its pinned npm package
 * ```ts
 * import { loadLanguage } from "./grammars.ts";
 * import assert from "node:assert/strict";
 *
 * // `{ grammarsDir: "/opt/grammars" }` would load a build of your own instead.
 * const go = await loadLanguage("go");
 * assert.ok(go.nodeTypeCount > 100);
 * ```
 */
export async function loadLanguage(
  id: GrammarId,
  options: LoadLanguageOptions = {},
): Promise<Language> {
  await initTreeSitter(options.runtime);
  // Every grammar goes through loadZeroedCalloc: Swift's scanner state is
  // otherwise read from stale heap (see _zeroed_calloc.ts).
  if (options.module !== undefined) return loadZeroedCalloc(options.module);
  const dir = configuredGrammarsDir(options.grammarsDir);
  if (dir !== undefined) return await loadFromDir(id, dir);
  return loadZeroedCalloc(await grammarModule(id));
}

/** The base file name a grammars folder must hold for `id`. */
export function grammarFileName(id: GrammarId): string {
  const file = GRAMMARS[id].file;
  return file.slice(file.lastIndexOf("/") + 1);
}

async function loadFromDir(id: GrammarId, dir: string): Promise<Language> {
  // Imported here: node:path takes an outline worker 6-12 ms to load, and
  // only a grammars folder needs it.
  const { join } = await import("node:path");
  const path = join(dir, grammarFileName(id));
  try {
    // Compiled first: only a synchronous load from a module takes the
    // zeroed calloc.
    const language = loadZeroedCalloc(
      await WebAssembly.compile(await host.readFile(path)),
    );
    // Another language's build under this name would outline nothing: builds
    // of ABI 15 and later carry their name.
    if (language.name && language.name !== id) {
      throw new Error(`it holds the ${language.name} grammar`);
    }
    return language;
  } catch (error) {
    // A missing file and a corrupt or incompatible build both need the same
    // fix, and the bare WASM error ("need to see wasm magic number") names
    // neither the file nor the grammar.
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `Cannot load the ${id} grammar from "${path}": ${reason}; put ${
        grammarFileName(id)
      } there ${UNSET_GRAMMARS_DIR}`,
      { cause: error },
    );
  }
}

/**
 * The grammar folder in force: `grammarsDir` when given, else
 * `$FELLO_GRAMMARS_DIR` when set and readable, else none (the npm packages).
 */
export function configuredGrammarsDir(
  grammarsDir?: string,
): string | undefined {
  const dir = grammarsDir ?? grammarsDirFromEnv();
  return dir === "" ? undefined : dir;
}

function grammarsDirFromEnv(): string | undefined {
  // Reading the variable needs --allow-env; without it, use the packages.
  const state = host.permissions.querySync({
    name: "env",
    variable: GRAMMARS_DIR_ENV,
  }).state;
  return state === "granted" ? host.env.get(GRAMMARS_DIR_ENV) : undefined;
}

/**
 * Creates a parser for a grammar: the helper for a bare parse on any thread
 * (the worker, the bench baseline, tests). Delete its trees, then the parser.
 *
 * @example Parse a snippet
 * ```ts
 * import { createParser } from "./grammars.ts";
 * import assert from "node:assert/strict";
 *
 * const parser = await createParser("python");
 * const tree = parser.parse("def f():\n    pass\n")!;
 * assert.equal(tree.rootNode.type, "module");
 * tree.delete();
 * parser.delete();
 * ```
 *
 * Needs no permission for the pinned grammars.
 */
export async function createParser(
  id: GrammarId,
  options: LoadLanguageOptions = {},
): Promise<Parser> {
  const language = await loadLanguage(id, options);
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}
