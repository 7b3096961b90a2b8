// What ripgrep's arguments make it read: the paths it searches and the files
// it takes patterns or ignore rules from, apart from patterns, globs and
// numbers, so that only real paths are checked against the workspace.

/** Short options that take a value, attached (`-C2`) or as the next argument. */
const SHORT_WITH_VALUE = new Set("ABCEMdefgjmrtT");
/** Long options that take a value, as `--name=value` or the next argument. */
const LONG_WITH_VALUE = new Set([
  "after-context",
  "before-context",
  "color",
  "colors",
  "context",
  "context-separator",
  "dfa-size-limit",
  "encoding",
  "engine",
  "field-context-separator",
  "field-match-separator",
  "file",
  "generate",
  "glob",
  "hostname-bin",
  "hyperlink-format",
  "iglob",
  "ignore-file",
  "max-columns",
  "max-count",
  "max-depth",
  "max-filesize",
  "path-separator",
  "pre",
  "pre-glob",
  "regex-size-limit",
  "regexp",
  "replace",
  "sort",
  "sortr",
  "threads",
  "type",
  "type-add",
  "type-clear",
  "type-not",
]);
/** Options whose value is a file ripgrep reads. */
const PATH_VALUES = new Set(["f", "file", "ignore-file"]);
/** Options that give the pattern, so every positional argument is a path. */
const PATTERN_VALUES = new Set(["e", "regexp", "f", "file"]);
/** Options that make ripgrep take no pattern at all (every positional is a path). */
const NO_PATTERN = new Set(["files", "type-list"]);

/** What {@linkcode rgReads} finds in ripgrep's arguments. */
export interface RgReads {
  /** Paths to search and files read for patterns or ignore rules. */
  paths: string[];
  /** Whether `-L`/`--follow` makes it follow symlinks, maybe out of a folder. */
  follows: boolean;
}

/**
 * The paths ripgrep reads with `args`: its positional paths (not the pattern,
 * which `--files` does without) and the values of `-f`/`--file`/`--ignore-file`. A long option it does not
 * know with an attached value counts that value as a path, to be safe.
 */
export function rgReads(args: readonly string[]): RgReads {
  const paths: string[] = [];
  const positionals: string[] = [];
  let patternGiven = false;
  let follows = false;
  const take = (name: string, value: string | undefined) => {
    if (PATTERN_VALUES.has(name)) patternGiven = true;
    if (PATH_VALUES.has(name) && value !== undefined) paths.push(value);
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const [name, ...rest] = arg.slice(2).split("=");
      const attached = rest.length > 0 ? rest.join("=") : undefined;
      if (name === "follow") follows = true;
      if (name === "no-follow") follows = false;
      if (NO_PATTERN.has(name)) patternGiven = true;
      if (LONG_WITH_VALUE.has(name)) {
        take(name, attached ?? args[++i]);
      } else if (attached !== undefined) {
        paths.push(attached);
      }
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      // A cluster of short flags; the first that takes a value ends it.
      for (let j = 1; j < arg.length; j++) {
        const flag = arg[j];
        if (flag === "L") follows = true;
        if (SHORT_WITH_VALUE.has(flag)) {
          take(flag, j + 1 < arg.length ? arg.slice(j + 1) : args[++i]);
          break;
        }
      }
      continue;
    }
    positionals.push(arg);
  }
  paths.push(...(patternGiven ? positionals : positionals.slice(1)));
  return { paths, follows };
}
