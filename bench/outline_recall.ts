// Outline recall per language on published code: the share of the
// definitions a plain walk of the syntax tree finds (the specification's node
// types, outside function bodies) that the outline lists with the same name
// and a start line within one line. Not a Deno.bench suite and not in the
// test run: `deno run -A bench/outline_recall.ts [language ...]` prints a
// table, `--missed` prints up to 20 missed definitions per language
// (MAX_MISSED=n for more), and `--repaired` walks C and C++ trees of the text
// after the outline's repair passes (see below).
//
// The reference walk runs web-tree-sitter on the file's own text (no repair
// passes) with the same grammars the outline loads: the `tree-sitter` npm
// package's native binding is not in the npm cache here, and there are no
// native bindings for the Swift, Kotlin and Dart grammars at all. A
// parse with the same grammar gives the same tree either way.
//
// On macro-heavy C++ (libstdc++) the grammar misreads the raw text where the
// outline's repair passes blank macros: there the raw walk finds functions
// that are not there (`namespace std _GLIBCXX_VISIBILITY(default) {` read as
// one) and misses real ones. `--repaired` gives the walk the same text the
// outline's grammar reads, so what is measured is the extraction alone.
//
// Matching: a definition is found when a symbol at any depth starts within
// one line of it and the symbol's name is the definition's or holds it as a
// word (Go's `(*Server) Start`, Swift's `init(x:)`, `field a, b`). Imports
// are matched by their line alone (the outline names them by module). In C
// and C++, a struct, union or enum that a `typedef` declares counts as the
// typedef (the outline lists `typedef node_t` with the struct's fields).
import type { Node } from "web-tree-sitter";
import { createParser, type GrammarId } from "../grammars/grammars.ts";
import { outlineSymbols } from "../mod.ts";
import type { OutlineSymbol } from "../outline/types.ts";
import { CORPORA, type Corpus, corpusFiles } from "./_corpora.ts";
import { packageFile } from "../tests/support/npm_package.ts";
import { c } from "../outline/languages/c_family/c.ts";
import { cpp } from "../outline/languages/c_family/cpp.ts";

/** A definition the reference walk found. */
interface Definition {
  name: string;
  line: number;
}

/** How to find one language's definitions in its tree. */
interface Reference {
  grammar: GrammarId;
  /** The names a node of a listed type defines (empty: none). */
  names(node: Node, type: string): string[] | undefined;
  /** Node types whose insides are function bodies: never walked. */
  opaque: ReadonlySet<string>;
  /** The language's repair passes, which `--repaired` runs before the walk. */
  prepare?: (source: string) => string;
}

/** How many missed definitions a language reports (with `--missed`). */
const MAX_MISSED = Number(Deno.env.get("MAX_MISSED") ?? 20);

/** The sentinel name of an import, matched by its line alone. */
const IMPORT = "\0import";

function _field(node: Node, field = "name"): string[] {
  const text = node.childForFieldName(field)?.text;
  return text === undefined ? [] : [text];
}

// The last word of a C or C++ name as a grammar without the outline's repair
// passes may read it (`__int_type\n exchange`, `__rebind<_Tp, _Up>`): what
// the name is once a macro or a return type before it and template arguments
// after it are gone.
function _lastWord(name: string): string {
  const bare = name.replace(/<[\s\S]*$/, "").trim();
  return bare.split(/\s+/).at(-1)!.replace(/^[*&]+/, "");
}

// The name at the end of a C declarator chain: `*f(int)` -> `f`.
function _declaratorName(node: Node | null): string | undefined {
  let current = node;
  for (let depth = 0; current !== null && depth < 20; depth++) {
    // A conversion operator is named by its type (`operator bool`); below it
    // are only its parameters and qualifiers.
    if (current.type === "operator_cast") {
      return `operator ${current.childForFieldName("type")?.text}`;
    }
    const inner = current.childForFieldName("declarator");
    if (inner === null) {
      // A parenthesized or array declarator keeps its name below.
      const named = current.namedChildren.find((child) =>
        /declarator$|identifier$|^qualified_identifier$|^operator_name$|^destructor_name$/
          .test(child.type)
      );
      if (
        named === undefined || /identifier$|_name$/.test(current.type)
      ) {
        return current.text;
      }
      current = named;
      continue;
    }
    current = inner;
  }
  return current?.text;
}

