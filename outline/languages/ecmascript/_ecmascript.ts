// The extractor shared by TypeScript, TSX and JavaScript: the three grammars
// name their declarations alike. Labels follow the specification's table.
// Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import {
  append,
  docComment,
  fieldText,
  firstMeaningfulLine,
  isComment,
  isFileOverview,
  makeSymbol,
  nested,
} from "../_nodes.ts";
import { type TreeText, treeText } from "./_es_text.ts";

const MAX_NAME_LENGTH = 80;

// The node types _statement lists; anything else is skipped before any work.
const SYMBOL_TYPES = new Set([
  "import_statement",
  "export from",
  "export default signature",
  "function_declaration",
  "generator_function_declaration",
  "function_signature",
  "function_expression",
  "generator_function",
  "class_declaration",
  "abstract_class_declaration",
  "class",
  "interface_declaration",
  "type_alias_declaration",
  "enum_declaration",
  "internal_module",
  "module",
  "declare global",
  "lexical_declaration",
  "variable_declaration",
  "assignment_expression",
]);

// The text of the tree being outlined, when its readers may stand in for
// calls into WASM (see _es_text.ts); set for the length of one
// extractEcmascript() call (extraction is synchronous).
let source: TreeText | undefined;

// The node types _unwrap() may find a symbol in (SYMBOL_TYPES and what wraps
// them).
const STATEMENT_TYPES = new Set([
  ...SYMBOL_TYPES,
  "export_statement",
  "ambient_declaration",
  "expression_statement",
]);

/** Extracts the top-level symbols of a TS/TSX/JS program. */
export function extractEcmascript(root: Node): OutlineSymbol[] {
  source = treeText(root);
  try {
    return _statements(root);
  } finally {
    source = undefined;
  }
}

/**
 * The scanner inserts no semicolon before `in` or `instanceof` followed by
 * anything but a letter (`in_progress`, `in2` and `in$` read as `in`).
 */
export const ECMASCRIPT_CONTINUATION: RegExp = /^(?:in|instanceof)(?![A-Za-z])/;

/** Joins the pieces of a program: overloads may straddle two of them. */
export function joinEcmascript(pieces: OutlineSymbol[][]): OutlineSymbol[] {
  return _mergeOverloads(pieces.flat());
}

// The declarations of a program, a namespace's body or a bundle's wrapper,
// each with its members at any depth (up to MAX_NESTING levels): a namespace
// nested two deep lists its interfaces, and they list their properties.
function _statements(parent: Node): OutlineSymbol[] {
  const symbols: OutlineSymbol[] = [];
  const siblings = parent.namedChildren;
  const types = _types(siblings);
  let taken: Node | undefined;
  for (let index = 0; index < siblings.length; index++) {
    const node = siblings[index];
    // An expression statement's expression, read once for the wrapper test
    // and for _unwrap().
    const first = types[index] === "expression_statement"
      ? _firstNamed(node)
      : undefined;
    const body = first !== undefined
      ? _iifeBody(first.node, first.type)
      : types[index] === "if_statement"
      ? _guardedWrapperBody(node)
      : undefined;
    if (body !== undefined) {
      append(symbols, _statements(body));
      taken = undefined;
      continue;
    }
    // A comment or any other statement that lists nothing (and takes in no
    // comment) is passed over before any work.
    if (!STATEMENT_TYPES.has(types[index])) {
      taken = undefined;
      continue;
    }
    const place: Place = {
      siblings,
      types,
      index,
      first,
      above: taken,
    };
    const symbol = _statement(node, place);
    if (symbol !== undefined) append(symbols, symbol);
    taken = place.taken;
  }
  return _mergeOverloads(symbols);
}

// Bundles and UMD files wrap the whole module in an immediately invoked
// function (`(function () { ... })()`, `((m) => { ... })(x)`,
// `!function () {}()`, `(function () {}).call(this)`, React 19's
// `"production" !== process.env.NODE_ENV && (function () { ... })()`): its
// body is the real top level, so outline it in place. A UMD wrapper's own
// body only dispatches: the module is the factory function it is called
// with (`(function (global, factory) { ... })(this, function () { ... })`).
function _wrapperBody(statement: Node): Node | undefined {
  return _iifeBody(statement.firstNamedChild);
}

