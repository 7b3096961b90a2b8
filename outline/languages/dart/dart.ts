// Dart: classes, enums, mixins, extensions (with their members), functions,
// typedefs and top-level variables; `///` and `/** */` doc comments. A
// signature and its body are sibling nodes, so a function's range runs from
// the signature (or its first annotation) to the end of the body. Runs inside
// the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { LanguageSpec } from "../_language.ts";
import { docComment, makeSymbol, namedItems, nested } from "../_nodes.ts";
import { blankAbstractFields } from "./repairs/abstract_fields_dart_repomix_0_1_17.ts";
import { blankUnnamedLibrary } from "./repairs/unnamed_library_dart_repomix_0_1_17.ts";

/** Dart (`.dart`): declarations and members with Dart's own words. */
export const dart: LanguageSpec = {
  name: "Dart",
  grammar: "dart",
  extensions: [".dart"],
  extract: extractDart,
  prepare: (source) => REPAIRS.reduce((text, repair) => repair(text), source),
  // Directives belong at the top: one further on is an error that a piece
  // starting with it would not show.
  continuation: /^(?:import|export|part|library)\b/,
  braces: true,
};

// What the grammar (@repomix/tree-sitter-wasms@0.1.17's Dart) cannot read,
// blanked before the parse, each in its file of repairs/.
const REPAIRS: readonly ((source: string) => string)[] = [
  blankUnnamedLibrary,
  blankAbstractFields,
];

const TYPE_KINDS: Record<string, string> = {
  class_definition: "class",
  enum_declaration: "enum",
  mixin_declaration: "mixin",
  extension_declaration: "extension",
  extension_type_declaration: "extension type",
};

const CONSTRUCTORS = new Set([
  "constructor_signature",
  "constant_constructor_signature",
  "factory_constructor_signature",
  "redirecting_factory_constructor_signature",
]);

function extractDart(root: Node): OutlineSymbol[] {
  return _declarations(root, "function");
}

// Where a node sits among its container's items: the signature's body and
// annotations are its neighbours there, and looking them up in the array
// avoids previousSibling/nextSibling, which are linear per call.
interface _Place {
  items: Node[];
  index: number;
  /** `function` at the top, `method` in a type body. */
  functionKind: string;
}

function _declarations(container: Node, functionKind: string): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  const items = namedItems(container);
  for (let index = 0; index < items.length; index++) {
    const symbol = _declaration(items[index], { items, index, functionKind });
    if (symbol !== undefined) symbols.push(symbol);
  }
  return symbols;
}

function _declaration(node: Node, place: _Place): OutlineSymbol | undefined {
  if (node.type in TYPE_KINDS) return _type(node, place);
  switch (node.type) {
    case "type_alias":
      return _symbol("typedef", _typedefName(node), node, place);
    case "enum_constant":
      return _symbol("constant", _name(node), node, place);
    // Top-level signatures; in a body, a signature with a body is wrapped in
    // method_signature and one without (abstract, external) in declaration.
    case "function_signature":
    case "getter_signature":
    case "setter_signature":
    case "method_signature":
      return _signature(node, node, place);
    case "declaration":
      return _memberDeclaration(node, place);
    case "initialized_identifier_list":
    case "static_final_declaration_list":
      return _topLevelVariable(node, place);
  }
  return undefined;
}

// The grammar leaves a top-level variable flat in `program`: its keyword and
// type nodes (`final`, `List`, `<int>`), then the list of names, then `;`.
const VARIABLE_PARTS: Record<string, string> = {
  inferred_type: "var",
  final_builtin: "final",
  const_builtin: "const",
  type_identifier: "",
  type_arguments: "",
  nullable_type: "",
  function_type: "",
  record_type: "",
  void_type: "",
};

// `final a = 1, b = 2;`: one symbol from its first keyword or type, labelled
// with the keyword as written (`var` for a bare type).
function _topLevelVariable(list: Node, place: _Place): OutlineSymbol {
  const { items } = place;
  let first = place.index;
  while (first > 0 && items[first - 1].type in VARIABLE_PARTS) first--;
  const kind = items.slice(first, place.index)
    .map((part) => VARIABLE_PARTS[part.type]).find((word) => word !== "");
  return _symbol(kind ?? "var", _fieldNames(list).join(", "), list, {
    ...place,
    index: first,
  });
}

// The symbol starts at the first annotation before `node` and takes the doc
// comment above that; `to` ends it (a signature's body).
function _symbol(
  kind: string,
  name: string,
  node: Node,
  place: _Place,
  to?: Node,
): OutlineSymbol {
  const { items } = place;
  let first = place.index;
  while (first > 0 && items[first - 1].type === "annotation") first--;
  return makeSymbol(kind, name, node, {
    from: items[first],
    to,
    doc: docComment(items[first], { siblings: items, index: first }),
  });
}

