// Swift: types (class, struct, enum, extension, actor, protocol) with their
// members, functions, initializers, properties and typealiases; `///` and
// `/** */` doc comments. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { LanguageSpec } from "../_language.ts";
import { documentedSymbols, makeSymbol, nested } from "../_nodes.ts";
import { type Directive, laterBranches } from "./_swift_branches.ts";

/** Swift (`.swift`): declarations labelled with Swift's own keywords. */
export const swift: LanguageSpec = {
  name: "Swift",
  grammar: "swift",
  extensions: [".swift"],
  extract: extractSwift,
  prepare: (source) => blankMisreadWords(blankDirectives(source)),
  // The scanner takes these words after a newline as going on with the line
  // above unless a letter or digit follows (`as_string` reads as `as`).
  continuation: /^(?:as|async|throws|rethrows|where|default)(?![A-Za-z0-9])/,
  braces: true,
  preprocessor: true,
};

function extractSwift(root: Node): OutlineSymbol[] {
  return _declarations(root);
}

// A conditional compilation line: `#if`, `#elseif`, `#else`, `#endif`.
const DIRECTIVE = /^[ \t]*#(if|elseif|else|endif)(?![A-Za-z0-9_])/gm;
// A condition goes on over the next line while a parenthesis is open or the
// line ends with `&&` or `||`; never past this many lines.
const MAX_CONDITION_LINES = 20;
const OPEN_CONDITION = /(?:&&|\|\|)\s*$/;

/**
 * The text with its `#if`/`#elseif`/`#else`/`#endif` lines blanked (spaces,
 * same length, line breaks kept), so every branch parses as plain code. The
 * grammar reads a directive only between statements: inside a type body it
 * drops the type and lists its members at the top level (`#if DEBUG` merely
 * leaves an ERROR, `#if os(iOS)` or `#if canImport(X)` after a member loses
 * the type). The outline wants the members of every branch anyway, unless
 * the branches do not balance their braces (see _swift_branches.ts).
 */
function blankDirectives(source: string): string {
  const directives: Directive[] = [];
  DIRECTIVE.lastIndex = 0;
  for (let match; (match = DIRECTIVE.exec(source)) !== null;) {
    const end = _directiveEnd(source, match.index + match[0].length);
    directives.push({ start: match.index, end, word: match[1] });
    DIRECTIVE.lastIndex = end;
  }
  if (directives.length === 0) return source;
  // A block whose branches each open (or close) a body keeps its first.
  const branches = laterBranches(source, directives)
    .sort((a, b) => a[0] - b[0]);
  const parts: string[] = [];
  let from = 0;
  // Ranges come in order of their starts; a later branch holds directives.
  const blank = (start: number, end: number) => {
    if (end <= from) return;
    const at = Math.max(start, from);
    parts.push(source.slice(from, at));
    parts.push(source.slice(at, end).replace(/[^\r\n]/g, " "));
    from = end;
  };
  let next = 0;
  for (const directive of directives) {
    while (next < branches.length && branches[next][0] <= directive.start) {
      blank(...branches[next++]);
    }
    blank(directive.start, directive.end);
  }
  while (next < branches.length) blank(...branches[next++]);
  parts.push(source.slice(from));
  return parts.join("");
}

// Words the grammar misreads, blanked (same length) where they stand:
// - `try?`, `try!`, `try`, `await` after `let x =` (`if let r = try? a.b {`
//   read `a.b { ... }` as a call with a trailing closure to the end of the
//   file); dropped, the binding parses as Swift means it;
// - `(unsafe)` after `nonisolated`, Swift 6's `nonisolated(unsafe) var`,
//   read as a tuple pattern that lost the property.
const MISREAD_WORDS =
  /(?<=\b(?:let|var)[ \t]+\w+[ \t]*=[ \t]*)(?:(?:try[?!]?|await)[ \t]+)+|(?<=\bnonisolated)\(unsafe\)/g;

function blankMisreadWords(source: string): string {
  // Not in comments: a doc is read from this text too. What the current
  // line holds is found once per line (the matches come in order).
  let lineEnd = -1;
  let commentFrom = 0;
  return source.replace(MISREAD_WORDS, (words, offset: number) => {
    if (offset > lineEnd) {
      const lineStart = source.lastIndexOf("\n", offset - 1) + 1;
      lineEnd = source.indexOf("\n", offset);
      if (lineEnd < 0) lineEnd = source.length;
      const line = source.slice(lineStart, lineEnd);
      const first = line.trimStart();
      const slashes = line.indexOf("//");
      commentFrom = first.startsWith("*") || first.startsWith("/*")
        ? lineStart
        : slashes >= 0
        ? lineStart + slashes
        : lineEnd;
    }
    return offset >= commentFrom ? words : " ".repeat(words.length);
  });
}

// Where a directive that starts before `at` ends: at its line break, or at
// that of the line its condition ends on.
function _directiveEnd(source: string, at: number): number {
  let depth = 0;
  for (let lines = 1;; lines++) {
    let end = source.indexOf("\n", at);
    if (end === -1) end = source.length;
    let line = source.slice(at, end);
    const comment = line.indexOf("//");
    if (comment !== -1) line = line.slice(0, comment);
    for (const char of line) {
      if (char === "(") depth++;
      else if (char === ")") depth--;
    }
    const open = depth > 0 || OPEN_CONDITION.test(line);
    if (!open || end === source.length || lines >= MAX_CONDITION_LINES) {
      return end;
    }
    at = end + 1;
  }
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
