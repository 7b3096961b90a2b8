// Go: package, imports, consts, vars, types (struct fields and interface methods as
// members), functions and methods. Doc is the `//` block right above, as godoc
// reads it. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { LanguageSpec } from "../_language.ts";
import {
  append,
  fieldText,
  firstMeaningfulLine,
  makeSymbol,
  nested,
  precedingComments,
} from "../_nodes.ts";

/** Go (`.go`): the spec's node types with Go's own keywords as labels. */
export const go: LanguageSpec = {
  name: "Go",
  grammar: "go",
  extensions: [".go"],
  extract: extractGo,
  braces: true,
};

function extractGo(root: Node): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  const nodes = _topLevel(root);
  for (let i = 0; i < nodes.length; i++) {
    // Looking back in the array, not with previousSibling (linear per call).
    const doc = () => _doc(nodes[i], nodes, i);
    append(symbols, _declaration(nodes[i], doc));
  }
  return symbols;
}

// Top-level nodes, looking through ERROR nodes so a syntax error costs only
// the broken declaration.
function _topLevel(root: Node): Node[] {
  const nodes: Node[] = [];
  for (const child of root.namedChildren) {
    if (child.type === "ERROR") append(nodes, _topLevel(child));
    else nodes.push(child);
  }
  return nodes;
}

// `doc` is the doc of the top-level node, computed on demand.
function _declaration(
  node: Node,
  doc: () => string | undefined,
): OutlineSymbol[] {
  switch (node.type) {
    case "package_clause":
      return [_symbol("package", _packageName(node), node, doc())];
    case "import_declaration":
      return [_symbol("import", _importName(node), node, doc())];
    case "function_declaration":
      return [_symbol("func", fieldText(node) ?? "?", node, doc())];
    case "method_declaration":
      return [_symbol("method", _methodName(node), node, doc())];
    case "const_declaration":
      return _specs(node, ["const_spec"], doc, _constSymbol);
    // `var (...)` puts its specs in a var_spec_list, unlike const and type.
    case "var_declaration":
      return _specs(
        node.namedChildren.find((child) => child.type === "var_spec_list") ??
          node,
        ["var_spec"],
        doc,
        _varSymbol,
      );
    case "type_declaration":
      return _specs(node, ["type_spec", "type_alias"], doc, _typeSymbol);
    default:
      return [];
  }
}

function _symbol(
  kind: string,
  name: string,
  node: Node,
  doc: string | undefined,
  children: OutlineSymbol[] = [],
): OutlineSymbol {
  return makeSymbol(kind, name, node, { doc, children });
}

// Godoc takes the comment group directly above a declaration, `//` lines
// and `/* */` blocks alike, as one text, without its directive lines: its
// first line is the doc.
function _doc(
  node: Node,
  siblings?: readonly Node[],
  index?: number,
): string | undefined {
  const group = precedingComments(node, siblings, index)
    .filter((comment) => !DIRECTIVE.test(comment));
  return group.length === 0 ? undefined : firstMeaningfulLine(group.join("\n"));
}

/** `//go:noinline`, `//nolint:errcheck`, `//export F`: as go/ast tells them. */
const DIRECTIVE = /^\/\/(?:(?:line|extern|export) |[a-z0-9]+:[a-z0-9])/;

function _packageName(node: Node): string {
  return node.namedChildren.find((child) => child.type === "package_identifier")
    ?.text ?? "?";
}

// `import "fmt"` or `import ("fmt"; f "os")`: every spec as written, so a
// reader sees aliases and any path can be found by name.
function _importName(node: Node): string {
  return node.descendantsOfType("import_spec")
    .map((spec) => spec.text.replace(/\s+/g, " "))
    .join(", ");
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
  declarationDoc: () => string | undefined,
  build: (spec: Node, doc: string | undefined) => OutlineSymbol,
): OutlineSymbol[] {
  const grouped = declaration.children.some((child) => child.type === "(");
  return declaration.namedChildren
    .filter((child) => types.includes(child.type))
    .map((spec) => build(spec, grouped ? _doc(spec) : declarationDoc()));
}

function _constSymbol(spec: Node, doc: string | undefined): OutlineSymbol {
  return _symbol("const", _names(spec) ?? "?", spec, doc);
}

// A variable of a struct type written in place (`var hosts struct {...}`,
// a test table `var tests = []struct{...}{...}`) lists its fields.
function _varSymbol(spec: Node, doc: string | undefined): OutlineSymbol {
  const type = spec.childForFieldName("type") ??
    spec.childForFieldName("value")?.firstNamedChild
      ?.childForFieldName("type") ??
    null;
  const inner = _innerType(type);
  const children = inner === null ? [] : nested(() => _members(inner));
  return _symbol("var", _names(spec) ?? "?", spec, doc, children);
}

// The struct or interface type written in `type`, through pointers, slices,
// arrays, maps (their values) and channels; null for any other.
function _innerType(type: Node | null): Node | null {
  let current = type;
  for (let depth = 0; current !== null && depth < 8; depth++) {
    switch (current.type) {
      case "struct_type":
      case "interface_type":
        return current;
      case "map_type":
        current = current.childForFieldName("value");
        break;
      case "pointer_type":
      case "parenthesized_type":
        current = current.namedChildren.at(-1) ?? null;
        break;
      case "slice_type":
      case "array_type":
      case "channel_type":
        current = current.childForFieldName("element") ??
          current.childForFieldName("value");
        break;
      default:
        return null;
    }
  }
  return null;
}

function _typeSymbol(spec: Node, doc: string | undefined): OutlineSymbol {
  const type = spec.childForFieldName("type");
  const children = type === null ? [] : nested(() => _members(type));
  return _symbol("type", fieldText(spec) ?? "?", spec, doc, children);
}

// Struct fields, interface methods and the types an interface embeds
// (`io.Closer`, `~int | ~string`), named as written.
function _members(type: Node): OutlineSymbol[] {
  if (type.type === "struct_type") {
    const list = type.namedChildren.find((child) =>
      child.type === "field_declaration_list"
    );
    // A field of a struct type written in place lists its fields in turn.
    return (list?.namedChildren ?? [])
      .filter((child) => child.type === "field_declaration")
      .map((field) => {
        const inner = _innerType(field.childForFieldName("type"));
        const children = inner === null ? [] : nested(() => _members(inner));
        return _symbol(
          "field",
          _fieldName(field),
          field,
          _doc(field),
          children,
        );
      });
  }
  if (type.type === "interface_type") {
    return type.namedChildren
      .filter((child) =>
        child.type === "method_elem" || child.type === "type_elem"
      )
      .map((element) =>
        element.type === "type_elem"
          ? _symbol(
            "embed",
            element.text.replace(/\s+/g, " "),
            element,
            _doc(element),
          )
          : _symbol("method", fieldText(element) ?? "?", element, _doc(element))
      );
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