function _iifeBody(
  expression: Node | null,
  expressionType?: string,
): Node | undefined {
  let node = expression;
  let known = expressionType;
  for (let depth = 0; node !== null && depth < 6; depth++) {
    const type = known ?? node.type;
    known = undefined;
    switch (type) {
      case "parenthesized_expression":
        node = node.firstNamedChild;
        break;
      case "unary_expression":
        node = node.childForFieldName("argument");
        break;
      case "binary_expression": {
        const operator = node.childForFieldName("operator")?.type;
        if (operator !== "&&" && operator !== "||") return undefined;
        node = node.childForFieldName("right");
        break;
      }
      case "call_expression": {
        const factory = _factoryArgument(node);
        if (factory !== undefined) return factory;
        node = node.childForFieldName("function");
        break;
      }
      case "member_expression":
        node = node.childForFieldName("object");
        break;
      case "function_expression":
      case "arrow_function": {
        const body = node.childForFieldName("body");
        return body?.type === "statement_block" ? body : undefined;
      }
      default:
        return undefined;
    }
  }
  return undefined;
}

// The members of a variable's value: a class's (esbuild's `var X = class
// {...}`, tsc's decorated `let C = class C {...}`), or a bundle's
// declarations: Rollup's iife format names its module, `var Vue = (function
// (exports) { ... return exports; })({})`. A small IIFE computing a value
// (no function or class inside) has none.
function _valueMembers(
  declarator: Node | undefined,
  type: string | undefined,
): OutlineSymbol[] {
  if (declarator === undefined || type !== "variable_declarator") return [];
  // lib.dom.d.ts declares its constructors so: `declare var Node: {
  // prototype: Node; new(): Node; readonly ELEMENT_NODE: 1; }`.
  const annotation = declarator.childForFieldName("type")?.firstNamedChild;
  if (annotation !== undefined && annotation !== null) {
    const members = _aliasMembers(annotation);
    if (members.length > 0) return members;
  }
  const value = declarator.childForFieldName("value");
  if (value?.type === "class") return _classMembers(value);
  if (value?.type !== "call_expression") return [];
  const body = _iifeBody(value);
  if (body === undefined || !_mayDeclare(body)) return [];
  const members = _statements(body);
  const bundle = members.some((member) =>
    member.kind === "function" || member.kind === "class"
  );
  return bundle ? members : [];
}

// The members of the object types a type alias or a variable's annotation is
// written as, one level down: `{ a: T }`, and each object type of a union or
// intersection (`type P = { as?: "div" } & Base`), in order.
function _aliasMembers(value: Node | null): OutlineSymbol[] {
  const type = value?.type;
  if (type === "union_type" || type === "intersection_type") {
    const members: OutlineSymbol[] = [];
    for (const part of value!.namedChildren) {
      append(members, _aliasMembers(part));
    }
    return members;
  }
  if (type === "parenthesized_type") {
    return _aliasMembers(value!.firstNamedChild);
  }
  return _typeMembers(value);
}

// Whether a function or a class can be declared in `body`: each needs
// `function`, `class` or `=>` in its text (a keyword has no escaped
// spelling). So the IIFE that computes a TypeScript enum in a bundle, with
// hundreds of assignments, is not walked only to be dropped.
function _mayDeclare(body: Node): boolean {
  const text = body.text;
  return text.includes("function") || text.includes("class") ||
    text.includes("=>");
}

// The body of the last function with a block body among a call's arguments,
// when the callee is a function too (a UMD wrapper and its factory).
function _factoryArgument(call: Node): Node | undefined {
  let callee = call.childForFieldName("function");
  while (callee?.type === "parenthesized_expression") {
    callee = callee.firstNamedChild;
  }
  if (callee?.type !== "function_expression") return undefined;
  const args = call.childForFieldName("arguments")?.namedChildren ?? [];
  for (let i = args.length - 1; i >= 0; i--) {
    let arg: Node | null = args[i];
    while (arg?.type === "parenthesized_expression") arg = arg.firstNamedChild;
    if (arg?.type !== "function_expression" && arg?.type !== "arrow_function") {
      continue;
    }
    const body = arg.childForFieldName("body");
    if (body?.type === "statement_block") return body;
  }
  return undefined;
}

