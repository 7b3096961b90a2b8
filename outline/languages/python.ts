// Python: the specification's node types (function_definition,
// class_definition, import_statement, import_from_statement) with Python's own
// keywords as labels; decorated definitions; the docstring as the doc.
// Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../types.ts";
import type { LanguageSpec } from "./_language.ts";
import {
  append,
  fieldText,
  firstMeaningfulLine,
  makeSymbol,
} from "./_nodes.ts";

/** Python (`.py`, `.pyi`): `def`, `class`, `method`, `field`, `import`. */
export const python: LanguageSpec = {
  name: "Python",
  grammar: "python",
  extensions: [".py", ".pyi"],
  extract: (root, source) => _block(root, { scope: "module", source }),
};

type Scope = "module" | "class" | "member";

/** Where a statement sits, and the text parsed (to look at without WASM). */
interface Place {
  scope: Scope;
  source: string;
}

function _block(block: Node, place: Place): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  for (const node of block.namedChildren) {
    append(symbols, _statement(node, place));
  }
  return symbols;
}

function _statement(node: Node, place: Place): OutlineSymbol[] {
  const { scope } = place;
  // `.type` is a call into WASM: read it once per node.
  const type = node.type;
  switch (type) {
    case "decorated_definition": {
      const definition = node.childForFieldName("definition");
      return definition === null
        ? []
        : _definition(definition, definition.type, { outer: node, place });
    }
    case "function_definition":
    case "class_definition":
      return _definition(node, type, { outer: node, place });
    case "import_statement":
    case "import_from_statement":
      return scope === "module"
        ? [makeSymbol("import", _importName(node), node)]
        : [];
    case "expression_statement":
      return scope === "class" ? _fields(node, place.source) : [];
    case "if_statement":
    case "try_statement":
    case "with_statement":
      // `if TYPE_CHECKING:` / `try: import x` at module level and
      // `if _mswindows: def kill(self)` in a class body hold real
      // definitions; look inside every branch.
      return scope === "member" ? [] : _branches(node, place);
    default:
      return [];
  }
}

function _definition(
  node: Node,
  type: string,
  { outer, place }: { outer: Node; place: Place },
): OutlineSymbol[] {
  const { scope, source } = place;
  if (scope === "member") return [];
  const body = node.childForFieldName("body");
  const doc = body === null ? undefined : _docstring(body, source);
  const name = fieldText(node) ?? "";
  if (type === "class_definition") {
    const children = scope === "module" && body !== null
      ? _block(body, { scope: "class", source })
      : [];
    return [makeSymbol("class", name, node, { from: outer, doc, children })];
  }
  const kind = scope === "class" ? "method" : "def";
  return [makeSymbol(kind, name, node, { from: outer, doc })];
}

function _branches(node: Node, place: Place): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  for (const child of node.namedChildren) {
    if (child.type === "block") append(symbols, _block(child, place));
    else if (child.type.endsWith("_clause")) {
      append(symbols, _branches(child, place));
    }
  }
  return symbols;
}

// Class attributes: `x = 1` and `x: int = 0` directly in the class body.
function _fields(statement: Node, source: string): OutlineSymbol[] {
  // A statement that opens with a string (a docstring) is no assignment.
  if (_startsWithString(source, statement.startIndex)) return [];
  const assignment = statement.firstNamedChild;
  if (assignment?.type !== "assignment") return [];
  const left = assignment.childForFieldName("left");
  if (left?.type !== "identifier") return [];
  return [makeSymbol("field", left.text, statement)];
}

function _importName(node: Node): string {
  if (node.type === "import_from_statement") {
    return fieldText(node, "module_name") ?? "";
  }
  return node.childrenForFieldName("name").map((name) => name.text).join(", ");
}

// The docstring: the first statement of the body when it is a bare string.
function _docstring(body: Node, source: string): string | undefined {
  // A block starts where its first statement (or comment) does: when no
  // string opens there, skip the calls into WASM.
  if (!_startsWithString(source, body.startIndex)) return undefined;
  const first = body.firstNamedChild;
  if (first?.type !== "expression_statement") return undefined;
  const string = first.firstNamedChild;
  if (string?.type !== "string") return undefined;
  // An f-, t- or bytes string is no docstring: its __doc__ is None.
  if (/^[rRuU]*[bBfFtT]/.test(string.text)) return undefined;
  const content = string.text.replace(/^[rRuU]*("""|'''|"|')/, "")
    .replace(/("""|'''|"|')$/, "");
  return firstMeaningfulLine(content);
}

// Whether a string literal (with its optional prefix: `r`, `b`, `f`, ...)
// opens at `index` of the source.
function _startsWithString(source: string, index: number): boolean {
  return STRING_START.test(source.slice(index, index + 3));
}

const STRING_START = /^[a-zA-Z]{0,2}["']/;
