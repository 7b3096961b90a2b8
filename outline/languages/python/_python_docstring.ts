// A Python body's docstring and its summary line. A docstring is a value,
// not a comment: Python decodes it (`ast.get_docstring`), so no comment
// marker (`*`, `#`) is stripped and `@name` starts a tag only when it is an
// Epydoc field. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import { clipDoc, isRuleLine } from "../_nodes.ts";
import { pythonStringValue } from "./_python_string.ts";

/**
 * The summary of the docstring of `body` (a function's or class's block):
 * its first statement when that is a plain string, implicitly concatenated
 * strings (`"a" "b"`) or either in parentheses, as Python takes `__doc__`.
 */
export function pythonDocstring(body: Node): string | undefined {
  const first = body.firstNamedChild;
  if (first?.type !== "expression_statement") return undefined;
  // A docstring is the whole statement: `"a", "b"` (a tuple) is none.
  if (first.namedChildCount !== 1) return undefined;
  const value = _stringValue(first.firstNamedChild!);
  return value === undefined ? undefined : docstringSummary(value);
}

// The value of a string expression; undefined for anything else, and for an
// f-, t- or bytes string (its `__doc__` is None).
function _stringValue(node: Node): string | undefined {
  switch (node.type) {
    case "string":
      return pythonStringValue(node.text);
    case "concatenated_string": {
      let joined = "";
      for (const part of _withoutComments(node)) {
        const value = part.type === "string"
          ? pythonStringValue(part.text)
          : undefined;
        if (value === undefined) return undefined;
        joined += value;
      }
      return joined;
    }
    case "parenthesized_expression": {
      const inner = _withoutComments(node);
      return inner.length === 1 ? _stringValue(inner[0]) : undefined;
    }
    default:
      return undefined;
  }
}

// The named children of `node` but its comments (`("a"  # note\n "b")`).
function _withoutComments(node: Node): Node[] {
  return node.namedChildren.filter((child) => child.type !== "comment");
}

/**
 * The summary of a docstring's value: its first line that is neither blank
 * nor a rule (`====`), trimmed, control characters escaped, cut to 200
 * characters; none when that line is an Epydoc field (`@param x: ...`), which
 * leaves no description.
 */
export function docstringSummary(value: string): string | undefined {
  // Line by line: the summary is nearly always on the first or second line
  // of what may be a long docstring.
  for (let start = 0; start <= value.length;) {
    let end = value.indexOf("\n", start);
    if (end === -1) end = value.length;
    const line = value.slice(start, end).trim();
    start = end + 1;
    if (line === "" || isRuleLine(line)) continue;
    return EPYDOC_FIELD.test(line) ? undefined : clipDoc(_visible(line));
  }
  return undefined;
}

// Control characters shown as Python writes them (`\x1b`): a decoded escape
// must not reach a terminal or a model as a raw ESC or carriage return. A tab
// stays, as in a comment.
function _visible(line: string): string {
  return line.replace(
    CONTROL,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, "0")}`,
  );
}

// deno-lint-ignore no-control-regex -- finding them is the point
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

// Epydoc's fields (epydoc.sourceforge.net/fields.html). A decorator's name
// (`@contextmanager decorator.`) is none of them: that line is the summary.
const EPYDOC_FIELD = new RegExp(
  "^@(?:param|parameter|arg|argument|type|return|returns|rtype|returntype|" +
    "keyword|kwarg|kwparam|raise|raises|except|exception|ivar|ivariable|" +
    "cvar|cvariable|var|variable|group|sort|see|seealso|note|attention|bug|" +
    "warning|warn|version|todo|deprecated|since|status|change|changed|" +
    "permission|requires|require|requirement|precondition|precond|" +
    "postcondition|postcond|invariant|author|organization|org|copyright|" +
    "license|contact)\\b",
);
