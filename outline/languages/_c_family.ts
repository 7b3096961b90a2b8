// The walker shared by C and C++: both grammars share node types for
// functions, structs, unions, enums and typedefs; C++ adds classes,
// namespaces, templates and `using`. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../types.ts";
import {
  type CItem,
  flattenItems,
  functionsInside,
  isCommentType,
  recordDocs,
} from "./_c_items.ts";
import { append, docComment, endLine, makeSymbol, nested } from "./_nodes.ts";

/** Which dialect to outline. */
export interface CFamilyOptions {
  /** Adds classes, namespaces, templates and `using`. */
  cpp: boolean;
  /** One piece of a file (see {@linkcode extractCFamily}). */
  piece?: boolean;
}

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

/**
 * Outlines a translation unit (or a namespace or `extern "C"` body). For a
 * piece of a file, the prototypes of functions defined elsewhere are kept
 * with the kind {@linkcode PROTOTYPE} for {@linkcode joinCFamily} to settle.
 */
export function extractCFamily(
  root: Node,
  options: CFamilyOptions,
): OutlineSymbol[] {
  const walker = new _Walker(options.cpp);
  const symbols = walker.withoutDefinedPrototypes(walker.declarations(root));
  return options.piece ? walker.markPrototypes(symbols) : symbols;
}

/** The kind of a prototype in a piece's outline, until the pieces are joined. */
export const PROTOTYPE = "function prototype";

/**
 * Joins the pieces of a file: a prototype shows only if no piece defines its
 * function, as {@linkcode extractCFamily} decides for a whole file.
 */
export function joinCFamily(pieces: OutlineSymbol[][]): OutlineSymbol[] {
  const symbols = pieces.flat();
  const defined = new Set<string>();
  const collect = (level: OutlineSymbol[]): void => {
    for (const symbol of level) {
      if (symbol.kind === "function") _addDefined(defined, symbol.name);
      if (symbol.kind === "namespace") collect(symbol.children);
    }
  };
  collect(symbols);
  const settle = (level: OutlineSymbol[]): OutlineSymbol[] =>
    level.filter((symbol) => {
      if (symbol.kind === "namespace") {
        symbol.children = settle(symbol.children);
      }
      if (symbol.kind !== PROTOTYPE) return true;
      symbol.kind = "function";
      return !defined.has(symbol.name);
    });
  return settle(symbols);
}

// `void geo::io::write(...) {}` defines what `namespace geo::io { void
// write(...); }` declared: the unqualified name counts too.
function _addDefined(defined: Set<string>, name: string): void {
  defined.add(name);
  const scope = name.lastIndexOf("::");
  if (scope >= 0) defined.add(name.slice(scope + 2));
}

/**
 * The name a declarator declares, following the `declarator` chain through
 * pointers, arrays, function declarators and parentheses:
 * `int (*getfn(void))(int)` declares `getfn`.
 */
export function declaratorName(
  declarator: Node,
  declaratorType?: string,
): string | undefined {
  let current: Node | null = declarator;
  // The caller may have read the first node's type already (a call into WASM).
  let known = declaratorType;
  while (current !== null) {
    const type = known ?? current.type;
    known = undefined;
    // `__host__ cudaError_t f(` reads as the name `cudaError_t::f` with a
    // MISSING `::`: the macro took the type's place. Keep the real name.
    if (type === "qualified_identifier" && current.hasError) {
      current = current.childForFieldName("name");
      continue;
    }
    if (NAME_TYPES.has(type)) return _oneLine(current.text);
    if (type === "operator_cast") {
      const target = current.childForFieldName("type")?.text ?? "";
      return _oneLine(`operator ${target}`);
    }
    current = current.childForFieldName("declarator") ??
      current.namedChildren.find((child) =>
        child.type.endsWith("declarator") || NAME_TYPES.has(child.type)
      ) ?? null;
  }
  return undefined;
}

