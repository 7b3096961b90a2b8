// Ranks a repository's definitions as aider's repo map does: a graph whose
// edges run from a file to the files defining the names it uses, a
// personalized PageRank over it, and each file's rank shared out along its
// edges to the definitions it references. The graph lives in flat typed
// arrays: a large tree has hundreds of thousands of edges, which as objects
// cost more to build and walk than the ranking itself.
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

/** The files defining one name, and in each the definitions carrying it. */
interface Definers {
  name: string;
  files: number[];
  indices: number[][];
  /** How many files use the name. */
  users: number;
}

/** Directed weighted edges between files, grouped by source (CSR). */
export interface Graph {
  /** Edges of file `f` are `start[f]` up to `start[f + 1]`. */
  start: Int32Array;
  to: Int32Array;
  weight: Float64Array;
}

/** Definitions of every file, most relevant first. */
export function rankDefinitions(
  facts: Map<string, FileFacts>,
  focus: Focus,
): RankedDefinition[] {
  const files = [...facts.keys()].sort();
  const all = files.map((file) => facts.get(file)!);
  const definers = definersOf(all);
  const { focusFiles, focusNames } = focused(files, all, focus);

  // The definers of each name a file uses, and how many files use it: a
  // name most files use tells little. A name defined in more than
  // MAX_DEFINERS files tells no file apart.
  const used = all.map(({ names }) => {
    const refs: Definers[] = [];
    for (const name of names) {
      const defined = definers.get(name);
      if (defined === undefined || defined.files.length > MAX_DEFINERS) {
        continue;
      }
      defined.users++;
      refs.push(defined);
    }
    return refs;
  });
  // One edge per (file, name, defining file), in the order names are used.
  let most = 0;
  for (const refs of used) for (const { files } of refs) most += files.length;
  const start = new Int32Array(all.length + 1);
  const to = new Int32Array(most);
  const weight = new Float64Array(most);
  // Pushed, not preallocated: V8 keeps a large `new Array(n)` as a dictionary.
  const carriers: number[][] = [];
  let edge = 0;
  used.forEach((refs, from) => {
    for (const defined of refs) {
      const { files } = defined;
      const targets = files.length - (files.includes(from) ? 1 : 0);
      if (targets === 0) continue;
      const share = nameWeight(defined.name, targets, focusNames) *
        (focusFiles.has(from) ? 50 : 1) / targets / defined.users;
      for (let k = 0; k < files.length; k++) {
        if (files[k] === from) continue;
        to[edge] = files[k];
        weight[edge] = share;
        carriers.push(defined.indices[k]);
        edge++;
      }
    }
    start[from + 1] = edge;
  });

  const rank = pageRank(merged({ start, to, weight }), focusFiles);
  const scores = all.map(({ definitions }) =>
    new Float64Array(definitions.length)
  );
  for (let from = 0; from < all.length; from++) {
    let total = 0;
    for (let e = start[from]; e < start[from + 1]; e++) total += weight[e];
    for (let e = start[from]; e < start[from + 1]; e++) {
      const share = rank[from] * weight[e] / total;
      const indices = carriers[e];
      const own = scores[to[e]];
      for (let i = 0; i < indices.length; i++) {
        own[indices[i]] += share / indices.length;
      }
    }
  }
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
  // A stable sort: equal ranks stay in file and definition order.
  return ranked.sort((a, b) => b.rank - a.rank);
}

/** Who defines each name, and which definitions of each file carry it. */
function definersOf(all: FileFacts[]): Map<string, Definers> {
  const definers = new Map<string, Definers>();
  all.forEach((facts, file) => {
    for (const [name, indices] of namedIn(facts)) {
      let defined = definers.get(name);
      if (defined === undefined) {
        defined = { name, files: [], indices: [], users: 0 };
        definers.set(name, defined);
      }
      defined.files.push(file);
      defined.indices.push(indices);
    }
  });
  return definers;
}

/** Per file, the names it defines and the definitions carrying each. */
const named = new WeakMap<FileFacts, Map<string, number[]>>();

/** The names `facts` defines, worked out once: an edited file gets new facts. */
function namedIn(facts: FileFacts): Map<string, number[]> {
  let names = named.get(facts);
  if (names === undefined) {
    names = new Map();
    facts.definitions.forEach((definition, index) => {
      if (NOT_DEFINITIONS.has(definition.kind)) return;
      if (!IDENTIFIER.test(definition.name)) return;
      const indices = names!.get(definition.name);
      if (indices === undefined) names!.set(definition.name, [index]);
      else indices.push(index);
    });
    named.set(facts, names);
  }
  return names;
}

/** Focus symbols: their files join the focus, their names weigh more. */
function focused(
  files: string[],
  all: FileFacts[],
  focus: Focus,
): { focusFiles: Set<number>; focusNames: Set<string> } {
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
  return { focusFiles, focusNames };
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

/**
 * One edge per pair of files, its weight the sum of their names' edges, the
 * targets in the order they first appear.
 */
function merged({ start, to, weight }: Graph): Graph {
  const count = start.length - 1;
  const sum = new Float64Array(count);
  const seen = new Int32Array(count).fill(-1);
  const out = { start: new Int32Array(count + 1), to: [] as number[] };
  const weights: number[] = [];
  for (let from = 0; from < count; from++) {
    const first = out.to.length;
    for (let e = start[from]; e < start[from + 1]; e++) {
      const target = to[e];
      if (seen[target] !== from) {
        seen[target] = from;
        sum[target] = 0;
        out.to.push(target);
      }
      sum[target] += weight[e];
    }
    for (let e = first; e < out.to.length; e++) weights.push(sum[out.to[e]]);
    out.start[from + 1] = out.to.length;
  }
  return {
    start: out.start,
    to: Int32Array.from(out.to),
    weight: Float64Array.from(weights),
  };
}

/** PageRank with restarts to `focus` (to every node when it is empty). */
export function pageRank(
  { start, to, weight }: Graph,
  focus: Set<number>,
): Float64Array {
  const count = start.length - 1;
  const restart = new Float64Array(count);
  if (focus.size === 0) restart.fill(1 / Math.max(1, count));
  else for (const node of focus) restart[node] = 1 / focus.size;
  const totals = new Float64Array(count);
  for (let from = 0; from < count; from++) {
    for (let e = start[from]; e < start[from + 1]; e++) {
      totals[from] += weight[e];
    }
  }
  let rank = Float64Array.from(restart);
  let next = new Float64Array(count);
  for (let round = 0; round < ROUNDS; round++) {
    next.fill(0);
    let dangling = 0;
    for (let from = 0; from < count; from++) {
      if (totals[from] === 0) {
        dangling += rank[from];
        continue;
      }
      for (let e = start[from]; e < start[from + 1]; e++) {
        next[to[e]] += DAMPING * rank[from] * weight[e] / totals[from];
      }
    }
    for (let node = 0; node < count; node++) {
      next[node] += ((1 - DAMPING) + DAMPING * dangling) * restart[node];
    }
    [rank, next] = [next, rank];
  }
  return rank;
}