// The specification lists property signatures one level into a type: an
// interface's, or an object type that a type alias or a variable's annotation
// is written as (through unions, intersections and parentheses). Those nested
// in a property's own type, or in an expression's `satisfies` type, are not.
function _listedProperty(node: Node): boolean {
  const container = node.parent;
  if (container?.type === "interface_body") return true;
  if (container?.type !== "object_type") return false;
  let above = container.parent;
  while (
    above !== null &&
    /^(?:union_type|intersection_type|parenthesized_type)$/.test(above.type)
  ) {
    above = above.parent;
  }
  return above?.type === "type_alias_declaration" ||
    (above?.type === "type_annotation" &&
      above.parent?.type === "variable_declarator");
}

const TS_DECLARATIONS = new Set([
  "function_declaration",
  "function_signature",
  "generator_function_declaration",
  "class_declaration",
  "abstract_class_declaration",
  "interface_declaration",
  "type_alias_declaration",
  "enum_declaration",
  "method_definition",
]);

function _ecmascript(grammar: GrammarId): Reference {
  return {
    grammar,
    opaque: new Set([
      "function_declaration",
      "generator_function_declaration",
      "function_expression",
      "arrow_function",
      "method_definition",
      "generator_function",
      "class_static_block",
    ]),
    names(node, type) {
      if (TS_DECLARATIONS.has(type)) return _field(node);
      if (type === "property_signature") {
        return _listedProperty(node) ? _field(node) : [];
      }
      if (type === "internal_module" || type === "module") {
        return _field(node);
      }
      if (type === "import_statement") return [IMPORT];
      if (type === "lexical_declaration") {
        const parent = node.parent?.type;
        const top = parent === "program" || parent === "export_statement" ||
          (parent === "statement_block" &&
            /module/.test(node.parent?.parent?.type ?? ""));
        if (!top) return [];
        return node.namedChildren
          .filter((child) => child.type === "variable_declarator")
          .flatMap((child) => _field(child));
      }
      return undefined;
    },
  };
}

const C_TYPES = new Set([
  "struct_specifier",
  "union_specifier",
  "enum_specifier",
  "class_specifier",
]);

function _cFamily(grammar: GrammarId): Reference {
  return {
    grammar,
    prepare: (grammar === "cpp" ? cpp : c).prepare,
    opaque: new Set(["function_definition", "lambda_expression"]),
    names(node, type) {
      if (type === "function_definition") {
        const name = _declaratorName(node.childForFieldName("declarator"));
        return name === undefined ? [] : [_lastWord(name)];
      }
      if (C_TYPES.has(type)) {
        if (node.childForFieldName("body") === null) return [];
        if (node.parent?.type === "type_definition") return [];
        return _field(node).map(_lastWord);
      }
      if (type === "type_definition") {
        return node.childrenForFieldName("declarator")
          .map((declarator) => _declaratorName(declarator))
          .filter((name) => name !== undefined);
      }
      if (type === "namespace_definition") return _field(node);
      return undefined;
    },
  };
}