// Names as one line, clipped: macro-heavy code can make the parser read a
// whole region, comments included, as a "name".
function _oneLine(text: string): string {
  // Only the start can show: clipped first, the patterns stay quick.
  const line = text.slice(0, 4 * MAX_NAME).replace(/\s*\/[/*][^]*$/, "")
    .replace(/\s+/g, " ");
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

  #define(name: string): void {
    _addDefined(this.#defined, name);
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

  /** Marks the prototypes left, at every level, for joinCFamily(). */
  markPrototypes(symbols: OutlineSymbol[]): OutlineSymbol[] {
    for (const symbol of symbols) {
      if (this.#prototypes.has(symbol)) symbol.kind = PROTOTYPE;
      if (symbol.kind === "namespace") this.markPrototypes(symbol.children);
    }
    return symbols;
  }

  /** The symbols declared directly in a container (file, namespace body). */
  declarations(container: Node): OutlineSymbol[] {
    const symbols: OutlineSymbol[] = [];
    const items = this.#items(container);
    // A function recovered from an ERROR ends where the next symbol starts.
    let open: OutlineSymbol | undefined;
    let lastEnd = 0;
    for (let i = 0; i < items.length; i++) {
      const { node, type } = items[i];
      const loose = LOOSE_DECLARATORS.has(type);
      const symbol = loose
        ? this.#looseFunction(items, i)
        : this.#declaration(node, node, type);
      if (symbol !== undefined) {
        if (open !== undefined) {
          open.endLine = Math.max(open.startLine, lastEnd);
          open = undefined;
        }
        symbols.push(symbol);
        if (loose) open = symbol;
        else if (type === "function_definition") {
          append(symbols, this.#swallowedFunctions(node, symbol));
        }
      }
      if (open !== undefined && !isCommentType(type)) lastEnd = endLine(node);
    }
    if (open !== undefined) open.endLine = Math.max(open.startLine, lastEnd);
    return symbols;
  }

  // `static int f(int a){` whose body the parser could not match (braces
  // opened in both branches of an #if) leaves the declarator loose in an
  // ERROR, after its type and before the statements of its body.
  #looseFunction(items: CItem[], index: number): OutlineSymbol | undefined {
    const declarator = items[index].node;
    if (!_isFunctionDeclarator(declarator)) return undefined;
    // The head may start on the line above (`static int\nf(void){`), but an
    // identifier there is more likely the end of something else (`#if X`).
    const row = declarator.startPosition.row;
    let first = index;
    while (first > 0) {
      const part = items[first - 1];
      const partRow = part.node.startPosition.row;
      if (!TYPE_PARTS.has(part.type) || partRow < row - 1) break;
      if (partRow < row && part.type === "identifier") break;
      first--;
    }
    const name = declaratorName(declarator) ?? "?";
    this.#define(name);
    return this.#symbol("function", name, declarator, items[first].node);
  }

  // Braces opened in both branches of an #if (`while(a){` / `#else` /
  // `while(b){`) make the parser run a function's body on into the next
  // functions, 20,000 lines of them in sqlite3.c. C has no nested functions,
  // so list the ones found inside as siblings and end each function where
  // the next one starts. (In C++, a method of a local class is legitimate.)
  #swallowedFunctions(node: Node, symbol: OutlineSymbol): OutlineSymbol[] {
    // Only a body the parser had to recover is worth the (slow) search.
    if (!node.hasError) return [];
    const body = node.childForFieldName("body");
    if (body === null || !body.hasError) return [];
    const inner = functionsInside(body);
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

  #items(container: Node): CItem[] {
    const items = flattenItems(container);
    recordDocs(items, this.#docs);
    return items;
  }

  // `outer` is the node that starts the symbol's range and carries its doc
  // comment: a template_declaration around `node`, or `node` itself.
  #declaration(
    node: Node,
    outer: Node,
    type: string = node.type,
  ): OutlineSymbol | undefined {
    switch (type) {
      case "function_definition": {
        const name = this.#functionName(node);
        this.#define(name);
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
    switch (type) {
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
    const declaratorType = declarator.type;
    // `iterator begin() NOEXCEPT_MACRO {`: the macro reads as the declarator
    // and the real one lands in an ERROR child.
    if (NAME_TYPES.has(declaratorType)) {
      const hidden = node.namedChildren
        .find((child) => child.type === "ERROR")
        ?.namedChildren.find((child) => child.type === "function_declarator");
      if (hidden !== undefined) return declaratorName(hidden) ?? "?";
    }
    return declaratorName(declarator, declaratorType) ?? "?";
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
      .find((declarator) => _isFunctionDeclarator(declarator));
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
    return type === null ? undefined : this.#type(type, node, outer);
  }

  // `specifier` is the struct/union/enum/class; `node` the declaration
  // around it, if any.
  #type(specifier: Node, node: Node, outer: Node): OutlineSymbol | undefined {
    const type = specifier.type;
    const body = _typeBody(specifier, type);
    if (body === null) return undefined;
    const name = this.#name(specifier);
    const children = this.#members(body, type);
    return this.#symbol(TYPE_KINDS[type], name, node, outer, children);
  }

  // `typedef struct node {...} node_t;` lists as `typedef node_t` with the
  // struct's fields; `typedef int (*cb_t)(int);` as `typedef cb_t`.
  #typedef(node: Node, outer: Node): OutlineSymbol {
    const names = node.childrenForFieldName("declarator")
      .filter((child) => child.isNamed)
      .map((declarator) => declaratorName(declarator))
      .filter((name) => name !== undefined);
    const type = node.childForFieldName("type");
    const typeName = type?.type ?? "";
    const body = type === null ? null : _typeBody(type, typeName);
    const children = body === null ? [] : this.#members(body, typeName);
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
      const items = body === null
        ? []
        : this.#items(body).filter((item) => !isCommentType(item.type));
      if (items.length !== 1 || items[0].type !== "namespace_definition") {
        return this.#symbol(
          "namespace",
          _oneLine(name),
          node,
          outer,
          body === null ? [] : nested(() => this.declarations(body)),
        );
      }
      current = items[0].node;
      // Past the clipped length, deeper levels add nothing a reader sees.
      if (name.length <= MAX_NAME) name = `${name}::${this.#name(current)}`;
    }
  }

  #members(body: Node, specifierType: string): OutlineSymbol[] {
    return nested(() => this.#membersNow(body, specifierType));
  }

  #membersNow(body: Node, specifierType: string): OutlineSymbol[] {
    if (specifierType === "enum_specifier") {
      return this.#items(body)
        .filter((item) => item.type === "enumerator")
        .map(({ node }) =>
          this.#symbol("enumerator", this.#name(node), node, node)
        );
    }
    const members: OutlineSymbol[] = [];
    for (const { node, type } of this.#items(body)) {
      const member = this.#member(node, node, type);
      if (member !== undefined) members.push(member);
    }
    return members;
  }

  #member(
    node: Node,
    outer: Node,
    type: string = node.type,
  ): OutlineSymbol | undefined {
    switch (type) {
      case "function_definition":
        return this.#symbol("method", this.#functionName(node), node, outer);
      case "field_declaration":
      case "declaration":
        return this.#field(node, outer);
      case "template_declaration":
        return this.#template(node, (inner) => this.#member(inner, outer));
      case "friend_declaration":
        return this.#friend(node, outer);
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

  // A "hidden friend" defined in the class (`friend bool operator==(...)
  // {...}`) is a function of the class's API; `friend class B;` is not.
  #friend(node: Node, outer: Node): OutlineSymbol | undefined {
    const definition = node.namedChildren.find((child) =>
      child.type === "function_definition"
    );
    if (definition === undefined) return undefined;
    return this.#symbol("friend", this.#functionName(definition), node, outer);
  }

  // A field, a method declaration (`void draw();`) or a nested type with no
  // declarator (`struct Inner { ... };`).
  #field(node: Node, outer: Node): OutlineSymbol | undefined {
    const declarators = node.childrenForFieldName("declarator")
      .filter((child) => child.isNamed);
    if (declarators.length === 0) {
      const type = node.childForFieldName("type");
      return type === null ? undefined : this.#type(type, node, outer);
    }
    // Each type read once, for both questions below.
    const types = declarators.map((declarator) => declarator.type);
    if (declarators.some((d, i) => _isFunctionDeclarator(d, types[i]))) {
      const name = declaratorName(declarators[0], types[0]) ?? "?";
      return this.#symbol("method", name, node, outer);
    }
    const names = declarators.map((d, i) => declaratorName(d, types[i]))
      .filter((name) => name !== undefined);
    if (names.length === 0) return undefined;
    return this.#symbol("field", names.join(", "), node, outer);
  }
}

