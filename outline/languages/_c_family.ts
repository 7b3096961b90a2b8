// The walker shared by C and C++: both grammars share node types for
// functions, structs, unions, enums and typedefs; C++ adds classes,
// namespaces, templates and `using`. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../types.ts";
import {
  docComment,
  endLine,
  firstMeaningfulLine,
  isComment,
  makeSymbol,
} from "./_nodes.ts";

/** Which dialect to outline. */
export interface CFamilyOptions {
  /** Adds classes, namespaces, templates and `using`. */
  cpp: boolean;
}

// Nodes whose children are declarations at the same level: conditional
// compilation (sqlite3.c hides most of its functions there) and parse errors.
// A block directly among declarations is never valid C: it is the parser's
// recovery from text it could not read (sqlite3.c's `#if 0` around a Tcl
// script swallows 40,000 lines of functions into one), so look inside.
const TRANSPARENT = new Set([
  "compound_statement",
  "preproc_if",
  "preproc_ifdef",
  "preproc_else",
  "preproc_elif",
  "preproc_elifdef",
  "ERROR",
]);

const NAME_TYPES = new Set([
  "identifier",
  "field_identifier",
  "type_identifier",
  "qualified_identifier",
  "destructor_name",
  "operator_name",
  "template_function",
  "template_method",
  "primitive_type",
]);

const MAX_NAME = 100;

// Declarators that stand alone among declarations only inside an ERROR.
const LOOSE_DECLARATORS = new Set([
  "function_declarator",
  "pointer_declarator",
]);

// What can come before a declarator in a function's head (in an ERROR, a
// type or macro may read as a plain identifier).
const TYPE_PARTS = new Set([
  "identifier",
  "storage_class_specifier",
  "type_qualifier",
  "primitive_type",
  "type_identifier",
  "sized_type_specifier",
  "struct_specifier",
  "union_specifier",
  "enum_specifier",
  "macro_type_specifier",
  "attribute_specifier",
  "ms_call_modifier",
]);

const TYPE_KINDS: Record<string, string> = {
  struct_specifier: "struct",
  union_specifier: "union",
  enum_specifier: "enum",
  class_specifier: "class",
};

/** Outlines a translation unit (or a namespace or `extern "C"` body). */
export function extractCFamily(
  root: Node,
  options: CFamilyOptions,
): OutlineSymbol[] {
  const walker = new _Walker(options.cpp);
  return walker.withoutDefinedPrototypes(walker.declarations(root));
}

/**
 * The name a declarator declares, following the `declarator` chain through
 * pointers, arrays, function declarators and parentheses:
 * `int (*getfn(void))(int)` declares `getfn`.
 */
export function declaratorName(declarator: Node): string | undefined {
  let current: Node | null = declarator;
  while (current !== null) {
    if (NAME_TYPES.has(current.type)) return _oneLine(current.text);
    if (current.type === "operator_cast") {
      const type = current.childForFieldName("type")?.text ?? "";
      return _oneLine(`operator ${type}`);
    }
    current = current.childForFieldName("declarator") ??
      current.namedChildren.find((child) =>
        child.type.endsWith("declarator") || NAME_TYPES.has(child.type)
      ) ?? null;
  }
  return undefined;
}

// Names as one line, clipped: macro-heavy code can make the parser read a
// whole region as a "name".
function _oneLine(text: string): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > MAX_NAME ? `${line.slice(0, MAX_NAME - 1)}…` : line;
}

class _Walker {
  #cpp: boolean;
  // Prototypes found, and the names of the functions defined, so that a
  // prototype shows only when its function is defined elsewhere: a header's
  // API is its prototypes, while in a .c file they only repeat definitions.
  #prototypes = new WeakSet<OutlineSymbol>();
  #defined = new Set<string>();
  // Doc comments of the items of every container walked, by node id: found
  // from the item list, since previousSibling is linear in the number of
  // siblings and sqlite3.c's root has tens of thousands.
  #docs = new Map<number, string | undefined>();