// React's CommonJS builds put the wrapper inside an environment check:
// `if (process.env.NODE_ENV !== "production") { (function () { ... })(); }`.
function _guardedWrapperBody(statement: Node): Node | undefined {
  const block = statement.childForFieldName("consequence");
  if (block?.type !== "statement_block") return undefined;
  for (const child of block.namedChildren) {
    if (child.type !== "expression_statement") continue;
    const body = _wrapperBody(child);
    if (body !== undefined) return body;
  }
  return undefined;
}

// A node and its type, read once.
interface Typed {
  node: Node;
  type: string;
}

// The first named child of `node`, with its type.
function _firstNamed(node: Node): Typed | undefined {
  const child = node.firstNamedChild;
  return child === null ? undefined : { node: child, type: child.type };
}

interface Place {
  siblings: readonly Node[];
  types: readonly string[];
  index: number;
  /** The first named child of an expression statement, when read already. */
  first?: Typed;
  /** The comment the statement above took in (see _takenComment()). */
  above?: Node;
  /** Set by _statement(): the comment this statement took in. */
  taken?: Node;
}

function _statement(
  outer: Node,
  place: Place,
): OutlineSymbol[] | undefined {
  const found = _unwrap(outer, place.types[place.index], place.first);
  if (found === undefined || !SYMBOL_TYPES.has(found.type)) return undefined;
  const { node, type } = found;
  const { siblings, types, index } = place;
  const doc = _docAbove(siblings, types, index) ??
    _takenDoc(place.above, outer);
  const taken = BLOCK_DECLARATIONS.has(type) ? _takenComment(node) : undefined;
  place.taken = taken;
  const to = taken === undefined ? undefined : _codeBefore(taken);
  // Members one level down, whatever the depth of the declaration.
  const make = (kind: string, name: string, members?: () => OutlineSymbol[]) =>
    makeSymbol(kind, name, node, {
      from: outer,
      to,
      doc,
      children: members === undefined ? undefined : nested(members),
    });
  switch (type) {
    case "import_statement":
      return [make("import", _importName(node))];
    case "export from":
      return [make("export", _reexportName(node))];
    case "export default signature":
      return [make("function", "default")];
    case "function_declaration":
    case "generator_function_declaration":
    case "function_signature":
    case "function_expression":
    case "generator_function":
      return [make("function", _name(node, type) ?? "default")];
    case "class_declaration":
    case "abstract_class_declaration":
    case "class":
      return [
        make(
          "class",
          _name(node, type) ?? "default",
          () => _classMembers(node),
        ),
      ];
    case "interface_declaration":
      return [
        make(
          "interface",
          _name(node, type) ?? "",
          // Always an `interface_body` (the grammar's alias of object_type):
          // in a tree without errors its type is not read.
          () =>
            _typeMembers(
              node.childForFieldName("body"),
              source === undefined ? undefined : "interface_body",
            ),
        ),
      ];
    case "type_alias_declaration":
      return [
        make(
          "type",
          _name(node, type) ?? "",
          () => _aliasMembers(node.childForFieldName("value")),
        ),
      ];
    case "enum_declaration":
      return [
        make("enum", _name(node, type) ?? "", () => _enumMembers(node)),
      ];
    case "internal_module":
    case "module":
      return [
        make(
          "namespace",
          _clip(_name(node, type) ?? ""),
          () => _namespaceBody(node.childForFieldName("body")),
        ),
      ];
    case "declare global":
      return [make("namespace", "global", () => _namespaceBody(node))];
    case "lexical_declaration":
    case "variable_declaration": {
      const declarators = node.namedChildren;
      const declaratorTypes = _types(declarators);
      const variables = _variables(node, type, {
        outer,
        doc,
        declarators,
        types: declaratorTypes,
      });
      if (variables.length === 1) {
        variables[0].children = nested(() =>
          _valueMembers(declarators[0], declaratorTypes[0])
        );
      }
      return variables;
    }
    case "assignment_expression":
      return _assigned(node, make);
    default:
      return undefined;
  }
}

