// Kotlin: classes (class, interface, enum class, data class, ...), objects,
// functions, properties and typealiases with their members; KDoc comments.
// Runs inside the outline worker only.
import { type Node, Parser } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { LanguageSpec } from "../_language.ts";
import { countNamed } from "./_counts.ts";
import type { KotlinRepair } from "./repairs/_repair.ts";
import { constructorAnnotations } from "./repairs/constructor_annotations_kotlin_1_1_0.ts";
import { constructorOnNextLine } from "./repairs/constructor_on_next_line_kotlin_1_1_0.ts";
import { contextParameters } from "./repairs/context_parameters_kotlin_1_1_0.ts";
import {
  declarationChunks,
  shiftLines,
} from "./repairs/declaration_chunks_kotlin_1_1_0.ts";
import { dynamicAsName } from "./repairs/dynamic_as_name_kotlin_1_1_0.ts";
import { modifierCalls } from "./repairs/modifier_calls_kotlin_1_1_0.ts";
import { oneLineBodies } from "./repairs/one_line_bodies_kotlin_1_1_0.ts";
import { topLevelAnnotations } from "./repairs/top_level_annotations_kotlin_1_1_0.ts";
import { trailingDelegation } from "./repairs/trailing_delegation_kotlin_1_1_0.ts";
import { whenGuards } from "./repairs/when_guards_kotlin_1_1_0.ts";
import {
  append,
  docComment,
  documentedSymbols,
  makeSymbol,
  nested,
} from "../_nodes.ts";

/** Kotlin (`.kt`, `.kts`): declarations labelled with Kotlin's keywords. */
export const kotlin: LanguageSpec = {
  name: "Kotlin",
  grammar: "kotlin",
  extensions: [".kt", ".kts"],
  extract: extractKotlin,
  // The grammar (1.1.0) attaches an annotation above a comment and a blank
  // line to the next function or not depending on text further on, without
  // a syntax error: no piece can be trusted to read as the whole file does.
  parseWhole: true,
};

// Types that can stand before a name as the receiver of an extension:
// `fun String.shout()`, `val List<T>.second`.
const RECEIVER_TYPES = new Set([
  "user_type",
  "nullable_type",
  "parenthesized_type",
  "function_type",
]);

function extractKotlin(root: Node): OutlineSymbol[] {
  return _extract(root, { byDeclaration: true });
}

function _extract(
  root: Node,
  { byDeclaration }: { byDeclaration: boolean },
): OutlineSymbol[] {
  const symbols = _declarations(root);
  // Repairs that ask for a second parse though the first shows no error.
  const needed = REPAIRS.filter((repair) => repair.needed?.(root, symbols));
  if (!_hasTopLevelError(root) && needed.length === 0) return symbols;
  const repaired = _reparseRepaired(root);
  if (repaired === undefined) return symbols;
  // As many symbols, repaired, still gain their annotations and KDoc.
  const better = needed.some((repair) => repair.evenOnTie)
    ? countNamed(repaired.symbols) >= countNamed(symbols)
    : countNamed(repaired.symbols) > countNamed(symbols);
  const best = better ? repaired.symbols : symbols;
  if (!repaired.broken || !byDeclaration) return best;
  const chunked = _reparseByDeclaration(root);
  return countNamed(chunked) > countNamed(best) ? chunked : best;
}

// Still an error after the repairs (see
// repairs/declaration_chunks_kotlin_1_1_0.ts): each top-level declaration
// parsed (and repaired) on its own.
function _reparseByDeclaration(root: Node): OutlineSymbol[] {
  const chunks = declarationChunks(root.text);
  if (chunks.length < 2) return [];
  const symbols: OutlineSymbol[] = [];
  const parser = new Parser();
  try {
    parser.setLanguage(root.tree.language);
    for (const chunk of chunks) {
      const tree = parser.parse(chunk.text);
      if (tree === null) continue;
      try {
        const found = _extract(tree.rootNode, { byDeclaration: false });
        append(symbols, shiftLines(found, chunk.line));
      } finally {
        tree.delete();
      }
    }
  } finally {
    parser.delete();
  }
  return symbols;
}

// What grammar @tree-sitter-grammars/tree-sitter-kotlin@1.1.0 loses the rest
// of a file on, though it is valid Kotlin, each repaired in its own file of
// repairs/, in the order they rewrite the text (each reads what the ones
// before it wrote; their restores run in the same order). None moves a line,
// so names keep their text and symbols their lines. What is still an error
// costs its own top-level declaration only (see _reparseByDeclaration).
const REPAIRS: readonly KotlinRepair[] = [
  whenGuards,
  contextParameters,
  constructorAnnotations,
  constructorOnNextLine,
  oneLineBodies,
  dynamicAsName,
  modifierCalls,
  topLevelAnnotations,
  trailingDelegation,
];

