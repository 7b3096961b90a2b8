// Renders the top of a ranking as the map text, choosing as many definitions
// as fit the budget: a binary search for the longest prefix of the ranking,
// then lower-ranked ones that still fit.
import type { FileFacts } from "./_facts.ts";
import type { RankedDefinition } from "./_rank.ts";

const INDENT = "    ";

/** How many lower-ranked definitions are tried after the prefix is fixed. */
const TOP_UP_TRIES = 200;

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
  let high = ranked.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits(ranked.slice(0, middle))) low = middle;
    else high = middle - 1;
  }
  const chosen = ranked.slice(0, low);
  for (const extra of ranked.slice(low + 1, low + 1 + TOP_UP_TRIES)) {
    if (fits([...chosen, extra])) chosen.push(extra);
  }
  return render(chosen, facts, totalFiles, totalSymbols);
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
  for (const { file, index } of chosen) {
    const shown = byFile.get(file) ?? new Set<number>();
    byFile.set(file, shown);
    const { definitions } = facts.get(file)!;
    for (
      let at = index;
      at >= 0 && !shown.has(at);
      at = definitions[at].parent
    ) {
      shown.add(at);
    }
  }
  const lines: string[] = [];
  let symbols = 0;
  for (const [file, shown] of byFile) {
    lines.push(file);
    const { definitions } = facts.get(file)!;
    for (const index of [...shown].sort((a, b) => a - b)) {
      const d = definitions[index];
      const range = d.startLine === d.endLine
        ? `(line ${d.startLine})`
        : `(lines ${d.startLine}-${d.endLine})`;
      lines.push(`${INDENT.repeat(d.depth + 1)}${d.kind} ${d.name} ${range}`);
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