// Declarations ending in a block that may take a comment in (_codeEnd()).
const BLOCK_DECLARATIONS = new Set([
  "function_declaration",
  "generator_function_declaration",
  "class_declaration",
  "abstract_class_declaration",
]);

// A comment opened on a declaration's last line (`} /**`, as Babel prints a
// file overview after its helpers) is taken into the declaration, since the
// grammar's automatic semicolon goes after it: the comment is the last child
// of a class, or of a function's body. The declaration ends before it, at its
// `}`, and the comment may be the doc of the declaration below.
function _takenComment(node: Node): Node | undefined {
  // Mostly there is none: the text tells without walking the children.
  if (source?.endsInCode(node)) return undefined;
  const last = node.lastChild;
  if (last === null || isComment(last)) return last ?? undefined;
  const inner = last.lastChild;
  return inner !== null && isComment(inner) ? inner : undefined;
}

// The code before a taken comment (and any comments before it).
function _codeBefore(comment: Node): Node | undefined {
  let code = comment.previousSibling;
  while (code !== null && isComment(code)) code = code.previousSibling;
  return code ?? undefined;
}

// The doc the statement above took in: a JSDoc ending on the line above, not
// a file overview.
function _takenDoc(comment: Node | undefined, outer: Node): string | undefined {
  if (comment === undefined) return undefined;
  const text = comment.text;
  if (!text.startsWith("/**") || isFileOverview(text)) return undefined;
  const endRow = comment.endPosition.row;
  return endRow === outer.startPosition.row - 1
    ? firstMeaningfulLine(text)
    : undefined;
}

// Looks through `export`, `declare` and the expression statement that wraps a
// namespace, to the declaration itself (and its type, read once). `first` is
// the node's first named child when the caller read it.
function _unwrap(
  node: Node,
  type: string = node.type,
  first?: Typed,
): Typed | undefined {
  switch (type) {
    case "export_statement": {
      const declaration = node.childForFieldName("declaration") ??
        _defaultExport(node.childForFieldName("value"));
      if (declaration !== null) return _unwrap(declaration);
      // A re-export (`export { x } from "./x.ts"`, `export * from "./y"`):
      // a barrel module's API, listed as its imports are.
      return node.childForFieldName("source") === null
        ? undefined
        : { node, type: "export from" };
    }
    case "ambient_declaration":
    case "expression_statement": {
      const inner = first?.node ?? node.firstNamedChild;
      if (inner === null) return undefined;
      const innerType = first?.type ?? inner.type;
      if (_isDefaultSignature(inner, innerType)) {
        return { node, type: "export default signature" };
      }
      if (
        type === "expression_statement" && innerType !== "internal_module" &&
        innerType !== "assignment_expression"
      ) {
        return undefined;
      }
      // `declare global { ... }`: the block is the namespace's body.
      if (innerType === "statement_block") {
        return { node: inner, type: "declare global" };
      }
      return _unwrap(inner, innerType);
    }
    default:
      return { node, type };
  }
}

// tsc's declaration of an anonymous default function, `export default
// function (options: Options): Result;`, is an error to the grammar: an
// identifier `export`, then an ERROR from `default function`.
function _isDefaultSignature(inner: Node, type: string): boolean {
  if (type !== "identifier" || inner.text !== "export") return false;
  const error = inner.nextSibling;
  return error?.type === "ERROR" && error.firstChild?.type === "default" &&
    error.child(1)?.type === "function";
}

// `export default class {}` / `export default function () {}`: anonymous
// declarations, listed under the name "default".
function _defaultExport(value: Node | null): Node | null {
  const type = value?.type;
  return type === "class" || type === "function_expression" ||
      type === "generator_function"
    ? value
    : null;
}

// CommonJS names its API by assignment (`exports.parse = function () {}`,
// `res.send = function send() {}`, `module.exports = class {}`): a function
// or class assigned is listed under the target as written.
function _assigned(
  node: Node,
  make: (
    kind: string,
    name: string,
    members?: () => OutlineSymbol[],
  ) => OutlineSymbol,
): OutlineSymbol[] | undefined {
  const right = node.childForFieldName("right");
  // The name only for what is listed: most assignments are not.
  const name = () => _clip(node.childForFieldName("left")?.text ?? "");
  switch (right?.type) {
    case "function_expression":
    case "generator_function":
    case "arrow_function":
      return [make("function", name())];
    case "class":
      return [make("class", name(), () => _classMembers(right))];
    default:
      return undefined;
  }
}