  constructor(cpp: boolean) {
    this.#cpp = cpp;
  }

  /** Drops the prototypes of functions this file defines, at every level. */
  withoutDefinedPrototypes(symbols: OutlineSymbol[]): OutlineSymbol[] {
    return symbols
      .filter((symbol) =>
        !this.#prototypes.has(symbol) || !this.#defined.has(symbol.name)
      )
      .map((symbol) => {
        if (symbol.kind === "namespace") {
          symbol.children = this.withoutDefinedPrototypes(symbol.children);
        }
        return symbol;
      });
  }

  /** The symbols declared directly in a container (file, namespace body). */
  declarations(container: Node): OutlineSymbol[] {
    const symbols: OutlineSymbol[] = [];
    const items = this.#items(container);
    // A function recovered from an ERROR ends where the next symbol starts.
    let open: OutlineSymbol | undefined;
    let lastEnd = 0;
    for (let i = 0; i < items.length; i++) {
      const node = items[i];
      const symbol = LOOSE_DECLARATORS.has(node.type)
        ? this.#looseFunction(items, i)
        : this.#declaration(node, node);
      if (symbol !== undefined) {
        if (open !== undefined) {
          open.endLine = Math.max(open.startLine, lastEnd);
          open = undefined;
        }
        symbols.push(symbol);
        if (LOOSE_DECLARATORS.has(node.type)) open = symbol;
        else if (node.type === "function_definition") {
          symbols.push(...this.#swallowedFunctions(node, symbol));
        }
      }
      if (!isComment(node)) lastEnd = endLine(node);
    }
    if (open !== undefined) open.endLine = Math.max(open.startLine, lastEnd);
    return symbols;
  }

  // `static int f(int a){` whose body the parser could not match (braces
  // opened in both branches of an #if) leaves the declarator loose in an
  // ERROR, after its type and before the statements of its body.
  #looseFunction(items: Node[], index: number): OutlineSymbol | undefined {
    const declarator = items[index];
    if (!_isFunctionDeclarator(declarator)) return undefined;
    // The head may start on the line above (`static int\nf(void){`), but an
    // identifier there is more likely the end of something else (`#if X`).
    const row = declarator.startPosition.row;
    let first = index;
    while (first > 0) {
      const part = items[first - 1];
      const partRow = part.startPosition.row;
      if (!TYPE_PARTS.has(part.type) || partRow < row - 1) break;
      if (partRow < row && part.type === "identifier") break;
      first--;
    }
    const name = declaratorName(declarator) ?? "?";
    this.#defined.add(name);
    return this.#symbol("function", name, declarator, items[first]);
  }

