// Project instructions: the AGENTS.md files (CLAUDE.md where a folder has no
// AGENTS.md) of the user's config folder and of the repository root down to
// the workspace, in that order, for the agent's instructions.
import { dirname, join, relative, resolve, sep } from "node:path";
import { tildePath, userConfigFolder } from "../internal/config_folder.ts";
import { runtime } from "../internal/runtime/runtime.ts";
import { CHARS_PER_TOKEN } from "./context_budget.ts";

/**
 * One instructions file found for a workspace.
 *
 * A type only: needs no permission.
 *
 * @example Name the files found
 * ```ts
 * import type { ProjectInstructionsFile } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const files: ProjectInstructionsFile[] = [
 *   { path: "/repo/AGENTS.md", shown: "AGENTS.md", text: "Run deno task ok." },
 * ];
 * assert.equal(files.map((file) => file.shown).join(", "), "AGENTS.md");
 * ```
 */
export interface ProjectInstructionsFile {
  /** The absolute path. */
  path: string;
  /**
   * The path as a person reads it: relative to the repository root for the
   * project's files, with `~` for the home folder for the user's own.
   */
  shown: string;
  /** The file's text. */
  text: string;
}

/** The names read in each folder: the first that exists. */
const NAMES = ["AGENTS.md", "CLAUDE.md"];

/**
 * Finds the instructions files for `workspace`: `AGENTS.md` in the user's
 * config folder (`$XDG_CONFIG_HOME/fello`, else `~/.config/fello`), then in
 * each folder from the repository root (the nearest folder at or above the
 * workspace that holds `.git`, else the workspace) down to the workspace; a
 * folder without `AGENTS.md` gives its `CLAUDE.md` instead. Folders Deno may
 * not read are passed over, never prompted for.
 *
 * Requires `--allow-read` for the folders looked in (those not granted are
 * skipped) and `--allow-env` for the config folder's variables.
 *
 * @example Read a workspace's AGENTS.md
 * ```ts
 * import { findProjectInstructions } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const cwd = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${cwd}/AGENTS.md`, "Run deno task ok before you finish.\n");
 * const files = await findProjectInstructions(cwd, { configFolder: null });
 * assert.deepEqual(files.map((file) => file.shown), ["AGENTS.md"]);
 * ```
 *
 * @param workspace The workspace folder.
 * @param options `configFolder`: the user's folder to read first, or null for none.
 * @returns The files found, in the order they apply (later ones are more specific).
 */
export async function findProjectInstructions(
  workspace: string,
  options: { configFolder?: string | null } = {},
): Promise<ProjectInstructionsFile[]> {
  const files: ProjectInstructionsFile[] = [];
  const configFolder = options.configFolder === undefined
    ? userConfigFolder()
    : options.configFolder ?? undefined;
  if (configFolder) {
    const found = await readFirst(configFolder);
    if (found) files.push({ ...found, shown: tildePath(found.path) });
  }
  const folder = resolve(workspace);
  const root = await repositoryRoot(folder) ?? folder;
  for (const each of foldersDown(root, folder)) {
    const found = await readFirst(each);
    if (!found) continue;
    const shown = relative(root, found.path).split(sep).join("/");
    files.push({ ...found, shown });
  }
  return files;
}

/**
 * The instructions text of `files`: each file's text under its path, the
 * whole cut to `maxTokens` (estimated as the context budget does) with a note.
 *
 * Needs no permission.
 */
export function projectInstructionsText(
  files: readonly ProjectInstructionsFile[],
  maxTokens: number,
): string {
  if (files.length === 0) return "";
  const parts = files.map((file) =>
    `Instructions from ${file.path}:\n${file.text.trim()}`
  );
  const text =
    `The user and the project give these instructions (AGENTS.md files; later ones are more specific and win where they differ):\n\n${
      parts.join("\n\n")
    }`;
  const maxChars = Math.max(1, maxTokens) * CHARS_PER_TOKEN;
  if (text.length <= maxChars) return text;
  return `${text.slice(0, maxChars)}\n(The instructions files are cut here: ${
    text.length - maxChars
  } more characters did not fit in the context budget; read the files for the rest.)`;
}

/** The nearest folder at or above `folder` that holds `.git`, if any. */
async function repositoryRoot(folder: string): Promise<string | undefined> {
  for (let each = folder;; each = dirname(each)) {
    if (await exists(join(each, ".git"))) return each;
    if (dirname(each) === each) return undefined;
  }
}

/** `root`, then each folder down to `folder` (which lies inside it). */
function foldersDown(root: string, folder: string): string[] {
  const folders = [root];
  const rest = relative(root, folder);
  if (rest === "") return folders;
  let each = root;
  for (const name of rest.split(sep)) {
    each = join(each, name);
    folders.push(each);
  }
  return folders;
}

async function readFirst(
  folder: string,
): Promise<{ path: string; text: string } | undefined> {
  for (const name of NAMES) {
    const path = join(folder, name);
    if (!readable(path)) return undefined;
    try {
      const info = await runtime.stat(path);
      if (!info.isFile) continue;
      return { path, text: await runtime.readTextFile(path) };
    } catch {
      // Missing, or unreadable: as if it were not there.
    }
  }
  return undefined;
}

async function exists(path: string): Promise<boolean> {
  if (!readable(path)) return false;
  try {
    await runtime.lstat(path);
    return true;
  } catch {
    return false;
  }
}

// Asked without prompting: a run with a narrow --allow-read must not stop at
// a permission prompt for a folder it never meant to read.
function readable(path: string): boolean {
  try {
    return runtime.permissions.querySync({ name: "read", path }).state ===
      "granted";
  } catch {
    return false;
  }
}