function _importName(node: Node): string {
  // `import fs = require("fs")` keeps its module in the require clause.
  const source = node.childForFieldName("source") ??
    node.namedChildren.find((child) => child.type === "import_require_clause")
      ?.childForFieldName("source") ??
    null;
  if (source === null) return _clip(node.text);
  return source.text.slice(1, -1);
}

// A re-export names what it passes on, then its module: `{ createTools }
// from ./x.ts`, `* as fs from node:fs`; `export * from "./y"` names the
// module alone. Every name is kept, so each one can be found.
function _reexportName(node: Node): string {
  const module = _importName(node);
  for (const child of node.namedChildren) {
    const type = child.type;
    if (type === "namespace_export") {
      return `${child.text.replace(WHITESPACE_RUN, " ")} from ${module}`;
    }
    if (type === "export_clause") {
      const names = child.namedChildren
        .filter((specifier) => specifier.type === "export_specifier")
        .map((specifier) => specifier.text.replace(WHITESPACE_RUN, " "));
      return names.length === 0
        ? module
        : `{ ${names.join(", ")} } from ${module}`;
    }
  }
  return module;
}

function _variables(
  node: Node,
  type: string,
  { outer, doc, declarators, types }: {
    outer: Node;
    doc: string | undefined;
    /** The node's named children, and their types. */
    declarators: readonly Node[];
    types: readonly string[];
  },
): OutlineSymbol[] {
  const kind = type === "variable_declaration" ? "var" : _keyword(node);
  const symbols: OutlineSymbol[] = [];
  for (let i = 0; i < declarators.length; i++) {
    if (types[i] !== "variable_declarator") continue;
    const declarator = declarators[i];
    const name = _clipName(source?.leadingName(declarator)) ??
      _clip(fieldText(declarator) ?? declarator.text);
    const only = declarators.length === 1;
    symbols.push(makeSymbol(kind, name, only ? node : declarator, {
      from: only ? outer : declarator,
      doc: only || symbols.length === 0 ? doc : undefined,
    }));
  }
  return symbols;
}

function _keyword(node: Node): string {
  // The `kind` field is the declaration's first token.
  const kind = source?.leadingWord(node) ??
    node.childForFieldName("kind")?.text ?? node.firstChild?.text;
  return kind === "let" || kind === "var" ? kind : "const";
}

function _classMembers(node: Node): OutlineSymbol[] {
  const body = node.childForFieldName("body");
  if (body === null) return [];
  return _mergeOverloads(_members(body, (member, type) => {
    const kind = _memberKind(type);
    if (kind === undefined) return undefined;
    return [kind, _memberName(member, CLASS_MEMBER_NAME)];
  }));
}

function _memberKind(type: string): string | undefined {
  switch (type) {
    case "method_definition":
    case "method_signature":
    case "abstract_method_signature":
      return "method";
    case "public_field_definition":
    case "field_definition":
      return "property";
    default:
      return undefined;
  }
}

// property_signature members of an interface body or object type literal, one
// level deep as the specification asks (maxDepth 1).
function _typeMembers(body: Node | null, knownType?: string): OutlineSymbol[] {
  const bodyType = knownType ?? body?.type;
  if (
    body === null ||
    (bodyType !== "interface_body" && bodyType !== "object_type")
  ) {
    return [];
  }
  return _mergeOverloads(_members(body, (member, type) => {
    const kind = type === "property_signature"
      ? "property"
      : type === "method_signature"
      ? "method"
      : undefined;
    return kind === undefined
      ? undefined
      : [kind, _memberName(member, TYPE_MEMBER_NAME)];
  }));
}

function _enumMembers(node: Node): OutlineSymbol[] {
  const body = node.childForFieldName("body");
  if (body === null) return [];
  return _members(body, (member, type) => {
    const name = type === "enum_assignment"
      ? fieldText(member)
      : type === "property_identifier"
      ? member.text
      : undefined;
    return name === undefined ? undefined : ["member", name];
  });
}