  // Braces opened in both branches of an #if (`while(a){` / `#else` /
  // `while(b){`) make the parser run a function's body on into the next
  // functions, 20,000 lines of them in sqlite3.c. C has no nested functions,
  // so list the ones found inside as siblings and end each function where
  // the next one starts. (In C++, a method of a local class is legitimate.)
  #swallowedFunctions(node: Node, symbol: OutlineSymbol): OutlineSymbol[] {
    const body = node.childForFieldName("body");
    // Only a body the parser had to recover is worth the (slow) search.
    if (body === null || !body.hasError) return [];
    const inner = _functionsInside(body);
    const symbols: OutlineSymbol[] = [];
    let previous = symbol;
    for (const found of inner) {
      const next = this.#declaration(found, found);
      if (next === undefined) continue;
      previous.endLine = Math.max(previous.startLine, next.startLine - 1);
      symbols.push(next);
      previous = next;
    }
    return symbols;
  }

  // Named children, looking through #if blocks, ERROR nodes and
  // `extern "C" { ... }` (C headers wrap themselves in one under #ifdef
  // __cplusplus, and the C grammar reads it too).
  #items(container: Node): Node[] {
    const items = _flatten(container);
    _docsOf(items, this.#docs);
    return items;
  }

  // `outer` is the node that starts the symbol's range and carries its doc
  // comment: a template_declaration around `node`, or `node` itself.
  #declaration(node: Node, outer: Node): OutlineSymbol | undefined {
    switch (node.type) {
      case "function_definition": {
        const name = this.#functionName(node);
        this.#defined.add(name);
        return this.#symbol("function", name, node, outer);
      }
      case "type_definition":
        return this.#typedef(node, outer);
      case "declaration":
        return this.#specifierOf(node, outer) ?? this.#prototype(node, outer);
      case "struct_specifier":
      case "union_specifier":
      case "enum_specifier":
      case "class_specifier":
        return this.#type(node, node, outer);
    }
    if (!this.#cpp) return undefined;
    switch (node.type) {
      case "namespace_definition":
        return this.#namespace(node, outer);
      case "template_declaration":
        return this.#template(node, (inner) => this.#declaration(inner, outer));
      case "alias_declaration":
        return this.#symbol("using", this.#name(node), node, outer);
    }
    return undefined;
  }

  #symbol(
    kind: string,
    name: string,
    node: Node,
    outer: Node,
    children: OutlineSymbol[] = [],
  ): OutlineSymbol {
    const doc = this.#docs.has(outer.id)
      ? this.#docs.get(outer.id)
      : _doc(outer);
    return makeSymbol(kind, name, node, { from: outer, doc, children });
  }

  #name(node: Node): string {
    return _oneLine(node.childForFieldName("name")?.text ?? "(anonymous)");
  }

  #functionName(node: Node): string {
    const declarator = node.childForFieldName("declarator");
    if (declarator === null) return "?";
    // `iterator begin() NOEXCEPT_MACRO {`: the macro reads as the declarator
    // and the real one lands in an ERROR child.
    if (NAME_TYPES.has(declarator.type)) {
      const hidden = node.namedChildren
        .find((child) => child.type === "ERROR")
        ?.namedChildren.find((child) => child.type === "function_declarator");
      if (hidden !== undefined) return declaratorName(hidden) ?? "?";
    }
    return declaratorName(declarator) ?? "?";
  }

  // A template wraps one declaration; the symbol starts at `template <...>`.
  #template(
    node: Node,
    build: (inner: Node) => OutlineSymbol | undefined,
  ): OutlineSymbol | undefined {
    const inner = node.namedChildren.at(-1);
    return inner === undefined ? undefined : build(inner);
  }

  // `int deflate(z_streamp strm, int flush);`
  #prototype(node: Node, outer: Node): OutlineSymbol | undefined {
    const declarator = node.childrenForFieldName("declarator")
      .find(_isFunctionDeclarator);
    if (declarator === undefined) return undefined;
    const name = declaratorName(declarator) ?? "?";
    const symbol = this.#symbol("function", name, node, outer);
    this.#prototypes.add(symbol);
    return symbol;
  }

  // `struct s { ... } g;` declares a type worth listing; a prototype or a
  // plain variable does not.
  #specifierOf(node: Node, outer: Node): OutlineSymbol | undefined {
    const type = node.childForFieldName("type");
    if (type === null || !_hasBody(type)) return undefined;
    return this.#type(type, node, outer);
  }

  #type(specifier: Node, node: Node, outer: Node): OutlineSymbol | undefined {
    if (!_hasBody(specifier)) return undefined;
    const kind = TYPE_KINDS[specifier.type];
    return this.#symbol(
      kind,
      this.#name(specifier),
      node,
      outer,
      this.#members(specifier),
    );
  }

  // `typedef struct node {...} node_t;` lists as `typedef node_t` with the
  // struct's fields; `typedef int (*cb_t)(int);` as `typedef cb_t`.
  #typedef(node: Node, outer: Node): OutlineSymbol {
    const names = node.childrenForFieldName("declarator")
      .filter((child) => child.isNamed)
      .map((declarator) => declaratorName(declarator))
      .filter((name) => name !== undefined);
    const type = node.childForFieldName("type");
    const children = type !== null && _hasBody(type) ? this.#members(type) : [];
    const name = names.length > 0 ? names.join(", ") : "?";
    return this.#symbol("typedef", name, node, outer, children);
  }

  // Nested namespaces that hold nothing else merge into one symbol, as C++17
  // writes them: `namespace outer::inner`.
  #namespace(node: Node, outer: Node): OutlineSymbol {
    let name = this.#name(node);
    let current = node;
    for (;;) {
      const body = current.childForFieldName("body");
      const items = body === null ? [] : this.#items(body)
        .filter((item) => !item.type.includes("comment"));
      if (items.length !== 1 || items[0].type !== "namespace_definition") {
        return this.#symbol(
          "namespace",
          name,
          node,
          outer,
          body === null ? [] : this.declarations(body),
        );
      }
      current = items[0];
      name = `${name}::${this.#name(current)}`;
    }
  }

  #members(specifier: Node): OutlineSymbol[] {
    const body = specifier.childForFieldName("body");
    if (body === null) return [];
    if (specifier.type === "enum_specifier") {
      return body.namedChildren
        .filter((child) => child.type === "enumerator")
        .map((item) =>
          this.#symbol("enumerator", this.#name(item), item, item)
        );
    }
    const members: OutlineSymbol[] = [];
    for (const item of this.#items(body)) {
      const member = this.#member(item, item);
      if (member !== undefined) members.push(member);
    }
    return members;
  }

  #member(node: Node, outer: Node): OutlineSymbol | undefined {
    switch (node.type) {
      case "function_definition":
        return this.#symbol("method", this.#functionName(node), node, outer);
      case "field_declaration":
      case "declaration":
        return this.#field(node, outer);
      case "template_declaration":
        return this.#template(node, (inner) => this.#member(inner, outer));
      case "type_definition":
        return this.#typedef(node, outer);
      case "alias_declaration":
        return this.#symbol("using", this.#name(node), node, outer);
      case "struct_specifier":
      case "union_specifier":
      case "enum_specifier":
      case "class_specifier":
        return this.#type(node, node, outer);
    }
    return undefined;
  }

  // A field, a method declaration (`void draw();`) or a nested type with no
  // declarator (`struct Inner { ... };`).
  #field(node: Node, outer: Node): OutlineSymbol | undefined {
    const declarators = node.childrenForFieldName("declarator")
      .filter((child) => child.isNamed);
    if (declarators.length === 0) {
      const type = node.childForFieldName("type");
      return type !== null && _hasBody(type)
        ? this.#type(type, node, outer)
        : undefined;
    }
    if (declarators.some(_isFunctionDeclarator)) {
      const name = declaratorName(declarators[0]) ?? "?";
      return this.#symbol("method", name, node, outer);
    }
    const names = declarators.map((declarator) => declaratorName(declarator))
      .filter((name) => name !== undefined);
    if (names.length === 0) return undefined;
    return this.#symbol("field", names.join(", "), node, outer);
  }
}

