// Catches a mistyped command name (`fello outlin src/`, `fello mpc`) before it
// is sent to the model as a prompt: the model would act on it, and with no
// server the user would be told to fix an endpoint they never meant to use.
// Only a first word one edit from a name (a letter added, dropped or changed,
// or two neighbours swapped) is caught, so ordinary prompts (`fello refactor`,
// `fello outside ...`) still run.

/**
 * The command `word` is likely a typo of, or undefined. `word` must be a bare
 * word (letters only) and not itself a command.
 */
export function likelyCommandTypo(
  word: string,
  commands: readonly string[],
): string | undefined {
  if (!/^[a-z]+$/i.test(word)) return undefined;
  const lower = word.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of commands) {
    if (name === word) return undefined;
    const distance = editDistance(lower, name);
    if (distance > 1) continue;
    if (!best || distance < best.distance) best = { name, distance };
  }
  return best?.name;
}

/**
 * Edits (insert, delete, substitute, swap two neighbours) turning `a` into
 * `b`: the optimal string alignment distance, so `mpc` is one edit from `mcp`.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows.push([i]);
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[i].push(j);
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(
        rows[i - 1][j] + 1,
        rows[i][j - 1] + 1,
        rows[i - 1][j - 1] + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d = Math.min(d, rows[i - 2][j - 2] + 1);
      }
      rows[i].push(d);
    }
  }
  return rows[a.length][b.length];
}
