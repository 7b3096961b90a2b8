// Loads a language's module on first use. The outline worker imports only
// the languages it is asked for: loading every extractor up front cost each
// fresh worker ~10 ms before its first parse (a cold outline waits for it).
import type { LanguageSpec } from "./_language.ts";

const LOADERS = {
  typescript: () => import("./ecmascript/typescript.ts"),
  tsx: () => import("./ecmascript/tsx.ts"),
  javascript: () => import("./ecmascript/javascript.ts"),
  python: () => import("./python/python.ts"),
  go: () => import("./go/go.ts"),
  c: () => import("./c_family/c.ts"),
  cpp: () => import("./c_family/cpp.ts"),
  swift: () => import("./swift/swift.ts"),
  kotlin: () => import("./kotlin/kotlin.ts"),
  dart: () => import("./dart/dart.ts"),
  flow: () => import("./ecmascript/flow.ts"),
  objc: () => import("./c_family/objc.ts"),
};

/** The name of a language file (without its folder and `.ts`), which says how to load it. */
export type LanguageId = keyof typeof LOADERS;

const loaded = new Map<LanguageId, Promise<LanguageSpec>>();

/** The spec of language `id`, importing its module on the first call. */
export function loadLanguageSpec(id: LanguageId): Promise<LanguageSpec> {
  let spec = loaded.get(id);
  if (spec === undefined) {
    spec = LOADERS[id]().then(specOf);
    loaded.set(id, spec);
  }
  return spec;
}

/**
 * The LanguageSpec a language module exports, whatever its export is named,
 * so language files can be added without touching the code that loads them.
 */
export function specOf(module: Record<string, unknown>): LanguageSpec {
  const spec = Object.values(module).find(_isSpec);
  if (spec === undefined) {
    throw new Error("A language file exports no LanguageSpec");
  }
  return spec;
}

function _isSpec(value: unknown): value is LanguageSpec {
  return typeof value === "object" && value !== null &&
    typeof (value as LanguageSpec).extract === "function" &&
    Array.isArray((value as LanguageSpec).extensions);
}
