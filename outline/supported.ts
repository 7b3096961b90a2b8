// Which extensions the outline supports, for lookups on the main thread and
// for the error message that lists them.
import { LANGUAGES } from "./languages/_registry.ts";
import { MARKDOWN_EXTENSIONS } from "./languages/markdown/markdown.ts";

/** Every supported extension, lower case with its dot, in table order. */
export const SUPPORTED_EXTENSIONS: readonly string[] = [
  ...LANGUAGES.flatMap((spec) => spec.extensions),
  ...MARKDOWN_EXTENSIONS,
];

const SUPPORTED = new Set(SUPPORTED_EXTENSIONS);

/** The lower-case extension of `path` (with its dot) when supported. */
export function supportedExtension(path: string): string | undefined {
  const name = path.slice(
    Math.max(path.lastIndexOf("/"), path.lastIndexOf("\\")) + 1,
  );
  const dot = name.lastIndexOf(".");
  if (dot <= 0) return undefined;
  const extension = name.slice(dot).toLowerCase();
  return SUPPORTED.has(extension) ? extension : undefined;
}