function _reparseRepaired(
  root: Node,
): { symbols: OutlineSymbol[]; broken: boolean } | undefined {
  const original = root.text;
  let text = original;
  const restores: NonNullable<ReturnType<KotlinRepair>["restore"]>[] = [];
  for (const repair of REPAIRS) {
    const repaired = repair(text);
    text = repaired.text;
    if (repaired.restore !== undefined) restores.push(repaired.restore);
  }
  const parser = new Parser();
  try {
    parser.setLanguage(root.tree.language);
    const tree = parser.parse(text);
    if (tree === null) return undefined;
    try {
      let symbols = _declarations(tree.rootNode);
      for (const restore of restores) symbols = restore(symbols, original);
      return { symbols, broken: _hasTopLevelError(tree.rootNode) };
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

function _hasTopLevelError(root: Node): boolean {
  return root.type === "ERROR" ||
    root.namedChildren.some((child) => child.type === "ERROR");
}

function _declarations(container: Node): OutlineSymbol[] {
  return documentedSymbols(container, _declaration);
}

function _declaration(node: Node): OutlineSymbol | undefined {
  switch (node.type) {
    case "class_declaration":
      return _symbol(_classKeyword(node), _name(node), node, _members(node));
    case "object_declaration": {
      // `data object Loading`: the modifiers say what it is, as for a class.
      const keyword = [..._classModifiers(node), "object"].join(" ");
      return _symbol(keyword, _name(node), node, _members(node));
    }
    case "companion_object": {
      const name = _name(node, "Companion");
      return _symbol("companion object", name, node, _members(node));
    }
    case "function_declaration": {
      const name = _withReceiver(node.childForFieldName("name"));
      return _symbol("fun", name, node);
    }
    case "property_declaration":
      return _symbol(_binding(node), _propertyName(node), node);
    case "type_alias": {
      const name = node.childForFieldName("type")?.text ?? "?";
      return _symbol("typealias", name, node);
    }
    case "secondary_constructor":
      return _symbol("constructor", "constructor", node);
    case "enum_entry": {
      const name = node.namedChildren.find((child) =>
        child.type === "identifier"
      );
      return _symbol("constant", name?.text ?? "?", node);
    }
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

function _name(node: Node, fallback = "?"): string {
  return node.childForFieldName("name")?.text ?? fallback;
}

// `class`, `interface`, `fun interface`, and the class modifiers that change
// what the class is: `data class`, `enum class`, `sealed interface`, ...
function _classKeyword(node: Node): string {
  const words = _classModifiers(node);
  for (const child of node.children) {
    if (
      child.type === "fun" || child.type === "class" ||
      child.type === "interface"
    ) {
      words.push(child.type);
    }
  }
  return words.length === 0 ? "class" : words.join(" ");
}

// `data`, `enum`, `sealed`, `value`, ...
function _classModifiers(node: Node): string[] {
  const modifiers = node.namedChildren.find((child) =>
    child.type === "modifiers"
  );
  return (modifiers?.namedChildren ?? [])
    .filter((modifier) => modifier.type === "class_modifier")
    .map((modifier) => modifier.text);
}

// Body members, plus the `val`/`var` parameters of the primary constructor,
// which are properties too.
function _members(node: Node): OutlineSymbol[] {
  return nested(() => _membersNow(node));
}

function _membersNow(node: Node): OutlineSymbol[] {
  const members: OutlineSymbol[] = [];
  for (const child of node.namedChildren) {
    if (child.type === "primary_constructor") {
      append(members, _constructorProperties(child));
    } else if (
      child.type === "class_body" || child.type === "enum_class_body"
    ) {
      append(members, _declarations(child));
    }
  }
  return members;
}

function _constructorProperties(constructor: Node): OutlineSymbol[] {
  const parameters = constructor.namedChildren.find((child) =>
    child.type === "class_parameters"
  );
  const properties: OutlineSymbol[] = [];
  for (const parameter of parameters?.namedChildren ?? []) {
    const binding = parameter.children.find((child) =>
      child.type === "val" || child.type === "var"
    );
    const name = parameter.namedChildren.find((child) =>
      child.type === "identifier"
    );
    if (binding !== undefined && name !== undefined) {
      const symbol = _symbol(binding.type, name.text, parameter);
      const doc = docComment(parameter);
      if (doc !== undefined) symbol.doc = doc;
      properties.push(symbol);
    }
  }
  return properties;
}

function _binding(node: Node): string {
  return node.children.find((child) =>
    child.type === "val" || child.type === "var"
  )?.type ?? "val";
}

// `answer`, `String.ext` for an extension property, `(p, q)` for a
// destructuring declaration.
function _propertyName(node: Node): string {
  const single = node.namedChildren.find((child) =>
    child.type === "variable_declaration"
  );
  if (single !== undefined) {
    const name = single.namedChildren.find((child) =>
      child.type === "identifier"
    );
    return _withReceiver(name ?? null, single);
  }
  const multiple = node.namedChildren.find((child) =>
    child.type === "multi_variable_declaration"
  );
  if (multiple === undefined) return "?";
  const names = multiple.namedChildren.map((variable) =>
    variable.namedChildren.find((child) => child.type === "identifier")?.text ??
      "_"
  );
  return `(${names.join(", ")})`;
}

// Prefixes the receiver type of an extension: the type-like child right
// before the name (or before `anchor`, the node holding the name).
function _withReceiver(
  name: Node | null,
  anchor: Node | null = name,
): string {
  if (name === null || anchor === null) return "?";
  const previous = anchor.previousNamedSibling;
  return previous !== null && RECEIVER_TYPES.has(previous.type)
    ? `${previous.text}.${name.text}`
    : name.text;
}
