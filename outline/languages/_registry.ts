// Every language the outline knows, by file extension, for the main thread
// (the worker loads only the languages it is asked for, see _loaders.ts). Each
// language file exports one LanguageSpec; the registry takes it from the
// module whatever its export is named.
import type { LanguageSpec } from "./_language.ts";
import { type LanguageId, specOf } from "./_loaders.ts";
import * as c from "./c_family/c.ts";
import * as cpp from "./c_family/cpp.ts";
import * as dart from "./dart/dart.ts";
import * as flow from "./ecmascript/flow.ts";
import * as go from "./go/go.ts";
import * as javascript from "./ecmascript/javascript.ts";
import * as kotlin from "./kotlin/kotlin.ts";
import * as objc from "./c_family/objc.ts";
import * as python from "./python/python.ts";
import * as swift from "./swift/swift.ts";
import * as tsx from "./ecmascript/tsx.ts";
import * as typescript from "./ecmascript/typescript.ts";

// The languages of the specification's table, in its order; then the
// dialects chosen by a file's content (see _dialect.ts). Each under the id
// the worker loads it by: the type checker holds the two lists together.
const TABLE = {
  typescript,
  tsx,
  javascript,
  python,
  go,
  c,
  cpp,
  swift,
  kotlin,
  dart,
} satisfies Partial<Record<LanguageId, unknown>>;
const DIALECTS = { flow, objc } satisfies Partial<Record<LanguageId, unknown>>;
const MODULES: Record<LanguageId, Record<string, unknown>> = {
  ...TABLE,
  ...DIALECTS,
};
const IDS: ReadonlyMap<LanguageSpec, LanguageId> = new Map(
  (Object.keys(MODULES) as LanguageId[]).map((id) => [specOf(MODULES[id]), id]),
);

/** The languages with a tree-sitter grammar, in the specification's order. */
export const LANGUAGES: readonly LanguageSpec[] = Object.values(TABLE).map(
  specOf,
);

/**
 * The key of JavaScript with Flow types, chosen by a file's content (see
 * _dialect.ts); no file name ends so, and no error lists it.
 */
export const FLOW_KEY = ".js (flow)";

/**
 * The key of an Objective-C header, chosen by its content (see _dialect.ts);
 * no file name ends so, and no error lists it.
 */
export const OBJC_KEY = ".h (objective-c)";

const BY_EXTENSION: ReadonlyMap<string, LanguageSpec> = new Map([
  ...LANGUAGES.flatMap((spec) =>
    spec.extensions.map((ext) => [ext, spec] as const)
  ),
  [FLOW_KEY, specOf(flow)],
  [OBJC_KEY, specOf(objc)],
]);

/**
 * The language for a lower-case extension with its dot (e.g. `.ts`), or
 * for {@linkcode FLOW_KEY} or {@linkcode OBJC_KEY}.
 */
export function languageForExtension(
  extension: string,
): LanguageSpec | undefined {
  return BY_EXTENSION.get(extension);
}

/** The id the worker loads `spec` by (see _loaders.ts). */
export function languageId(spec: LanguageSpec): LanguageId {
  return IDS.get(spec)!;
}
