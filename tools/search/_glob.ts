// The `glob` filter of search, with ripgrep's meaning: gitignore-style globs
// (`*.ts` matches at any depth, `src/**/*.ts` from the search root, a leading
// `!` excludes), plus `{a,b}` alternatives, which gitignore lacks.
import ignore from "ignore";

/**
 * `**` per glob. The matcher turns each into a repeated group, and the time
 * to match a path grows as its depth to the power of their number: eight of
 * them took seconds on a path 40 folders deep.
 */
const MAX_GLOBSTARS = 3;

/** Decides which files (paths relative to the search root, `/`-separated) pass. */
export type GlobFilter = (relativePath: string) => boolean;

/** Builds the filter for a glob; a bad glob throws an Error naming it. */
export function globFilter(glob: string): GlobFilter {
  const negated = glob.startsWith("!");
  // "./src/*.ts" means "src/*.ts"; "*.ts,*.md" (a common slip) means "{*.ts,*.md}".
  let body = (negated ? glob.slice(1) : glob).trim().replace(/^\.\//, "");
  if (body === "") throw new Error(`glob ${JSON.stringify(glob)} is empty`);
  _requireBalanced(body);
  if (hasTopLevelComma(body)) body = `{${body}}`;
  if (body.split("**").length - 1 > MAX_GLOBSTARS) {
    throw new Error(
      `it has more than ${MAX_GLOBSTARS} "**" (each one multiplies the time to match a deep path)`,
    );
  }
  // Case-sensitive, as ripgrep's --glob (its --iglob is the other one).
  const rules = ignore({ ignorecase: false }).add(expandBraces(body));
  return (relativePath) => rules.ignores(relativePath) !== negated;
}

// An unclosed `{` or `[` matches nothing at all, silently: "no matches"
// would tell the model the text is absent.
function _requireBalanced(glob: string): void {
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === "\\") i++;
    else if (char === "{") braces++;
    else if (char === "}" && --braces < 0) {
      throw new Error('it has a "}" with no "{" before it');
    } else if (char === "[") {
      const close = glob.indexOf("]", i + 2);
      if (close < 0) {
        throw new Error(
          'it has an unclosed "["; write a character class as [abc], or \\[ for the character',
        );
      }
      i = close;
    }
  }
  if (braces > 0) {
    throw new Error(
      'it has an unclosed "{"; write alternatives as *.{ts,tsx}',
    );
  }
}

function hasTopLevelComma(glob: string): boolean {
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const char = glob[i];
    if (char === "\\") i++;
    else if (char === "{") depth++;
    else if (char === "}") depth--;
    else if (char === "," && depth === 0) return true;
  }
  return false;
}

/**
 * Glob patterns one glob may expand to. Alternatives multiply (`{a,b}` ten
 * times is 1,024 patterns), and the matcher holds a regular expression for
 * each: eighteen pairs ran the process out of memory.
 */
export const MAX_EXPANDED_GLOBS = 256;

/**
 * Expands `{a,b}` alternatives, nested ones included: `*.{ts,tsx}` -> 2
 * globs. Throws when that makes more than {@linkcode MAX_EXPANDED_GLOBS}.
 */
export function expandBraces(glob: string): string[] {
  const globs: string[] = [];
  _expand(glob, globs);
  return globs;
}

// Depth first into `globs`, stopping as soon as there are too many.
function _expand(glob: string, globs: string[]): void {
  const open = glob.indexOf("{");
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; open !== -1 && i < glob.length; i++) {
    const char = glob[i];
    if (char === "\\") i++;
    else if (char === "{") depth++;
    else if (char === ",") {
      if (depth === 1) commas.push(i);
    } else if (char === "}" && --depth === 0) {
      if (commas.length === 0) break;
      const head = glob.slice(0, open);
      const tail = glob.slice(i + 1);
      const bounds = [open, ...commas, i];
      for (let k = 1; k < bounds.length; k++) {
        _expand(head + glob.slice(bounds[k - 1] + 1, bounds[k]) + tail, globs);
      }
      return;
    }
  }
  globs.push(glob);
  if (globs.length > MAX_EXPANDED_GLOBS) {
    throw new Error(
      `its {a,b} alternatives make more than ${MAX_EXPANDED_GLOBS} patterns`,
    );
  }
}
