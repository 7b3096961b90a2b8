// Go: package, imports, consts, types (struct fields and interface methods as
// members), functions and methods. Doc is the `//` block right above, as godoc
// reads it. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../types.ts";
import type { LanguageSpec } from "./_language.ts";
import { docComment, fieldText, makeSymbol } from "./_nodes.ts";

/** Go (`.go`): the spec's node types with Go's own keywords as labels. */
export const go: LanguageSpec = {
  name: "Go",
  grammar: "go",
  extensions: [".go"],
  extract: extractGo,
};

// How many import paths an import symbol's name lists before "+N more".
const MAX_IMPORT_NAMES = 4;

function extractGo(root: Node): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  for (const node of _topLevel(root)) symbols.push(..._declaration(node));
  return symbols;
}

// Top-level nodes, looking through ERROR nodes so a syntax error costs only
// the broken declaration.
function _topLevel(root: Node): Node[] {
  const nodes: Node[] = [];
  for (const child of root.namedChildren) {
    if (child.type === "ERROR") nodes.push(..._topLevel(child));
    else nodes.push(child);
  }
  return nodes;
}

function _declaration(node: Node): OutlineSymbol[] {
  switch (node.type) {
    case "package_clause":
      return [_symbol("package", _packageName(node), node)];
    case "import_declaration":
      return [_symbol("import", _importName(node), node)];
    case "function_declaration":
      return [_symbol("func", fieldText(node) ?? "?", node)];
    case "method_declaration":
      return [_symbol("method", _methodName(node), node)];
    case "const_declaration":
      return _specs(node, ["const_spec"], _constSymbol);
    case "type_declaration":
      return _specs(node, ["type_spec", "type_alias"], _typeSymbol);
    default:
      return [];
  }
}

function _symbol(
  kind: string,
  name: string,
  node: Node,
  options: { docNode?: Node; children?: OutlineSymbol[] } = {},
): OutlineSymbol {
  return makeSymbol(kind, name, node, {
    doc: _doc(options.docNode ?? node),
    children: options.children,
  });
}

// Godoc takes any `//` or `/* */` comment directly above a declaration.
function _doc(node: Node): string | undefined {
  return docComment(node, { accept: () => true });
}

function _packageName(node: Node): string {
  return node.namedChildren.find((child) => child.type === "package_identifier")
    ?.text ?? "?";
}

// `import "fmt"` or `import ("fmt"; f "os")`: the specs as written, so a
// reader sees aliases; long groups end with "+N more".
function _importName(node: Node): string {
  const specs = node.descendantsOfType("import_spec");
  const names = specs.slice(0, MAX_IMPORT_NAMES).map((spec) =>
    spec.text.replace(/\s+/g, " ")
  );
  const more = specs.length - names.length;
  return more > 0 ? `${names.join(", ")}, +${more} more` : names.join(", ");
}

// `(*Server) Start`: the receiver type as godoc prints it, then the name.
function _methodName(node: Node): string {
  const receiver = node.childForFieldName("receiver")
    ?.namedChildren.find((child) => child.type === "parameter_declaration");
  const type = receiver?.childForFieldName("type")?.text;
  const name = fieldText(node) ?? "?";
  return type === undefined ? name : `(${type}) ${name}`;
}

// The specs of a `const`/`type` declaration. A grouped spec takes the comment
// right above it; an ungrouped one the comment above the keyword.
function _specs(
  declaration: Node,
  types: string[],
  build: (spec: Node, docNode: Node) => OutlineSymbol,
): OutlineSymbol[] {
  const grouped = declaration.children.some((child) => child.type === "(");
  return declaration.namedChildren
    .filter((child) => types.includes(child.type))
    .map((spec) => build(spec, grouped ? spec : declaration));
}

function _constSymbol(spec: Node, docNode: Node): OutlineSymbol {
  return _symbol("const", _names(spec) ?? "?", spec, { docNode });
}

function _typeSymbol(spec: Node, docNode: Node): OutlineSymbol {
  const type = spec.childForFieldName("type");
  return _symbol("type", fieldText(spec) ?? "?", spec, {
    docNode,
    children: type === null ? [] : _members(type),
  });
}

// Struct fields and interface methods.
function _members(type: Node): OutlineSymbol[] {
  if (type.type === "struct_type") {
    const list = type.namedChildren.find((child) =>
      child.type === "field_declaration_list"
    );
    return (list?.namedChildren ?? [])
      .filter((child) => child.type === "field_declaration")
      .map((field) => _symbol("field", _fieldName(field), field));
  }
  if (type.type === "interface_type") {
    return type.namedChildren
      .filter((child) => child.type === "method_elem")
      .map((method) => _symbol("method", fieldText(method) ?? "?", method));
  }
  return [];
}

// `a, b int` names both; an embedded field (`*Base`, `io.Reader`) is named by
// its type, as Go names it.
function _fieldName(field: Node): string {
  return _names(field) ?? field.childForFieldName("type")?.text ?? "?";
}

function _names(node: Node): string | undefined {
  const names = node.childrenForFieldName("name")
    .filter((child) => child.isNamed).map((name) => name.text);
  return names.length === 0 ? undefined : names.join(", ");
}
