// The walker shared by C and C++: both grammars share node types for
// functions, structs, unions, enums and typedefs; C++ adds classes,
// namespaces, templates and `using`. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import {
  type CItem,
  flattenItems,
  isCommentType,
  recordDocs,
  swallowedDefinitions,
} from "./_c_items.ts";
import { append, docComment, endLine, makeSymbol, nested } from "../_nodes.ts";
import { CTreeText } from "./_c_tree_text.ts";

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

/** Name types that are one token of word characters (see CTreeText.word()). */
const WORD_TYPES = new Set([
  "identifier",
  "field_identifier",
  "type_identifier",
  "primitive_type",
]);

const MAX_NAME = 100;

// Statements read as a function: no function at all.
const STATEMENT_KEYWORDS = new Set([
  "if",
  "else",
  "while",
  "for",
  "do",
  "switch",
  "return",
  "sizeof",
]);
// Words the parser may take for a function's name when a macro or an #if
// threw it off (`else if (x) {` under #ifdef, `void (*f(...))(void)` after a
// macro): keywords are never names.
const KEYWORDS = new Set([
  ...STATEMENT_KEYWORDS,
  "void",
  "int",
  "char",
  "short",
  "long",
  "float",
  "double",
  "signed",
  "unsigned",
  "bool",
]);