const REFERENCES: Record<string, Reference> = {
  typescript: _ecmascript("typescript"),
  tsx: _ecmascript("tsx"),
  javascript: _ecmascript("javascript"),
  python: {
    grammar: "python",
    opaque: new Set(["function_definition", "lambda"]),
    names(node, type) {
      if (type === "function_definition" || type === "class_definition") {
        return _field(node);
      }
      if (type === "import_statement" || type === "import_from_statement") {
        return [IMPORT];
      }
      return undefined;
    },
  },
  go: {
    grammar: "go",
    opaque: new Set([
      "function_declaration",
      "method_declaration",
      "func_literal",
    ]),
    names(node, type) {
      switch (type) {
        case "package_clause":
          return node.namedChildren.slice(0, 1).map((child) => child.text);
        case "function_declaration":
        case "method_declaration":
        case "type_spec":
          return _field(node);
        case "field_declaration":
        case "const_spec":
          return node.childrenForFieldName("name")
            .filter((name) => name.isNamed).map((name) => name.text);
        case "import_declaration":
          return [IMPORT];
      }
      return undefined;
    },
  },
  c: _cFamily("c"),
  cpp: _cFamily("cpp"),
  swift: {
    grammar: "swift",
    opaque: new Set(["function_body", "computed_property", "lambda_literal"]),
    names(node, type) {
      switch (type) {
        case "class_declaration":
        case "protocol_declaration":
        case "function_declaration":
        case "typealias_declaration":
          return _field(node).slice(0, 1);
        case "init_declaration":
          return ["init"];
        case "property_declaration":
          return node.childrenForFieldName("name").map((pattern) =>
            pattern.childForFieldName("bound_identifier")?.text ?? pattern.text
          );
      }
      return undefined;
    },
  },
  kotlin: {
    grammar: "kotlin",
    opaque: new Set([
      "function_body",
      "lambda_literal",
      "anonymous_function",
      "getter",
      "setter",
      "anonymous_initializer",
    ]),
    names(node, type) {
      switch (type) {
        case "class_declaration":
        case "object_declaration":
        case "function_declaration":
          return _field(node);
        case "type_alias":
          return _field(node, "type");
        case "property_declaration": {
          const variable = node.namedChildren.find((child) =>
            child.type === "variable_declaration"
          );
          const name = variable?.namedChildren.find((child) =>
            child.type === "identifier" || child.type === "simple_identifier"
          );
          return name === undefined ? [] : [name.text];
        }
      }
      return undefined;
    },
  },
  // The specification's method_signature is counted by the signature it
  // wraps, which is also what a bodiless member's declaration holds.
  dart: {
    grammar: "dart",
    opaque: new Set(["function_body", "lambda_expression"]),
    names(node, type) {
      switch (type) {
        case "class_definition": {
          const application = node.namedChildren.find((child) =>
            child.type === "mixin_application_class"
          );
          return _firstIdentifier(application ?? node);
        }
        case "enum_declaration":
        case "mixin_declaration":
        case "extension_type_declaration":
          return _firstIdentifier(node);
        // An extension without a name is listed as `on T`.
        case "extension_declaration":
          return _field(node).length > 0 ? _field(node) : ["on"];
        case "function_signature":
        case "getter_signature":
        case "setter_signature":
        case "constructor_signature":
        case "constant_constructor_signature":
        case "factory_constructor_signature":
        case "redirecting_factory_constructor_signature":
          return _firstIdentifier(node);
        case "operator_signature": {
          const children = node.children;
          const at = children.findIndex((child) => child.type === "operator");
          return at === -1 ? [] : [children[at + 1]?.text ?? ""];
        }
        case "type_alias": {
          // `typedef F = ...` names the first type, `typedef void F(...)`
          // the last before the parameters.
          const types: string[] = [];
          let modern = false;
          for (const child of node.children) {
            if (child.type === "=") modern = true;
            if (modern || child.type === "formal_parameter_list") break;
            if (child.type === "type_identifier") types.push(child.text);
          }
          const name = modern ? types[0] : types.at(-1);
          return name === undefined ? [] : [name];
        }
      }
      return undefined;
    },
  },
};

function _firstIdentifier(node: Node): string[] {
  const name = node.childForFieldName("name") ??
    node.namedChildren.find((child) => child.type === "identifier");
  return name === undefined || name === null ? [] : [name.text];
}

function _definitions(root: Node, reference: Reference): Definition[] {
  const found: Definition[] = [];
  const pending: Node[] = [root];
  while (pending.length > 0) {
    const node = pending.pop()!;
    const type = node.type;
    const names = reference.names(node, type);
    const from = _start(node);
    for (const name of names ?? []) {
      if (name.length > 0) {
        found.push({ name, line: from.startPosition.row + 1 });
      }
    }
    if (reference.opaque.has(type)) continue;
    const children = node.namedChildren;
    for (let i = children.length - 1; i >= 0; i--) pending.push(children[i]);
  }
  return found;
}

