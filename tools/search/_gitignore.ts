// The .gitignore rules in force for one folder of a search: one layer per
// folder that has a .gitignore, the deepest layer with an opinion winning, as
// in git (a child's `!pattern` re-includes what a parent ignored).
import { exists } from "../../internal/exists.ts";
import { dirname, join, relative, sep } from "node:path";
import { GitIgnoreRules } from "./_gitignore_rules.ts";
import { isWithin } from "../../internal/paths.ts";
import { runtime } from "../../internal/runtime/runtime.ts";

interface Layer {
  /** The folder the rules are relative to. */
  base: string;
  rules: GitIgnoreRules;
}

/** An immutable stack of .gitignore layers; `enter()` adds a folder's. */
export class GitIgnore {
  #layers: readonly Layer[];

  constructor(layers: readonly Layer[] = []) {
    this.#layers = layers;
  }

  /**
   * The rules that apply inside `root`: the .gitignore files of its parent
   * folders up to the git repository root (or the workspace root, when no
   * repository is found first), and `.git/info/exclude`. When those rules
   * ignore `root` itself, the caller asked for it explicitly, so they are
   * dropped, as ripgrep does for paths named on its command line.
   */
  static async above(root: string, workspace: string): Promise<GitIgnore> {
    let layers: Layer[] = [];
    let repository = false;
    for (let folder = root;;) {
      // The root's own .gitignore is added by `enter(root)`.
      const layer = folder === root
        ? undefined
        : await readLayer(folder, ".gitignore");
      if (layer) layers.unshift(layer);
      if (await exists(join(folder, ".git"))) {
        const exclude = await readLayer(folder, ".git/info/exclude");
        if (exclude) layers.unshift(exclude);
        repository = true;
        break;
      }
      const parent = dirname(folder);
      if (parent === folder) break;
      folder = parent;
    }
    // Outside a repository, a stray ~/.gitignore must not hide the workspace.
    if (!repository) layers = layers.filter((l) => isWithin(workspace, l.base));
    const stack = new GitIgnore(layers);
    return stack.ignores(root, true) ? new GitIgnore() : stack;
  }

  /** Whether no rules are in force. */
  get empty(): boolean {
    return this.#layers.length === 0;
  }

  /** The stack for the entries of `folder`, adding its own .gitignore. */
  async enter(folder: string): Promise<GitIgnore> {
    const layer = await readLayer(folder, ".gitignore");
    return layer ? new GitIgnore([...this.#layers, layer]) : this;
  }

  /** Whether an absolute path is ignored; folders match `dir/` patterns. */
  ignores(path: string, isDirectory: boolean): boolean {
    for (let i = this.#layers.length - 1; i >= 0; i--) {
      const { base, rules } = this.#layers[i];
      let rel = relative(base, path);
      if (rel === "" || rel.startsWith("..")) continue;
      if (sep !== "/") rel = rel.split(sep).join("/");
      const ignored = rules.ignores(isDirectory ? `${rel}/` : rel);
      if (ignored !== undefined) return ignored;
    }
    return false;
  }
}

async function readLayer(
  folder: string,
  name: string,
): Promise<Layer | undefined> {
  let text: string;
  try {
    text = await runtime.readTextFile(join(folder, name));
  } catch {
    // Missing, unreadable or not permitted: no rules from this file.
    return undefined;
  }
  return {
    base: folder,
    rules: new GitIgnoreRules(collapseStars(text), {
      ignoreCase: IGNORE_CASE,
    }),
  };
}

/**
 * Whether rules match regardless of case: as git's core.ignorecase defaults,
 * on the case-insensitive file systems of macOS and Windows only (the ignore
 * package, which parses the rules, defaults to yes everywhere, so `core` hid
 * a `Core/` folder).
 */
const IGNORE_CASE = runtime.build.os !== "linux";

/**
 * The rules with each run of `**` segments written once (`a/**\/**\/b` is
 * `a/**\/b`, and git reads `***` as `**`): the same matches, while the
 * matcher's time grows exponentially with the run's length (8 in a row took
 * 1.7 s per path).
 */
export function collapseStars(text: string): string {
  return text.replace(/(^|\/)\*{3,}(?=\/|\s*$)/gm, "$1**")
    .replace(/(^|\/)\*\*\/(?:\*\*\/)+/gm, "$1**/")
    .replace(/(^|\/)\*\*(?:\/\*\*)+(?=\s*$)/gm, "$1**");
}