// Named children, looking through #if blocks, ERROR nodes and
// `extern "C" { ... }` (C headers wrap themselves in one under #ifdef
// __cplusplus, and the C grammar reads it too).
function _flatten(container: Node): Node[] {
  const items: Node[] = [];
  let directiveRow = -1;
  for (const child of container.namedChildren) {
    if (TRANSPARENT.has(child.type)) {
      items.push(..._flatten(child));
      directiveRow = _endifRow(child);
    } else if (child.type === "linkage_specification") {
      const body = child.childForFieldName("body");
      if (body?.type === "declaration_list") items.push(..._flatten(body));
      else if (body !== null) items.push(body);
    } else if (
      // `#endif /* X */` speaks of the directive, not of what follows.
      directiveRow < 0 || !isComment(child) ||
      child.startPosition.row !== directiveRow
    ) items.push(child);
  }
  return items;
}

function _endifRow(node: Node): number {
  const last = node.lastChild;
  return last !== null && last.type === "#endif" ? last.startPosition.row : -1;
}

// Records the doc comment of each item: the comments right above it, with
// no blank line between, leaving out a trailing comment on the line of the
// code before. Across #if lines too, since those are not items: the line
// check keeps a comment above `#ifdef` from documenting what is inside.
function _docsOf(items: Node[], docs: Map<number, string | undefined>): void {
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (isComment(item) || i === 0 || !isComment(items[i - 1])) continue;
    let first = i;
    let row = item.startPosition.row;
    while (first > 0 && isComment(items[first - 1])) {
      const comment = items[first - 1];
      if (comment.endPosition.row < row - 1) break;
      const before = items[first - 2];
      const commentRow = comment.startPosition.row;
      if (
        before !== undefined && !isComment(before) &&
        before.endPosition.row === commentRow
      ) break;
      first--;
      row = commentRow;
    }
    if (first < i) docs.set(item.id, _docText(items.slice(first, i)));
  }
}