// The members of `body` that `describe` names (a kind and a name), each with
// the doc comment above it.
function _members(
  body: Node,
  describe: (member: Node, type: string) => [string, string] | undefined,
): OutlineSymbol[] {
  const members: OutlineSymbol[] = [];
  const siblings = body.namedChildren;
  const types = _types(siblings);
  for (let index = 0; index < siblings.length; index++) {
    const member = siblings[index];
    const described = describe(member, types[index]);
    if (described === undefined) continue;
    // A method's decorators are its siblings (a field's are its children):
    // it starts at the first, and its doc is above that.
    let first = index;
    while (first > 0 && types[first - 1] === "decorator") first--;
    const from = siblings[first];
    const next = siblings[index + 1];
    members.push(makeSymbol(described[0], described[1], member, {
      from,
      endLine: next === undefined
        ? undefined
        : source?.endLineBefore(member, next),
      doc: _docAbove(siblings, types, first),
    }));
  }
  return members;
}

// The doc comment above `siblings[index]`, by JSDoc's rules. Most
// declarations have none: when the sibling before is no comment there is
// nothing to read (a first named child follows a `{` or nothing).
function _docAbove(
  siblings: readonly Node[],
  types: readonly string[],
  index: number,
): string | undefined {
  if (index === 0 || !types[index - 1].includes("comment")) return undefined;
  return docComment(siblings[index], {
    siblings,
    types,
    index,
    acrossBlankLine: true,
    reader: source,
  });
}

// Each `.type` read is a call into WASM: read every type once, a comment's
// from the text where it can be.
function _types(siblings: readonly Node[]): string[] {
  return source?.types(siblings) ?? siblings.map((node) => node.type);
}

function _namespaceBody(body: Node | null): OutlineSymbol[] {
  return body === null ? [] : _statements(body);
}

// Overloads (`function f(a: string): void;` then `function f(a) {}`, or a
// method declared several times) are one symbol spanning all of them.
function _mergeOverloads(symbols: OutlineSymbol[]): OutlineSymbol[] {
  const merged: OutlineSymbol[] = [];
  for (let i = 0; i < symbols.length; i++) {
    const symbol = symbols[i];
    const { kind } = symbol;
    // Most symbols are neither (properties, types): no name to compare.
    const last = kind === "function" || kind === "method"
      ? merged[merged.length - 1]
      : undefined;
    if (
      last !== undefined && last.kind === kind && last.name === symbol.name
    ) {
      last.endLine = symbol.endLine;
      if (last.doc === undefined && symbol.doc !== undefined) {
        last.doc = symbol.doc;
      }
      continue;
    }
    merged.push(symbol);
  }
  return merged;
}

// A declaration's name, from the text when it can be (see _es_text.ts).
function _name(node: Node, type: string): string | undefined {
  return source?.declarationName(node, type) ?? fieldText(node);
}

// The fields that may hold a member's name: `name`, or `property` for the
// JavaScript grammar's field_definition.
const CLASS_MEMBER_NAME = ["name", "property"];
const TYPE_MEMBER_NAME = ["name"];

// A member's name: read from the text when a plain name starts the member
// (no call into WASM, and no whitespace to flatten), else from its field.
function _memberName(member: Node, fields: readonly string[]): string {
  const leading = _clipName(source?.leadingName(member));
  if (leading !== undefined) return leading;
  for (const field of fields) {
    const name = fieldText(member, field);
    if (name !== undefined) return _clip(name);
  }
  return "";
}

// A plain name read from the text, clipped as _clip() would (it holds no
// whitespace to flatten: no regular expression to run).
function _clipName(name: string | undefined): string | undefined {
  return name !== undefined && name.length > MAX_NAME_LENGTH
    ? _clip(name)
    : name;
}

const WHITESPACE_RUN = /\s+/g;

function _clip(text: string): string {
  const flat = text.replace(WHITESPACE_RUN, " ");
  return flat.length > MAX_NAME_LENGTH
    ? `${flat.slice(0, MAX_NAME_LENGTH - 1)}…`
    : flat;
}
