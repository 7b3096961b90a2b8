// The walker shared by C and C++: both grammars share node types for
// functions, structs, unions, enums and typedefs; C++ adds classes,
// namespaces, templates and `using`. Runs inside the outline worker only.
import type { Node } from "web-tree-sitter";
import type { OutlineSymbol } from "../types.ts";
import { docComment, makeSymbol } from "./_nodes.ts";

/** Which dialect to outline. */
export interface CFamilyOptions {
  /** Adds classes, namespaces, templates, `using` and `extern "C"` blocks. */
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
  return walker.declarations(root);
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

function _oneLine(text: string): string {
  return text.replace(/\s+/g, " ");
}

class _Walker {
  #cpp: boolean;

  constructor(cpp: boolean) {
    this.#cpp = cpp;
  }

  /** The symbols declared directly in a container (file, namespace body). */
  declarations(container: Node): OutlineSymbol[] {
    const symbols: OutlineSymbol[] = [];
    for (const node of this.#items(container)) {
      const symbol = this.#declaration(node, node);
      if (symbol !== undefined) symbols.push(symbol);
    }
    return symbols;
  }

  // Named children, looking through #if blocks, ERROR nodes and, in C++,
  // `extern "C" { ... }`.
  #items(container: Node): Node[] {
    const items: Node[] = [];
    for (const child of container.namedChildren) {
      if (TRANSPARENT.has(child.type)) items.push(...this.#items(child));
      else if (this.#cpp && child.type === "linkage_specification") {
        const body = child.childForFieldName("body");
        if (body?.type === "declaration_list") items.push(...this.#items(body));
        else if (body !== null) items.push(body);
      } else items.push(child);
    }
    return items;
  }

  // `outer` is the node that starts the symbol's range and carries its doc
  // comment: a template_declaration around `node`, or `node` itself.
  #declaration(node: Node, outer: Node): OutlineSymbol | undefined {
    switch (node.type) {
      case "function_definition":
        return this.#symbol("function", this.#functionName(node), node, outer);
      case "type_definition":
        return this.#typedef(node, outer);
      case "declaration":
        return this.#specifierOf(node, outer);
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
    return makeSymbol(kind, name, node, {
      from: outer,
      doc: _doc(outer),
      children,
    });
  }

  #name(node: Node): string {
    return _oneLine(node.childForFieldName("name")?.text ?? "(anonymous)");
  }

  #functionName(node: Node): string {
    const declarator = node.childForFieldName("declarator");
    return (declarator && declaratorName(declarator)) ?? "?";
  }

  // A template wraps one declaration; the symbol starts at `template <...>`.
  #template(
    node: Node,
    build: (inner: Node) => OutlineSymbol | undefined,
  ): OutlineSymbol | undefined {
    const inner = node.namedChildren.at(-1);
    return inner === undefined ? undefined : build(inner);
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