// `class R = Object with M;` holds its name in a mixin_application_class.
function _name(node: Node): string {
  const named =
    node.namedChildren.find((child) =>
      child.type === "mixin_application_class"
    ) ?? node;
  return named.childForFieldName("name")?.text ??
    named.namedChildren.find((child) => child.type === "identifier")?.text ??
    "?";
}

// A class's annotations and doc comment sit inside its node, after any
// annotation: `@immutable /// Doc. class C {}`.
function _type(node: Node, place: _Place): OutlineSymbol {
  const body = node.childForFieldName("body") ??
    node.namedChildren.find((child) => child.type.endsWith("_body")) ?? null;
  const name = node.type === "extension_declaration"
    ? node.childForFieldName("name")?.text ??
      `on ${node.childForFieldName("class")?.text ?? "?"}`
    : _name(node);
  const symbol = _symbol(TYPE_KINDS[node.type], name, node, place);
  symbol.children = body === null
    ? []
    : nested(() => _declarations(body, "method"));
  const doc = symbol.doc ?? _innerDoc(node);
  if (doc !== undefined) symbol.doc = doc;
  return symbol;
}

function _innerDoc(node: Node): string | undefined {
  const keyword = node.children.find((child) => !child.isNamed);
  return keyword === undefined ? undefined : docComment(keyword);
}

// `void f() {...}`: the signature node (or the method_signature around it)
// is followed by its function_body sibling; annotations come before it.
function _signature(
  outer: Node,
  signature: Node,
  place: _Place,
): OutlineSymbol | undefined {
  const inner =
    outer.type === "method_signature" || outer.type === "declaration"
      ? outer.namedChildren.find((child) => child.type.endsWith("signature"))
      : signature;
  if (inner === undefined) return undefined;
  const next = place.items[place.index + 1];
  const body = next?.type === "function_body" ? next : undefined;
  const [kind, name] = _signatureLabel(inner, place.functionKind);
  return _symbol(kind, name, outer, place, body);
}

function _signatureLabel(
  signature: Node,
  functionKind: string,
): [string, string] {
  if (CONSTRUCTORS.has(signature.type)) {
    return ["constructor", _constructorName(signature)];
  }
  switch (signature.type) {
    case "getter_signature":
      return ["getter", _name(signature)];
    case "setter_signature":
      return ["setter", _name(signature)];
    case "operator_signature": {
      // The token after the `operator` keyword: a named `binary_operator`
      // (`==`) or a bare `[]`, `[]=` or `~`.
      const children = signature.children;
      const at = children.findIndex((child) => child.type === "operator");
      return ["operator", at === -1 ? "?" : children[at + 1]?.text ?? "?"];
    }
  }
  return [functionKind, _name(signature)];
}

// `A`, `A.named`: the identifiers before the parameter list.
function _constructorName(signature: Node): string {
  const names: string[] = [];
  for (const child of signature.namedChildren) {
    if (child.type === "formal_parameter_list") break;
    if (child.type === "identifier") names.push(child.text);
  }
  return names.length === 0 ? "?" : names.join(".");
}

// In a body: an abstract or external method, a constructor, or fields.
function _memberDeclaration(
  node: Node,
  place: _Place,
): OutlineSymbol | undefined {
  const signature = node.namedChildren.find((child) =>
    child.type.endsWith("signature")
  );
  if (signature !== undefined) return _signature(node, signature, place);
  const names = _fieldNames(node);
  if (names.length === 0) return undefined;
  return _symbol("field", names.join(", "), node, place);
}

function _fieldNames(node: Node): string[] {
  const names: string[] = [];
  const lists = node.type === "declaration" ? node.namedChildren : [node];
  for (const list of lists) {
    if (
      list.type !== "initialized_identifier_list" &&
      list.type !== "static_final_declaration_list"
    ) continue;
    for (const item of list.namedChildren) {
      const name = item.namedChildren.find((child) =>
        child.type === "identifier"
      );
      if (name !== undefined) names.push(name.text);
    }
  }
  // `external int handle;`: the name stands in the declaration itself.
  if (names.length === 0 && node.type === "declaration") {
    for (const child of node.namedChildren) {
      if (child.type === "identifier") names.push(child.text);
    }
  }
  return names;
}

// `typedef IntCb = void Function(int);` or the old `typedef void Cb(int x);`
// where the name is the last type before the parameters.
function _typedefName(node: Node): string {
  const types: Node[] = [];
  for (const child of node.children) {
    if (child.type === "=") break;
    if (child.type === "formal_parameter_list") break;
    if (child.type === "type_identifier") types.push(child);
  }
  const modern = node.children.some((child) => child.type === "=");
  const name = modern ? types[0] : types.at(-1);
  return name?.text ?? "?";
}
