// Ranks a repository's definitions as aider's repo map does: a graph whose
// edges run from a file to the files defining the names it uses, a
// personalized PageRank over it, and each file's rank shared out along its
// edges to the definitions it references.
import type { FileFacts } from "./_facts.ts";

/** One definition of one file, with its rank. */
export interface RankedDefinition {
  file: string;
  /** Its index in the file's `definitions`. */
  index: number;
  rank: number;
}

/** What the map is about: files, and symbol name paths. */
export interface Focus {
  files: Set<string>;
  symbols: string[];
}

/** Kinds that name a dependency, not a definition of the file's own. */
const NOT_DEFINITIONS = new Set([
  "import",
  "export",
  "package",
  "include",
  "using",
  "heading",
]);

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;
const DAMPING = 0.85;
/** Names defined in more files than this are no references. */
const MAX_DEFINERS = 24;
const ROUNDS = 40;

/** A reference from one file to a name another file defines. */
export interface Edge {
  to: number;
  name: string;
  weight: number;
}

/** Definitions of every file, most relevant first. */
export function rankDefinitions(
  facts: Map<string, FileFacts>,
  focus: Focus,
): RankedDefinition[] {
  const files = [...facts.keys()].sort();
  const all = files.map((file) => facts.get(file)!);
  // Who defines each name, and which definitions of a file carry it.
  const definers = new Map<string, number[]>();
  const byName = all.map(() => new Map<string, number[]>());
  all.forEach(({ definitions }, file) => {
    definitions.forEach((definition, index) => {
      if (NOT_DEFINITIONS.has(definition.kind)) return;
      if (!IDENTIFIER.test(definition.name)) return;
      const own = byName[file];
      if (!own.has(definition.name)) {
        own.set(definition.name, []);
        const list = definers.get(definition.name);
        if (list === undefined) definers.set(definition.name, [file]);
        else list.push(file);
      }
      own.get(definition.name)!.push(index);
    });
  });

  // Focus symbols: their files join the focus, their names weigh more.
  const focusNames = new Set<string>();
  const focusFiles = new Set<number>();
  files.forEach((file, index) => {
    if (focus.files.has(file)) focusFiles.add(index);
  });
  for (const wanted of focus.symbols) {
    all.forEach(({ definitions }, file) => {
      for (const definition of definitions) {
        if (
          definition.path === wanted || definition.path.endsWith(`.${wanted}`)
        ) {
          focusNames.add(definition.name);
          focusFiles.add(file);
        }
      }
    });
  }

  // How many files use each name: a name most files use tells little.
  const users = new Map<string, number>();
  for (const { names } of all) {
    for (const name of names) users.set(name, (users.get(name) ?? 0) + 1);
  }
  const edges: Edge[][] = all.map(() => []);
  all.forEach(({ names }, from) => {
    for (const name of names) {
      const all = definers.get(name);
      // A name defined in that many files tells no file apart.
      if (all === undefined || all.length > MAX_DEFINERS) continue;
      const targets = all.filter((to) => to !== from);
      if (targets.length === 0) continue;
      const weight = nameWeight(name, targets.length, focusNames) *
        (focusFiles.has(from) ? 50 : 1) / targets.length /
        users.get(name)!;
      for (const to of targets) edges[from].push({ to, name, weight });
    }
  });

  const rank = pageRank(merged(edges), focusFiles);
  const scores = all.map(({ definitions }) =>
    new Float64Array(definitions.length)
  );
  edges.forEach((out, from) => {
    const total = out.reduce((sum, edge) => sum + edge.weight, 0);
    for (const edge of out) {
      const share = rank[from] * edge.weight / total;
      const targets = byName[edge.to].get(edge.name)!;
      for (const index of targets) {
        scores[edge.to][index] += share / targets.length;
      }
    }
  });
  const ranked: RankedDefinition[] = [];
  all.forEach(({ definitions }, file) => {
    definitions.forEach((definition, index) => {
      if (NOT_DEFINITIONS.has(definition.kind)) return;
      // Unreferenced definitions follow their file's rank, outer ones first.
      const base = rank[file] * 1e-6 / (1 + definition.depth);
      ranked.push({
        file: files[file],
        index,
        rank: scores[file][index] + base,
      });
    });
  });
  return ranked.sort((a, b) =>
    b.rank - a.rank || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.index - b.index
  );
}

/** aider's weights: specific names count more, common or private ones less. */
function nameWeight(
  name: string,
  definers: number,
  focusNames: Set<string>,
): number {
  let weight = 1;
  if (focusNames.has(name)) weight *= 10;
  const specific = /[a-z][A-Z]|_[a-z]|[a-z]-[a-z]/.test(name);
  if (specific && name.length >= 8) weight *= 10;
  if (name.startsWith("_")) weight *= 0.1;
  if (definers > 5) weight *= 0.1;
  return weight;
}

/** One edge per pair of files, its weight the sum of their names' edges. */
function merged(edges: Edge[][]): Edge[][] {
  return edges.map((out) => {
    const byTarget = new Map<number, number>();
    for (const { to, weight } of out) {
      byTarget.set(to, (byTarget.get(to) ?? 0) + weight);
    }
    return [...byTarget].map(([to, weight]) => ({ to, name: "", weight }));
  });
}

/** PageRank with restarts to `focus` (to every node when it is empty). */
export function pageRank(edges: Edge[][], focus: Set<number>): Float64Array {
  const count = edges.length;
  const restart = new Float64Array(count);
  if (focus.size === 0) restart.fill(1 / Math.max(1, count));
  else for (const node of focus) restart[node] = 1 / focus.size;
  const totals = edges.map((out) => out.reduce((sum, e) => sum + e.weight, 0));
  let rank = Float64Array.from(restart);
  for (let round = 0; round < ROUNDS; round++) {
    const next = new Float64Array(count);
    let dangling = 0;
    for (let from = 0; from < count; from++) {
      if (totals[from] === 0) {
        dangling += rank[from];
        continue;
      }
      for (const edge of edges[from]) {
        next[edge.to] += DAMPING * rank[from] * edge.weight / totals[from];
      }
    }
    for (let node = 0; node < count; node++) {
      next[node] += ((1 - DAMPING) + DAMPING * dangling) * restart[node];
    }
    rank = next;
  }
  return rank;
}
