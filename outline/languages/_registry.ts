// Every language the outline knows, by file extension. Each language file
// exports one LanguageSpec; the registry takes it from the module whatever its
// export is named, so language files can be added without touching this one.
import type { LanguageSpec } from "./_language.ts";
import * as c from "./c.ts";
import * as cpp from "./cpp.ts";
import * as dart from "./dart.ts";
import { flow } from "./flow.ts";
import * as go from "./go.ts";
import * as javascript from "./javascript.ts";
import * as kotlin from "./kotlin.ts";
import { objc } from "./objc.ts";
import * as python from "./python.ts";
import * as swift from "./swift.ts";
import * as tsx from "./tsx.ts";
import * as typescript from "./typescript.ts";

const MODULES: Record<string, unknown>[] = [
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
];

/** The languages with a tree-sitter grammar, in the specification's order. */
export const LANGUAGES: readonly LanguageSpec[] = MODULES.map(_specOf);

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
  [FLOW_KEY, flow],
  [OBJC_KEY, objc],
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

function _specOf(module: Record<string, unknown>): LanguageSpec {
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
