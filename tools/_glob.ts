// The `glob` filter of search, with ripgrep's meaning: gitignore-style globs
// (`*.ts` matches at any depth, `src/**/*.ts` from the search root, a leading
// `!` excludes), plus `{a,b}` alternatives, which gitignore lacks.
import ignore from "ignore";

/** Decides which files (paths relative to the search root, `/`-separated) pass. */
export type GlobFilter = (relativePath: string) => boolean;

/** Builds the filter for a glob; a bad glob throws an Error naming it. */
export function globFilter(glob: string): GlobFilter {
  const negated = glob.startsWith("!");
  // "./src/*.ts" means "src/*.ts"; "*.ts,*.md" (a common slip) means "{*.ts,*.md}".
  let body = (negated ? glob.slice(1) : glob).trim().replace(/^\.\//, "");
  if (body === "") throw new Error(`glob ${JSON.stringify(glob)} is empty`);
  if (hasTopLevelComma(body)) body = `{${body}}`;
  const rules = ignore().add(expandBraces(body));
  return (relativePath) => rules.ignores(relativePath) !== negated;
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

/** Expands `{a,b}` alternatives, nested ones included: `*.{ts,tsx}` -> 2 globs. */
export function expandBraces(glob: string): string[] {
  const open = glob.indexOf("{");
  if (open === -1) return [glob];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < glob.length; i++) {
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
      return bounds.slice(1).flatMap((end, k) =>
        expandBraces(head + glob.slice(bounds[k] + 1, end) + tail)
      );
    }
  }
  return [glob];
}
