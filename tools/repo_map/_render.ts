// Renders the top of a ranking as the map text, choosing as many definitions
// as fit the budget: a binary search for the longest prefix of the ranking,
// then lower-ranked ones that still fit.
import type { Definition, FileFacts } from "./_facts.ts";
import type { RankedDefinition } from "./_rank.ts";

const INDENT = "    ";

/** How many lower-ranked definitions are tried after the prefix is fixed. */
const TOP_UP_TRIES = 200;

/** Tokens kept free for the last line's counts while topping up. */
const FOOTER_SLACK = 2;

/** The map of the definitions that fit `tokens` by `estimate`. */
export function renderMap(
  ranked: RankedDefinition[],
  facts: Map<string, FileFacts>,
  tokens: number,
  estimate: (text: string) => number,
): string {
  const totalFiles = [...facts.values()].filter((f) => f.definitions.length)
    .length;
  const totalSymbols = ranked.length;
  const fits = (chosen: RankedDefinition[]) =>
    estimate(render(chosen, facts, totalFiles, totalSymbols)) <= tokens;
  let low = 0;
  // Each definition adds a line of more than four characters, a token at
  // least: no more than `tokens` of them fit, and a render of that many is
  // quick where one of a large tree's whole ranking is not.
  let high = Math.min(ranked.length, Math.floor(tokens));
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(ranked.slice(0, middle))) low = middle;
    else high = middle - 1;
  }
  const chosen = ranked.slice(0, low);
  // Then lower-ranked ones that still fit, by what each would add: its line,
  // those of enclosing definitions not shown yet, and its file's line.
  let size = estimate(render(chosen, facts, totalFiles, totalSymbols));
  const shown = new Map<string, Set<number>>();
  for (const { file, index } of chosen) addShown(shown, facts, file, index);
  for (const extra of ranked.slice(low + 1, low + 1 + TOP_UP_TRIES)) {
    const added = addedLines(shown, facts, extra);
    // The last line's counts may grow by a digit or two.
    const cost = estimate(added.join("\n")) + added.length + FOOTER_SLACK;
    if (size + cost > tokens) continue;
    chosen.push(extra);
    addShown(shown, facts, extra.file, extra.index);
    size += cost - FOOTER_SLACK;
  }
  while (
    chosen.length > low &&
    estimate(render(chosen, facts, totalFiles, totalSymbols)) > tokens
  ) chosen.pop();
  return render(chosen, facts, totalFiles, totalSymbols);
}

/** Marks `index` of `file` and the definitions around it as shown. */
function addShown(
  shown: Map<string, Set<number>>,
  facts: Map<string, FileFacts>,
  file: string,
  index: number,
): void {
  const set = shown.get(file) ?? new Set<number>();
  shown.set(file, set);
  const { definitions } = facts.get(file)!;
  for (let at = index; at >= 0 && !set.has(at); at = definitions[at].parent) {
    set.add(at);
  }
}

/** The lines that showing `extra` would add. */
function addedLines(
  shown: Map<string, Set<number>>,
  facts: Map<string, FileFacts>,
  extra: RankedDefinition,
): string[] {
  const set = shown.get(extra.file);
  const { definitions } = facts.get(extra.file)!;
  const lines = set === undefined ? [extra.file] : [];
  for (
    let at = extra.index;
    at >= 0 && !set?.has(at);
    at = definitions[at].parent
  ) {
    lines.push(symbolLine(definitions[at]));
  }
  return lines;
}

function symbolLine(d: Definition): string {
  const range = d.startLine === d.endLine
    ? `(line ${d.startLine})`
    : `(lines ${d.startLine}-${d.endLine})`;
  return `${INDENT.repeat(d.depth + 1)}${d.kind} ${d.label} ${range}`;
}

function render(
  chosen: RankedDefinition[],
  facts: Map<string, FileFacts>,
  totalFiles: number,
  totalSymbols: number,
): string {
  // Files in the order of their best definition; each definition with the
  // ones around it, so that a method shows under its class.
  const byFile = new Map<string, Set<number>>();
  for (const { file, index } of chosen) addShown(byFile, facts, file, index);
  const lines: string[] = [];
  let symbols = 0;
  for (const [file, shown] of byFile) {
    lines.push(file);
    const { definitions } = facts.get(file)!;
    for (const index of [...shown].sort((a, b) => a - b)) {
      lines.push(symbolLine(definitions[index]));
    }
    symbols += shown.size;
  }
  const files = Math.max(0, totalFiles - byFile.size);
  const left = Math.max(0, totalSymbols - symbols);
  lines.push(
    `(${files} more ${files === 1 ? "file" : "files"} and ${left} more ${
      left === 1 ? "symbol" : "symbols"
    } left out)`,
  );
  return lines.join("\n");
}