// As docComment(): the last block comment, or the run of line comments
// ending the list.
function _docText(comments: Node[]): string | undefined {
  const last = comments[comments.length - 1].text;
  if (last.startsWith("/*")) return firstMeaningfulLine(last);
  const run: string[] = [];
  for (let i = comments.length - 1; i >= 0; i--) {
    const text = comments[i].text;
    if (text.startsWith("/*")) break;
    run.unshift(text);
  }
  return firstMeaningfulLine(run.join("\n"));
}

// Statements that can hold a swallowed function. Expressions, and classes or
// lambdas (where C++ legitimately defines functions), are not entered: the
// walk stays twice as fast as descendantsOfType() over the whole body.
const BLOCKS = new Set([
  ...TRANSPARENT,
  "function_definition",
  "if_statement",
  "else_clause",
  "while_statement",
  "for_statement",
  "do_statement",
  "switch_statement",
  "case_statement",
  "labeled_statement",
  "declaration_list",
  "linkage_specification",
]);

// The function definitions inside `body`, at any depth, in order.
function _functionsInside(body: Node): Node[] {
  const found: Node[] = [];
  const cursor = body.walk();
  try {
    if (!cursor.gotoFirstChild()) return found;
    for (;;) {
      const type = cursor.nodeType;
      if (type === "function_definition") found.push(cursor.currentNode);
      if (BLOCKS.has(type) && cursor.gotoFirstChild()) continue;
      while (!cursor.gotoNextSibling()) {
        // The cursor starts at `body`: back there, the walk is done.
        if (!cursor.gotoParent() || cursor.currentDepth === 0) return found;
      }
    }
  } finally {
    cursor.delete();
  }
}

// `int (*fn)(void);` is a field holding a function pointer, not a method: the
// function declarator must be reached without passing a parenthesis.
function _isFunctionDeclarator(declarator: Node): boolean {
  let current: Node | null = declarator;
  while (current !== null) {
    if (current.type === "function_declarator") {
      return current.childForFieldName("declarator")?.type !==
        "parenthesized_declarator";
    }
    if (current.type === "operator_cast") return true;
    if (
      current.type !== "pointer_declarator" &&
      current.type !== "reference_declarator"
    ) return false;
    current = current.childForFieldName("declarator") ??
      current.namedChildren.at(-1) ?? null;
  }
  return false;
}

function _hasBody(node: Node): boolean {
  return node.type in TYPE_KINDS && node.childForFieldName("body") !== null;
}

// C has no doc-comment convention: any comment right above counts (`/** */`,
// `//`, and sqlite3.c's `/* ** ... */`).
function _doc(node: Node): string | undefined {
  return docComment(node, { accept: () => true });
}