// `int (*fn)(void);` is a field holding a function pointer, not a method: the
// name must sit in a function declarator's own parameter list, not behind a
// parenthesis (`void (*signal(int))(int);` is a function that returns one).
function _isFunctionDeclarator(
  declarator: Node,
  declaratorType?: string,
): boolean {
  let current: Node | null = declarator;
  let known = declaratorType;
  while (current !== null) {
    const type = known ?? current.type;
    known = undefined;
    if (type === "function_declarator") {
      const inner = current.childForFieldName("declarator");
      if (inner?.type !== "parenthesized_declarator") return true;
      current = inner.namedChildren.find((child) =>
        child.type === "pointer_declarator"
      ) ?? null;
      continue;
    }
    if (type === "operator_cast") return true;
    if (type !== "pointer_declarator" && type !== "reference_declarator") {
      return false;
    }
    current = current.childForFieldName("declarator") ??
      current.namedChildren.at(-1) ?? null;
  }
  return false;
}

// The body of a struct, union, enum or class specifier (`struct s` alone has
// none).
function _typeBody(node: Node, type: string = node.type): Node | null {
  return type in TYPE_KINDS ? node.childForFieldName("body") : null;
}

// For a node not among the items walked (an enumerator, a function found
// inside another's body): any comment right above counts, as in recordDocs().
function _doc(node: Node): string | undefined {
  return docComment(node, { accept: () => true });
}
