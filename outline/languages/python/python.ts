// Python: the specification's node types (function_definition,
// class_definition, import_statement, import_from_statement) with Python's own
// keywords as labels; decorated definitions; `type` aliases (PEP 695); the
// docstring as the doc. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { LanguageSpec } from "../_language.ts";
import { append, fieldText, makeSymbol, namedItems } from "../_nodes.ts";
import { pythonDocstring } from "./_python_docstring.ts";

/**
 * Python (`.py`, `.pyi`): `def`, `class`, `method`, `field`, `import`, `type`.
 */
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
  // One spot the grammar cannot parse may wrap the rest of the file in an
  // ERROR node: look inside it, so what parsed is still listed. Only then,
  // since namedItems() reads every child's type (a call into WASM) once more.
  const nodes = block.hasError ? namedItems(block) : block.namedChildren;
  for (const node of nodes) {
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
    case "type_alias_statement":
      return scope === "member" ? [] : [_typeAlias(node)];
    case "import_statement":
    case "import_from_statement":
    case "future_import_statement":
      return scope === "module"
        ? [makeSymbol("import", _importName(node, type), node)]
        : [];
    case "expression_statement":
      return scope === "member"
        ? []
        : _fields(node, place.source, scope === "class" ? "field" : "var");
    case "if_statement":
      // What runs as a script (`if __name__ == "__main__":`) declares
      // nothing of the module's.
      if (_isMainGuard(node)) return [];
      return scope === "member" ? [] : _branches(node, place);
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

// Class attributes (`field`) and module variables (`var`): `x = 1` and `x:
// int = 0` directly in the class body or the module, every name a chain binds
// (pdb's `do_c = do_cont = do_continue`) and each name of `a, b = 1, 2`.
function _fields(
  statement: Node,
  source: string,
  kind: string,
): OutlineSymbol[] {
  // A statement that opens with a string (a docstring) is no assignment.
  if (_startsWithString(source, statement.startIndex)) return [];
  const fields: OutlineSymbol[] = [];
  // The grammar nests a chain: `a = b = 1` is `a = (b = 1)`.
  let assignment = statement.firstNamedChild;
  while (assignment?.type === "assignment") {
    const left = assignment.childForFieldName("left");
    const type = left?.type;
    if (type === "identifier") {
      fields.push(makeSymbol(kind, left!.text, statement));
    } else if (type === "pattern_list" || type === "tuple_pattern") {
      for (const name of left!.namedChildren) {
        if (name.type === "identifier") {
          fields.push(makeSymbol(kind, name.text, statement));
        }
      }
    }
    assignment = assignment.childForFieldName("right");
  }
  return fields;
}

function _isMainGuard(node: Node): boolean {
  const condition = node.childForFieldName("condition");
  return condition !== null && condition.text.includes("__name__");
}

// `type Vector = list[float]`, `type Pair[T] = tuple[T, T]`: the name is the
// identifier the left side opens with.
function _typeAlias(node: Node): OutlineSymbol {
  let left = node.childForFieldName("left");
  while (left !== null && left.type !== "identifier") {
    left = left.firstNamedChild;
  }
  return makeSymbol("type", left?.text ?? "", node);
}

function _importName(node: Node, type: string): string {
  switch (type) {
    case "import_from_statement": {
      const module = fieldText(node, "module_name") ?? "";
      // `from . import x` (`from .. import a, b`): the module is only dots,
      // so the names say what is imported, each behind them (`.x`).
      if (!/^\.+$/.test(module)) return module;
      const names = node.childrenForFieldName("name");
      if (names.length > 0) {
        return names.map((name) => `${module}${name.text}`).join(", ");
      }
      const wildcard = node.namedChildren.some((child) =>
        child.type === "wildcard_import"
      );
      return wildcard ? `${module}*` : module;
    }
    case "future_import_statement":
      // `from __future__ import annotations`: the grammar has a node of its
      // own for it, with no module_name field.
      return "__future__";
    default:
      return node.childrenForFieldName("name").map((name) => name.text)
        .join(", ");
  }
}

// The docstring's summary, when the body opens with one.
function _docstring(body: Node, source: string): string | undefined {
  // A block starts where its first statement (or comment) does: when no
  // string, or parenthesis (`("a"\n "b")`), opens there, skip the calls into
  // WASM.
  const index = body.startIndex;
  if (source[index] !== "(" && !_startsWithString(source, index)) {
    return undefined;
  }
  return pythonDocstring(body);
}

// Whether a string literal (with its optional prefix: `r`, `b`, `f`, ...)
// opens at `index` of the source.
function _startsWithString(source: string, index: number): boolean {
  return STRING_START.test(source.slice(index, index + 3));
}

const STRING_START = /^[a-zA-Z]{0,2}["']/;
