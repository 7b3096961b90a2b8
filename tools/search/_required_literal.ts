// The longest run of plain characters that every match of a regular
// expression holds, read from its source conservatively: a pattern with an
// alternation or an escape this reader does not take apart gives none, and
// the characters inside groups (look-arounds included), classes and before a
// quantifier that allows zero are left out. A file whose bytes lack the run
// cannot match (see _literal_skim.ts).

/** Escapes that take arguments or name something: the pattern is not read. */
const OPAQUE_ESCAPES = /[xucpPk0-9]/;

/** The run, or undefined when there is none the reader can vouch for. */
export function requiredLiteral(source: string): string | undefined {
  if (source.includes("|") || source.startsWith("(?i)")) return undefined;
  let best = "";
  let run = "";
  let depth = 0;
  const end = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === "\\") {
      const next = source[++i];
      if (next === undefined || OPAQUE_ESCAPES.test(next)) return undefined;
      // \w, \d, \s, \b, \r, \t ...: not one plain character.
      if (/[A-Za-z]/.test(next)) end();
      else if (depth === 0) run += next;
      continue;
    }
    if (char === "[") {
      end();
      // Up to the class's closing bracket (a first `]` or `^]` is in it).
      i++;
      if (source[i] === "^") i++;
      if (source[i] === "]") i++;
      while (i < source.length && source[i] !== "]") {
        if (source[i] === "\\") i++;
        i++;
      }
      continue;
    }
    if (char === "(") {
      end();
      depth++;
      continue;
    }
    if (char === ")") {
      depth--;
      end();
      continue;
    }
    if (depth > 0) continue;
    if (char === "*" || char === "?" || char === "{") {
      // The character before may be absent.
      run = run.slice(0, -1);
      end();
      if (char === "{") {
        while (i < source.length && source[i] !== "}") i++;
      }
      continue;
    }
    if (char === "+" || char === "." || char === "^" || char === "$") {
      end();
      continue;
    }
    run += char;
  }
  end();
  return best === "" ? undefined : best;
}
