// Swift: types (class, struct, enum, extension, actor, protocol) with their
// members, functions, initializers, properties and typealiases; `///` and
// `/** */` doc comments. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { LanguageSpec } from "../_language.ts";
import { documentedSymbols, makeSymbol, nested } from "../_nodes.ts";
import { blankDirectives } from "./repairs/directives_swift_repomix_0_1_17.ts";
import { blankMisreadWords } from "./repairs/misread_words_swift_repomix_0_1_17.ts";
import { codeBodies } from "./_code_bodies.ts";

/** Swift (`.swift`): declarations labelled with Swift's own keywords. */
export const swift: LanguageSpec = {
  name: "Swift",
  grammar: "swift",
  extensions: [".swift"],
  extract: extractSwift,
  prepare: (source) => REPAIRS.reduce((text, repair) => repair(text), source),
  codeBodies,
  // The scanner takes these words after a newline as going on with the line
  // above unless a letter or digit follows (`as_string` reads as `as`).
  continuation: /^(?:as|async|throws|rethrows|where|default)(?![A-Za-z0-9])/,
  braces: true,
  preprocessor: true,
};

// What the grammar (@repomix/tree-sitter-wasms@0.1.17's Swift) cannot read,
// blanked before the parse in this order, each in its file of repairs/.
const REPAIRS: readonly ((source: string) => string)[] = [
  blankDirectives,
  blankMisreadWords,
];

function extractSwift(root: Node): OutlineSymbol[] {
  return _declarations(root);
}

function _declarations(container: Node): OutlineSymbol[] {
  return documentedSymbols(container, _declaration);
}

function _declaration(node: Node): OutlineSymbol | undefined {
  switch (node.type) {
    // class/struct/enum/extension/actor: the keyword is a field.
    case "class_declaration":
    case "protocol_declaration":
      return _symbol(_keyword(node), _name(node), node, _body(node));
    case "function_declaration":
    case "protocol_function_declaration":
      return _symbol("func", _name(node), node);
    case "init_declaration":
      return _symbol("init", _initName(node), node);
    case "deinit_declaration":
      return _symbol("deinit", "deinit", node);
    case "subscript_declaration":
      return _symbol("subscript", `subscript${_labels(node, "_")}`, node);
    case "property_declaration":
    case "protocol_property_declaration":
      return _symbol(_mutability(node), _propertyName(node), node);
    case "typealias_declaration":
      return _symbol("typealias", _name(node), node);
    case "associatedtype_declaration":
      return _symbol("associatedtype", _name(node), node);
    case "enum_entry":
      return _symbol("case", _names(node), node);
  }
  return undefined;
}

function _symbol(
  kind: string,
  name: string,
  node: Node,
  children: OutlineSymbol[] = [],
): OutlineSymbol {
  return makeSymbol(kind, name, node, { children });
}

function _keyword(node: Node): string {
  return node.childForFieldName("declaration_kind")?.text ?? "class";
}

function _body(node: Node): OutlineSymbol[] {
  const body = node.childForFieldName("body");
  return body === null ? [] : nested(() => _declarations(body));
}

// The first `name` field: later ones are, oddly, the return type. An
// extension's name is a type (`Array where Element: Equatable` keeps only
// `Array`); generic parameters are not part of the name.
function _name(node: Node): string {
  return node.childForFieldName("name")?.text ?? "?";
}

// Swift's own way to tell overloads apart: `init(radius:)`, `init?()`.
function _initName(node: Node): string {
  const mark = node.children.find((child) =>
    child.type === "?" || child.type === "!"
  );
  return `init${mark?.type ?? ""}${_labels(node)}`;
}

// `(x:y:)`: each parameter's argument label, the external name if any. A
// subscript's parameters have no label unless given one (`_`).
function _labels(node: Node, implicit?: string): string {
  const labels = node.namedChildren
    .filter((child) => child.type === "parameter")
    .map((parameter) =>
      parameter.childForFieldName("external_name")?.text ?? implicit ??
        parameter.childForFieldName("name")?.text ?? "_"
    );
  return `(${labels.map((label) => `${label}:`).join("")})`;
}

function _names(node: Node): string {
  const names = node.childrenForFieldName("name")
    .filter((child) => child.isNamed).map((name) => name.text);
  return names.length === 0 ? "?" : names.join(", ");
}

// `var`/`let`: a child of the declaration, or of its pattern in a protocol.
function _mutability(node: Node): string {
  const binding =
    node.namedChildren.find((child) =>
      child.type === "value_binding_pattern"
    ) ?? node.childForFieldName("name")?.namedChildren.find((child) =>
      child.type === "value_binding_pattern"
    );
  return binding?.childForFieldName("mutability")?.text ?? "var";
}

// `var x = 0, y = 0` lists both; a tuple pattern keeps its parentheses.
function _propertyName(node: Node): string {
  const names = node.childrenForFieldName("name")
    .filter((child) => child.isNamed).map((pattern) =>
      pattern.childForFieldName("bound_identifier")?.text ?? pattern.text
    );
  return names.length === 0 ? "?" : names.join(", ");
}
