/**
 * The repo map: the most relevant definitions of a whole repository within a
 * token budget. Definitions come from the outline engine, references are the
 * identifiers each file uses that name a definition in another file, and a
 * personalized PageRank over that graph orders files and definitions.
 *
 * @module
 */
import { runtime } from "../../internal/runtime/runtime.ts";
import type { FileInfo } from "../../internal/runtime/runtime.ts";
import { isAbsolute, join, relative, resolve, sep } from "node:path";
import { estimateTokens } from "../../internal/tokens.ts";
import { ToolError } from "../../internal/tool_error.ts";
import { Outliner } from "../../outline/outliner.ts";
import { mapFiles } from "./_files.ts";
import { RepoMapCache } from "./_cache.ts";
import { type Definition, type FileFacts, flatten } from "./_facts.ts";
import { rankDefinitions, type RankedDefinition } from "./_rank.ts";
import { renderMap } from "./_render.ts";

/** The smallest budget a map may be asked for, in tokens. */
export const MIN_MAP_TOKENS = 256;

/** The budget without `tokens`, as aider's `--map-tokens`. */
export const DEFAULT_MAP_TOKENS = 1024;

/** Options for {@linkcode repoMap}. */
export interface RepoMapOptions {
  /** The budget in tokens (4 ASCII characters a token); default 1,024, at least 256. */
  tokens?: number;
  /**
   * What the map is about: paths of files (relative to the root or absolute)
   * or name paths of symbols (`Outliner.run`, `parse`). The files, and the
   * files that define those symbols, personalize the ranking.
   */
  focus?: string[];
  /** Stops the map (rejecting with the reason) when aborted. */
  signal?: AbortSignal;
  /**
   * Where per-file results are kept between processes; defaults to
   * `repo-map` in fello's state folder. `false` keeps them in memory only.
   */
  cacheDir?: string | false;
}

let outliner: Outliner | undefined;

/**
 * Maps the repository below `root`: files in rank order, each with its
 * chosen definitions in the `file_outline` line format, and a last line
 * saying what was left out. The estimate never exceeds `tokens`.
 *
 * Requires `--allow-read` on the tree, `--allow-env` to find the state
 * folder, and `--allow-write` there for the cache (without it, the cache
 * stays in memory).
 *
 * @example Map a small repository around one file
 * ```ts
 * import { repoMap } from "@fello/agent";
 * import assert from "node:assert/strict";
 *
 * const root = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${root}/a.ts`, 'import { parse } from "./b.ts";\nexport const run = () => parse("x");\n');
 * await Deno.writeTextFile(`${root}/b.ts`, "export function parse(text: string) {\n  return text;\n}\n");
 * const map = await repoMap(root, { focus: ["a.ts"], cacheDir: false });
 * assert.match(map, /^b\.ts\n {4}function parse \(lines 1-3\)$/m);
 * ```
 *
 * @param root The repository's folder.
 * @param options Budget, focus and cancellation.
 * @returns The map as text.
 */
export async function repoMap(
  root: string,
  options: RepoMapOptions = {},
): Promise<string> {
  const tokens = options.tokens ?? DEFAULT_MAP_TOKENS;
  if (!Number.isFinite(tokens) || tokens < MIN_MAP_TOKENS) {
    throw new ToolError(
      `Cannot map "${root}": tokens must be a number of at least ${MIN_MAP_TOKENS}, got ${tokens}`,
    );
  }
  const folder = resolve(root);
  const files = await mapFiles(folder, root, options.signal);
  const cache = await RepoMapCache.open(folder, options.cacheDir);
  const facts = await readFacts(folder, files, cache, options.signal);
  await cache.save(facts);
  const ranked = rankedOnce(folder, facts, options.focus ?? []);
  return renderMap(ranked, facts, tokens, estimateTokens);
}

/** The last ranking of each root, reused while no file and no focus changed. */
const rankings = new Map<
  string,
  { facts: Map<string, FileFacts>; focus: string; ranked: RankedDefinition[] }
>();

function rankedOnce(
  folder: string,
  facts: Map<string, FileFacts>,
  focus: string[],
): RankedDefinition[] {
  const key = JSON.stringify(focus);
  const last = rankings.get(folder);
  // By path: files re-read come last in `facts`, the others in walk order.
  if (
    last !== undefined && last.focus === key &&
    last.facts.size === facts.size &&
    [...facts].every(([file, entry]) => last.facts.get(file) === entry)
  ) {
    return last.ranked;
  }
  const ranked = rankDefinitions(facts, focusOf(folder, focus));
  rankings.set(folder, { facts, focus: key, ranked });
  return ranked;
}

/** The focus split into files (relative paths) and symbol name paths. */
function focusOf(
  folder: string,
  focus: string[],
): { files: Set<string>; symbols: string[] } {
  const files = new Set<string>();
  const symbols: string[] = [];
  for (const item of focus) {
    const absolute = isAbsolute(item) ? item : join(folder, item);
    const rel = relative(folder, absolute).split(sep).join("/");
    if (/[/\\]|\.[a-z0-9]+$/i.test(item) && !rel.startsWith("..")) {
      files.add(rel);
    } else symbols.push(item);
  }
  return { files, symbols };
}

/** Definitions and used names of every file, from the cache where unchanged. */
async function readFacts(
  folder: string,
  files: string[],
  cache: RepoMapCache,
  signal?: AbortSignal,
): Promise<Map<string, FileFacts>> {
  const facts = new Map<string, FileFacts>();
  const stale: { file: string; size: number; mtimeMs: number }[] = [];
  for (const file of files) {
    signal?.throwIfAborted();
    let stat: FileInfo;
    try {
      // Sync: thousands of awaited stats cost more than the stats.
      stat = runtime.statSync(join(folder, file));
    } catch {
      continue;
    }
    const mtimeMs = stat.mtime?.getTime() ?? 0;
    const known = cache.get(file, stat.size, mtimeMs);
    if (known) facts.set(file, known);
    else stale.push({ file, size: stat.size, mtimeMs });
  }
  outliner ??= new Outliner();
  const engine = outliner;
  // Enough in flight to keep every worker busy while replies are unpacked.
  let next = 0;
  const lanes = Array.from({ length: 8 }, async () => {
    while (next < stale.length) {
      const { file, size, mtimeMs } = stale[next++];
      signal?.throwIfAborted();
      let definitions: Definition[] = [];
      let names: string[] = [];
      try {
        const outlined = await engine.outlineWithNames(join(folder, file), {
          signal,
        });
        definitions = flatten(outlined.result.symbols);
        names = outlined.names;
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        // A file that cannot be outlined (binary, too big, unreadable) maps
        // to nothing, and is not read again until it changes.
        if (!(error instanceof ToolError)) throw error;
      }
      const entry = { size, mtimeMs, definitions, names };
      cache.set(file, entry);
      facts.set(file, entry);
    }
  });
  await Promise.all(lanes);
  return facts;
}
