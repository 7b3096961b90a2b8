// A generic call signature on its own line in a type body without semicolons
// (`<S = {}>(state: S): R<S>` under `(): Enhancer<P>`):
// tree-sitter-typescript@0.23.2 reads it as going on with the line above. It
// can go when "prepareTypeScript() separates a generic call signature under a
// doc or a lone '<'" passes with separateSignatures out of _ts_text.ts's REPAIRS.

/**
 * A line that starts, after indentation, with `<` and a name (Prettier puts
 * a long type parameter list's names on the lines under a lone `<`).
 */
const ANGLE_LINE = /\n([ \t]+)<(?=\s*[A-Za-z_$])/g;
/** What a type parameter list's first name is followed by. */
const TYPE_PARAMETER = /^<\s*[A-Za-z_$][\w$]*\s*(?:>|,|=|extends\b)/;
/** How far a type parameter list may run before its `(`. */
const MAX_TYPE_PARAMETERS = 500;

/**
 * A generic call signature on its own line in a type body written without
 * semicolons (`<S = {}>(state: S): R<S>` under `(): Enhancer<P>`): the
 * grammar inserts no separator before `<`, so the last indentation space
 * becomes one. Only after a line that ends a member (a name, `)`, `]`, `>`
 * or `}`) and for a type parameter list followed by `(`.
 */
export function separateSignatures(text: string): string {
  let out: string[] | undefined;
  let at = 0;
  ANGLE_LINE.lastIndex = 0;
  for (let match; (match = ANGLE_LINE.exec(text)) !== null;) {
    const angle = match.index + match[0].length - 1;
    if (!_endsMember(text, match.index) || !_isSignature(text, angle)) {
      continue;
    }
    out ??= [];
    out.push(text.slice(at, angle - 1), ";");
    at = angle;
  }
  if (out === undefined) return text;
  out.push(text.slice(at));
  return out.join("");
}

// Whether the last code line before `newline` ends a member (with a name
// character, `)`, `]`, `>` or `}`). Blank lines and comments between are
// passed over: a signature often has a doc of its own. Inside a block comment
// (a line starting with `*` or `/*` that does not close it) it is not code.
function _endsMember(text: string, newline: number): boolean {
  for (let end = newline; end > 0;) {
    let start = text.lastIndexOf("\n", end - 1) + 1;
    let line = text.slice(start, end).trim();
    if (line.endsWith("*/")) {
      // Up the comment's lines, each starting with `*`, to its `/*`: line by
      // line, so no comment is walked twice (a search for `/*` could run to
      // the top of the file for each signature).
      while (!line.includes("/*")) {
        if (start === 0) return false;
        end = start - 1;
        start = text.lastIndexOf("\n", end - 1) + 1;
        line = text.slice(start, end).trim();
        if (!line.startsWith("*") && !line.includes("/*")) return false;
      }
      line = line.slice(0, line.indexOf("/*")).trim();
    } else if (/^(?:\/\*|\*)/.test(line)) return false;
    if (line !== "" && !line.startsWith("//")) {
      return /[\w$)\]>}]$/.test(line);
    }
    end = start - 1;
  }
  return false;
}

// Whether `<` at `angle` opens a type parameter list that a parameter list
// follows: `<T>(`, `<S = {}, O extends X<Y> = {}>(`.
function _isSignature(text: string, angle: number): boolean {
  const head = text.slice(angle, angle + MAX_TYPE_PARAMETERS);
  if (!TYPE_PARAMETER.test(head)) return false;
  let depth = 0;
  for (let i = 0; i < head.length; i++) {
    const char = head[i];
    if (char === "<") depth++;
    else if (char === ">" && head[i - 1] !== "=" && --depth === 0) {
      return /^\s*\(/.test(head.slice(i + 1));
    }
  }
  return false;
}