// Where a definition starts: a C++ template's at `template <...>`, a Dart
// declaration's at the metadata before it (`@override`, siblings in Dart's
// tree), as the outline's symbols do.
function _start(node: Node): Node {
  if (node.parent?.type === "template_declaration") return node.parent;
  let from = node.type.endsWith("_signature") &&
      (node.parent?.type === "method_signature" ||
        node.parent?.type === "declaration")
    ? node.parent
    : node;
  while (from.previousNamedSibling?.type === "annotation") {
    from = from.previousNamedSibling;
  }
  return from;
}

const WORDS = /[^\w$`~.:]+|::|\./;

function _found(
  definition: Definition,
  byLine: Map<number, string[]>,
): boolean {
  for (let line = definition.line - 1; line <= definition.line + 1; line++) {
    for (const name of byLine.get(line) ?? []) {
      if (definition.name === IMPORT) {
        if (name === IMPORT) return true;
        continue;
      }
      if (name === definition.name) return true;
      if (name.split(WORDS).includes(definition.name)) return true;
    }
  }
  return false;
}

function _index(
  symbols: OutlineSymbol[],
  byLine = new Map<number, string[]>(),
): Map<number, string[]> {
  for (const symbol of symbols) {
    const name = symbol.kind === "import" ? IMPORT : symbol.name;
    const list = byLine.get(symbol.startLine);
    if (list === undefined) byLine.set(symbol.startLine, [name]);
    else list.push(name);
    _index(symbol.children, byLine);
  }
  return byLine;
}

interface Row {
  language: string;
  source: string;
  files: number;
  bytes: number;
  definitions: number;
  found: number;
  missed: string[];
}

async function _measure(corpus: Corpus, repaired: boolean): Promise<Row> {
  const reference = REFERENCES[corpus.language];
  const parser = await createParser(reference.grammar);
  const files = await corpusFiles(corpus);
  const row: Row = {
    language: corpus.language,
    source: corpus.source,
    files: files.length,
    bytes: 0,
    definitions: 0,
    found: 0,
    missed: [],
  };
  for (const file of files) {
    const text = await Deno.readTextFile(file);
    row.bytes += text.length;
    const prepare = repaired ? reference.prepare : undefined;
    const tree = parser.parse(prepare === undefined ? text : prepare(text));
    if (tree === null) continue;
    let definitions: Definition[];
    try {
      definitions = _definitions(tree.rootNode, reference);
    } finally {
      tree.delete();
    }
    const outline = await outlineSymbols(file, { cwd: "/" });
    const byLine = _index(outline.symbols);
    for (const definition of definitions) {
      row.definitions++;
      if (_found(definition, byLine)) row.found++;
      else if (row.missed.length < MAX_MISSED) {
        row.missed.push(`${file}:${definition.line} ${definition.name}`);
      }
    }
  }
  parser.delete();
  return row;
}

// Published C++ besides libstdc++'s macro-heavy headers.
const MORE_CORPORA: Corpus[] = [{
  language: "cpp",
  source: "react-native@0.76.5 ReactCommon/ (.cpp, .h)",
  extensions: [".cpp", ".h"],
  paths: async () => [await packageFile("react-native@0.76.5", "ReactCommon")],
}];

if (import.meta.main) {
  const showMissed = Deno.args.includes("--missed");
  const repaired = Deno.args.includes("--repaired");
  const wanted = Deno.args.filter((arg) => !arg.startsWith("--"));
  const rows: Row[] = [];
  for (const corpus of [...CORPORA, ...MORE_CORPORA]) {
    if (wanted.length > 0 && !wanted.includes(corpus.language)) continue;
    const row = await _measure(corpus, repaired);
    if (row.files === 0) continue;
    rows.push(row);
    const recall = (100 * row.found / Math.max(1, row.definitions)).toFixed(1);
    console.log(
      `| ${row.language} | ${row.source} | ${row.files} | ${
        (row.bytes / 1e6).toFixed(1)
      } MB | ${row.definitions} | ${recall}% |`,
    );
    if (showMissed) {
      for (const line of row.missed) console.log(`    ${line}`);
    }
  }
  Deno.exit(0);
}