/** A word spelled as a macro: capitals, digits and underscores. */
const MACRO_NAME = /^_*[A-Z][A-Z0-9_]*$/;

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
  const walker = new _Walker(options.cpp, CTreeText.of(root));
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
  text?: CTreeText,
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
    if (NAME_TYPES.has(type)) {
      return _oneLine(
        text !== undefined && WORD_TYPES.has(type)
          ? text.word(current)
          : current.text,
      );
    }
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
  // Most names are one plain word: nothing below would change them.
  if (text.length <= MAX_NAME && _isPlain(text)) return text;
  // Only the start can show: clipped first, the patterns stay quick.
  const line = text.slice(0, 4 * MAX_NAME).replace(/\s*\/[/*][^]*$/, "")
    .replace(/\s+/g, " ").replace(/ ?:: ?/g, "::");
  if (line.length <= MAX_NAME) return line;
  // A long qualified name keeps its member (`_Hashtable<_Key, ...>::
  // _M_rehash`): the scope's template arguments shortened, then its middle
  // clipped.
  const scope = text.length <= 4 * MAX_NAME ? _lastScope(line) : -1;
  if (scope < 0) return `${line.slice(0, MAX_NAME - 1)}…`;
  const short = _shortArguments(line.slice(0, scope)) + line.slice(scope);
  if (short.length <= MAX_NAME) return short;
  const half = MAX_NAME / 2;
  return `${short.slice(0, half - 1)}…${short.slice(short.length - half)}`;
}

// Whether `text` holds no white space and no `/` (which may open a comment).
function _isPlain(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // Every white space character of `\s` is a space, a control character
    // or above the ASCII range.
    if (code <= 32 || code === 47 || code > 126) return false;
  }
  return true;
}

// Where the last `::` outside template arguments stands, or -1.
function _lastScope(name: string): number {
  let depth = 0;
  let last = -1;
  for (let i = 0; i < name.length; i++) {
    const char = name[i];
    if (char === "<") depth++;
    else if (char === ">") depth = Math.max(0, depth - 1);
    else if (char === ":" && name[i + 1] === ":" && depth === 0) {
      last = i;
      i++;
    }
  }
  return last;
}

// `_Hashtable<_Key, _Value>::x` reads `_Hashtable<…>::x`.
function _shortArguments(scope: string): string {
  let depth = 0;
  let out = "";
  for (const char of scope) {
    if (char === "<") {
      if (depth++ === 0) out += "<…";
    } else if (char === ">") {
      if (depth > 0 && --depth === 0) out += ">";
    } else if (depth === 0) out += char;
  }
  return out;
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
  #docs = new Map<number, string | null>();
  // The parsed text when the tree has no syntax error: names and comments
  // are read from it instead of through WASM (see CTreeText).
  #text: CTreeText | undefined;
  // Whether a node type id names a named node, asked of the grammar once per
  // type.
  #namedTypes = new Map<number, boolean>();

  constructor(cpp: boolean, text: CTreeText | undefined) {
    this.#cpp = cpp;
    this.#text = text;
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
  declarations(
    container: Node,
    items: CItem[] = this.#items(container),
  ): OutlineSymbol[] {
    const symbols: OutlineSymbol[] = [];
    // A function recovered from an ERROR ends where the next symbol starts.
    let open: OutlineSymbol | undefined;
    let lastEnd = 0;
    for (let i = 0; i < items.length; i++) {
      const { node, type } = items[i];
      const loose = LOOSE_DECLARATORS.has(type);
      const head = _cutHead(items, i);
      const symbol = loose
        ? this.#looseFunction(items, i)
        : head === undefined
        ? this.#declaration(node, node, type)
        : this.#afterCutHead(node, head, type);
      if (symbol !== undefined) {
        if (open !== undefined) {
          open.endLine = Math.max(open.startLine, lastEnd);
          open = undefined;
        }
        symbols.push(symbol);
        if (loose) open = symbol;
        // (A tree with no error has swallowed nothing.)
        else if (type === "function_definition" && this.#text === undefined) {
          append(symbols, this.#swallowedFunctions(node, symbol));
        }
      }
      if (open !== undefined && !isCommentType(type)) lastEnd = endLine(node);
    }
    if (open !== undefined) open.endLine = Math.max(open.startLine, lastEnd);
    return symbols;
  }

  // What follows a declaration head cut short by a macro (see _cutHead()):
  // a function definition, or a prototype the parser read as an
  // expression, named by its call: `SQLITE_API sqlite3_mutex
  // *sqlite3_mutex_alloc(int);`, `SQLITE_API double f(sqlite3_value*);`.
  #afterCutHead(
    node: Node,
    head: Node,
    type: string,
  ): OutlineSymbol | undefined {
    if (type === "function_definition" || type === "declaration") {
      return this.#declaration(node, head, type);
    }
    const name = _calledName(node, type);
    if (name === undefined) return undefined;
    const symbol = this.#symbol("function", name, node, head);
    this.#prototypes.add(symbol);
    return symbol;
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
  // the next symbol starts. (In C++, a method of a local class is
  // legitimate.) The structs and typedefs swallowed too (sqlite3.c's Pager,
  // Wal) are told from local ones by starting at column 0.
  #swallowedFunctions(node: Node, symbol: OutlineSymbol): OutlineSymbol[] {
    // Only a body the parser had to recover is worth the (slow) search (a
    // tree with no error has tree text).
    if (this.#text !== undefined || !node.hasError) return [];
    const body = node.childForFieldName("body");
    if (body === null || !body.hasError) return [];
    const symbols: OutlineSymbol[] = [];
    let previous = symbol;
    for (const found of swallowedDefinitions(body)) {
      const next = found.type === "declaration"
        ? this.#specifierOf(found, found)
        : this.#declaration(found, found);
      if (next === undefined) continue;
      // A type ends where its braces do; a run-on function where the next
      // symbol starts.
      if (previous.kind === "function") {
        previous.endLine = Math.max(previous.startLine, next.startLine - 1);
      }
      symbols.push(next);
      previous = next;
    }
    return symbols;
  }

  #items(container: Node): CItem[] {
    const items = flattenItems(container);
    recordDocs(items, this.#docs, this.#text);
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
        const name = this.#functionName(node, { cases: true });
        // `else if (x) {` in an #ifdef'd branch reads as a function `if`.
        if (STATEMENT_KEYWORDS.has(name)) return undefined;
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
    // null: an item with no doc; undefined: a node that is no item.
    const recorded = this.#docs.get(outer.id);
    const doc = recorded === undefined ? _doc(outer) : recorded ?? undefined;
    return makeSymbol(kind, name, node, { from: outer, doc, children });
  }

  #name(node: Node): string {
    return _oneLine(node.childForFieldName("name")?.text ?? "(anonymous)");
  }

  // With `cases`, a test case (`TEST(Suite, Name) {`) is named with its
  // arguments: the macro's name alone tells no case from another.
  #functionName(node: Node, { cases = false } = {}): string {
    const declarator = node.childForFieldName("declarator");
    if (declarator === null) return "?";
    const declaratorType = declarator.type;
    // `static int __init my_init(void) {`: the annotation ends a declaration
    // of its own, then `my_init` reads as a type and `(void)` as its
    // declarator. No function has a body after a declarator in parentheses.
    if (declaratorType === "parenthesized_declarator") {
      const type = node.childForFieldName("type");
      if (type !== null && type.type === "type_identifier") {
        return _oneLine(type.text);
      }
    }
    // `f(...)`, the common case, in five calls into WASM (three when the
    // text shows it, see CTreeText.plainFunctionWord()): what the general
    // path below finds, with the function declarator's own declarator read
    // once.
    if (declaratorType === "function_declarator") {
      const plain = this.#text?.plainFunctionWord(declarator);
      const inner = plain === undefined
        ? declarator.childForFieldName("declarator")
        : null;
      const innerType = inner?.type ?? "";
      if (
        plain !== undefined || (inner !== null && WORD_TYPES.has(innerType))
      ) {
        const word = plain ?? this.#text?.word(inner!) ?? inner!.text;
        if (cases && _isTestCase(node, declarator, word)) {
          return _oneLine(declarator.text);
        }
        // As _realName(): no function declarator inside this one.
        const name = _oneLine(word);
        return KEYWORDS.has(name) && !STATEMENT_KEYWORDS.has(name)
          ? _nameInParameters(declarator) ?? name
          : name;
      }
      if (cases && _isTestCase(node, declarator)) {
        return _oneLine(declarator.text);
      }
      // declaratorName() goes from the declarator to `inner` first.
      const name = inner === null
        ? declaratorName(declarator, declaratorType, this.#text)
        : declaratorName(inner, innerType, this.#text);
      return _realName(declarator, name ?? "?", { inner, innerType });
    }
    // `iterator begin() NOEXCEPT_MACRO {`: the macro reads as the declarator
    // and the real one lands in an ERROR child.
    if (NAME_TYPES.has(declaratorType)) {
      const hidden = node.namedChildren
        .find((child) => child.type === "ERROR")
        ?.namedChildren.find((child) => child.type === "function_declarator");
      if (hidden !== undefined) return declaratorName(hidden) ?? "?";
    }
    return _realName(
      declarator,
      declaratorName(declarator, declaratorType, this.#text) ?? "?",
    );
  }

  // A template wraps one declaration; the symbol starts at `template <...>`.
  #template<T>(
    node: Node,
    build: (inner: Node) => T | undefined,
  ): T | undefined {
    const inner = node.namedChildren.at(-1);
    return inner === undefined ? undefined : build(inner);
  }

  // `int deflate(z_streamp strm, int flush);`
  #prototype(node: Node, outer: Node): OutlineSymbol | undefined {
    const declarator = node.childrenForFieldName("declarator")
      .find((declarator) => _isFunctionDeclarator(declarator));
    if (declarator === undefined) return undefined;
    const name = _realName(declarator, declaratorName(declarator) ?? "?");
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
    const children = this.#members(body, type, name);
    return this.#symbol(TYPE_KINDS[type], name, node, outer, children);
  }

  // `typedef struct node {...} node_t;` lists as `typedef node_t` with the
  // struct's fields; `typedef int (*cb_t)(int);` as `typedef cb_t`.
  #typedef(node: Node, outer: Node): OutlineSymbol {
    const { nodes, types } = this.#declarators(node);
    const names = nodes
      .map((declarator, i) => declaratorName(declarator, types[i], this.#text))
      .filter((name) => name !== undefined);
    const children = this.#inlineMembers(node, nodes[0]);
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
      // Listed once, for this question and for the declarations (each
      // item's type is a call into WASM).
      const all = body === null ? [] : this.#items(body);
      const items = all.filter((item) => !isCommentType(item.type));
      if (items.length !== 1 || items[0].type !== "namespace_definition") {
        return this.#symbol(
          "namespace",
          _oneLine(name),
          node,
          outer,
          body === null ? [] : nested(() => this.declarations(body, all)),
        );
      }
      current = items[0].node;
      // Past the clipped length, deeper levels add nothing a reader sees.
      if (name.length <= MAX_NAME) name = `${name}::${this.#name(current)}`;
    }
  }

  // `className` tells a constructor from a macro call (`Q_DISABLE_COPY(X);`).
  #members(
    body: Node,
    specifierType: string,
    className?: string,
  ): OutlineSymbol[] {
    return nested(() => this.#membersNow(body, specifierType, className));
  }

  #membersNow(
    body: Node,
    specifierType: string,
    className?: string,
  ): OutlineSymbol[] {
    if (specifierType === "enum_specifier") {
      return this.#items(body)
        .filter((item) => item.type === "enumerator")
        .map(({ node }) =>
          this.#symbol("enumerator", this.#name(node), node, node)
        );
    }
    const members: OutlineSymbol[] = [];
    const items = this.#items(body);
    for (let i = 0; i < items.length; i++) {
      const { node, type } = items[i];
      const member = this.#member(node, node, { type, className });
      if (Array.isArray(member)) append(members, member);
      else if (member !== undefined) members.push(member);
    }
    return members;
  }

  #member(
    node: Node,
    outer: Node,
    { type = node.type, className }: { type?: string; className?: string },
  ): OutlineSymbol | OutlineSymbol[] | undefined {
    switch (type) {
      case "function_definition":
        return this.#symbol("method", this.#functionName(node), node, outer);
      case "field_declaration":
      case "declaration":
        return this.#field(node, outer, className);
      case "template_declaration":
        return this.#template(
          node,
          (inner) => this.#member(inner, outer, { className }),
        );
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
  // The named `declarator` children of a declaration, with their types: one
  // call into WASM each (its type id, which tells both), not two.
  #declarators(node: Node): { nodes: Node[]; types: string[] } {
    const nodes: Node[] = [];
    const types: string[] = [];
    for (const child of node.childrenForFieldName("declarator")) {
      const id = child.typeId;
      const language = child.tree.language;
      let named = this.#namedTypes.get(id);
      if (named === undefined) {
        named = language.nodeTypeIsNamed(id);
        this.#namedTypes.set(id, named);
      }
      if (!named) continue;
      nodes.push(child);
      // As Node.type reads it.
      types.push(language.types[id] || "ERROR");
    }
    return { nodes, types };
  }

  #field(
    node: Node,
    outer: Node,
    className?: string,
  ): OutlineSymbol | OutlineSymbol[] | undefined {
    const { nodes, types } = this.#declarators(node);
    if (nodes.length === 0) {
      const type = node.childForFieldName("type");
      return type === null ? undefined : this.#type(type, node, outer);
    }
    // Both questions below walk the same way through pointers: walked once.
    // Plain loops: a fresh worker runs this before V8 optimizes it.
    for (let i = 0; i < nodes.length; i++) {
      const past = _pastPointers(nodes[i], types[i]);
      nodes[i] = past.node;
      types[i] = past.type;
      if (_isFunctionDeclarator(past.node, past.type)) {
        const name = declaratorName(nodes[0], types[0], this.#text) ?? "?";
        if (_isMacroCall(node, name, className)) return undefined;
        return this.#symbol("method", name, node, outer);
      }
    }
    const names: string[] = [];
    for (let i = 0; i < nodes.length; i++) {
      const name = declaratorName(nodes[i], types[i], this.#text);
      if (name !== undefined) names.push(name);
    }
    if (names.length === 0) return undefined;
    // `struct sqlite3_index_constraint { ... } *aConstraint;`: a type with a
    // tag declared in the field is a member of its own (its tag names it, in
    // C at file scope, in C++ in the enclosing class), then the field.
    const tagged = this.#taggedInlineType(node, nodes[0]);
    if (tagged !== undefined) {
      return [tagged, this.#symbol("field", names.join(", "), node, outer)];
    }
    // `union { ... } ifr_ifru;`: the members of a type written inline are
    // the field's, as a typedef's are.
    const children = this.#inlineMembers(node, nodes[0]);
    return this.#symbol("field", names.join(", "), node, outer, children);
  }

  // The struct, union, enum or class with a tag and a body written in field
  // `node` before its first `declarator`, as a symbol; the doc above the
  // field stays the field's.
  #taggedInlineType(node: Node, declarator: Node): OutlineSymbol | undefined {
    if (this.#text?.holds("{", node, declarator) === false) return undefined;
    const type = node.childForFieldName("type");
    if (type === null || type.childForFieldName("name") === null) {
      return undefined;
    }
    return this.#type(type, type, type);
  }

  // The members of the struct, union, enum or class written in declaration
  // `node` (a field, a typedef), whose first declarator is `declarator`. The
  // type and its body come before every declarator: with no `{` there, there
  // are none, and the type is not read through WASM.
  #inlineMembers(node: Node, declarator?: Node): OutlineSymbol[] {
    if (
      declarator !== undefined &&
      this.#text?.holds("{", node, declarator) === false
    ) return [];
    const type = node.childForFieldName("type");
    const typeName = type?.type ?? "";
    const body = type === null ? null : _typeBody(type, typeName);
    return body === null ? [] : this.#members(body, typeName);
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
      // `int (lua_gettop) (lua_State *L);`: the name alone in parentheses.
      if (inner.namedChildren[0]?.type === "identifier") return true;
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

// The first declarator below `declarator` that is no pointer or reference
// declarator with a `declarator` of its own, and its type: where both
// _isFunctionDeclarator() and declaratorName() go on from.
function _pastPointers(
  declarator: Node,
  type: string,
): { node: Node; type: string } {
  let current = declarator;
  let currentType = type;
  while (
    currentType === "pointer_declarator" ||
    currentType === "reference_declarator"
  ) {
    const next = current.childForFieldName("declarator");
    if (next === null) break;
    current = next;
    currentType = next.type;
  }
  return { node: current, type: currentType };
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

// The declaration before item `index` when it is a head cut short by a
// macro: `SQLITE_API sqlite3_int64` or `static int __init` read as a
// declaration with no `;`, on the line where the item starts. Answers
// undefined for anything else (the common case: one type compare).
function _cutHead(items: CItem[], index: number): Node | undefined {
  const previous = items[index - 1];
  if (previous === undefined || previous.type !== "declaration") {
    return undefined;
  }
  const head = previous.node;
  const { node, type } = items[index];
  if (!HEAD_FOLLOWERS.has(type)) return undefined;
  if (head.endPosition.row !== node.startPosition.row) return undefined;
  if (head.text.endsWith(";")) return undefined;
  // A type's name, not a macro (`MY_TYPE x` then `f();`), ends it when the
  // parser reads the rest as an expression.
  if (type !== "function_definition") {
    const first = head.namedChildren[0];
    if (first === undefined || !MACRO_NAME.test(first.text)) return undefined;
  }
  return head;
}

const HEAD_FOLLOWERS = new Set([
  "function_definition",
  "macro_type_specifier",
  "expression_statement",
]);

// The function a prototype read as an expression declares: the callee of
// `name(...)` or `*name(...)`, or a macro_type_specifier's name.
function _calledName(node: Node, type: string): string | undefined {
  if (type === "macro_type_specifier") {
    const name = node.namedChildren[0];
    return name?.type === "identifier" ? name.text : undefined;
  }
  if (type !== "expression_statement" || !node.text.endsWith(";")) {
    return undefined;
  }
  let expression: Node | null = node.namedChildren[0] ?? null;
  while (expression?.type === "pointer_expression") {
    expression = expression.childForFieldName("argument");
  }
  if (expression?.type !== "call_expression") return undefined;
  const callee = expression.childForFieldName("function");
  return callee?.type === "identifier" ? callee.text : undefined;
}

// A type keyword read as the name (see _nameInParameters()) gives way to
// the real one.
// `known` is a function declarator's own declarator and its type, when read
// already.
function _realName(
  declarator: Node,
  name: string,
  known?: { inner: Node | null; innerType: string },
): string {
  const parenthesized = _parenthesizedName(declarator, known);
  if (parenthesized !== undefined) return parenthesized;
  return KEYWORDS.has(name) && !STATEMENT_KEYWORDS.has(name)
    ? _nameInParameters(declarator) ?? name
    : name;
}

// Lua writes its API with the names in parentheses, which no macro expands:
// `LUA_API lua_Number (lua_tonumberx) (lua_State *L, ...)`. After the macro
// the grammar reads the return type as the name and `(lua_tonumberx)` as a
// first parameter list holding a type: a function declarator right inside
// another, which is no C or C++ otherwise (a function cannot return one).
// The same shape names the functions of name-pasting macros after their
// argument: `TRANS(Open)(...)`, `VG_(strlen)(...)`, `BZ_API(BZ2_bzRead)(...)`.
function _parenthesizedName(
  declarator: Node,
  known?: { inner: Node | null; innerType: string },
): string | undefined {
  let inner: Node | null;
  if (known !== undefined) {
    // `declarator` is the function declarator.
    if (known.innerType !== "function_declarator") return undefined;
    inner = known.inner;
  } else {
    let outer: Node | null = declarator;
    while (outer?.type === "pointer_declarator") {
      outer = outer.childForFieldName("declarator");
    }
    if (outer?.type !== "function_declarator") return undefined;
    inner = outer.childForFieldName("declarator");
    if (inner?.type !== "function_declarator") return undefined;
  }
  if (inner === null) return undefined;
  const type = inner.childForFieldName("declarator")?.type;
  if (type !== "identifier" && type !== "primitive_type") return undefined;
  const parameters = inner.childForFieldName("parameters")?.namedChildren;
  if (parameters?.length !== 1) return undefined;
  const [parameter] = parameters;
  if (parameter.type !== "parameter_declaration") return undefined;
  const name = parameter.childForFieldName("type");
  // `__GLIBC_USE (DEPRECATED_SCANF)` in an `#if` a declaration runs into: a
  // macro's argument spelled as a macro is no function's name.
  return name?.type === "type_identifier" && name.text === parameter.text &&
      !MACRO_NAME.test(name.text)
    ? name.text
    : undefined;
}

// `SQLITE_PRIVATE void (*f(int a))(void){` reads as a function `void`
// whose parameter is `f(int a)`: that parameter's type is the name.
function _nameInParameters(declarator: Node): string | undefined {
  let current: Node | null = declarator;
  let innermost: Node | undefined;
  while (current !== null && current.type !== "identifier") {
    if (current.type === "function_declarator") innermost = current;
    current = current.childForFieldName("declarator");
  }
  const parameters = innermost?.childForFieldName("parameters");
  const parameter = parameters?.namedChildren.find((child) =>
    child.type === "parameter_declaration" &&
    child.childForFieldName("declarator")?.type ===
      "abstract_function_declarator"
  );
  const type = parameter?.childForFieldName("type");
  return type?.type === "type_identifier" ? type.text : undefined;
}

// `TEST(Suite, Name) {`, `TEST_F(Fixture, Case) {`: a definition with no
// return type whose name is spelled as a macro and whose parameters are bare
// names.
// `name` is the text of the function declarator's own declarator, when read
// already.
function _isTestCase(node: Node, declarator: Node, name?: string): boolean {
  // A name read already rules out nearly every function without a call.
  if (name !== undefined && !MACRO_NAME.test(name)) return false;
  if (node.childForFieldName("type") !== null) return false;
  const text = name ?? declarator.childForFieldName("declarator")?.text;
  if (text === undefined || !MACRO_NAME.test(text)) return false;
  const parameters = declarator.childForFieldName("parameters");
  const list = parameters?.namedChildren ?? [];
  return list.length > 0 &&
    list.every((parameter) =>
      parameter.type === "parameter_declaration" &&
      parameter.childForFieldName("declarator") === null
    );
}

// A member "declared" with no type that is not a constructor, destructor or
// conversion: a macro call (`DISALLOW_COPY_AND_ASSIGN(Plain);`).
function _isMacroCall(
  node: Node,
  name: string,
  className: string | undefined,
): boolean {
  if (className === undefined || !MACRO_NAME.test(name)) return false;
  if (node.childForFieldName("type") !== null) return false;
  if (name.startsWith("~") || name.startsWith("operator")) return false;
  // `hash<T>`'s constructor is `hash`; `a::B`'s is `B`.
  const base = className.replace(/<[^]*$/, "");
  return name !== base && !base.endsWith(`::${name}`);
}
