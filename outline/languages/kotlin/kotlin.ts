// Kotlin: classes (class, interface, enum class, data class, ...), objects,
// functions, properties and typealiases with their members; KDoc comments.
// Runs inside the outline worker only.
import { type Node, Parser } from "web-tree-sitter";
import type { OutlineSymbol } from "../../types.ts";
import type { LanguageSpec } from "../_language.ts";
import {
  blankTopLevelAnnotations,
  restoreAnnotations,
} from "./_kotlin_annotations.ts";
import { declarationChunks, shiftLines } from "./_kotlin_chunks.ts";
import { nestedCommentEnd } from "../_nested_comment.ts";
import { stringEnd } from "./_kotlin_text.ts";
import { blankWhenGuards, contextAsAnnotation } from "./_kotlin_2_2.ts";
import {
  restoreModifierCalls,
  standInForModifierCalls,
} from "./_kotlin_modifier_calls.ts";
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
  // A typed `var dynamic: Int` parses without an error, but unnamed.
  const unnamedDynamic = _countNamed(symbols) < _count(symbols) &&
    root.text.includes("dynamic");
  // Annotations read as an expression of their own (see _kotlin_annotations.ts).
  const misread = root.namedChildren.some((child) =>
    child.type === "annotated_expression"
  );
  // `class Config` then `internal constructor(...) {` in a class body reads
  // without an error, as a class and a member `constructor` taking its body.
  const splitHead = _hasConstructorOnNextLine(root.text);
  if (
    !_hasTopLevelError(root) && !unnamedDynamic && !misread && !splitHead &&
    !_endsInDelegation(root)
  ) {
    return symbols;
  }
  const repaired = _reparseRepaired(root);
  if (repaired === undefined) return symbols;
  // As many symbols, repaired, still gain their annotations and KDoc.
  const better = misread || splitHead
    ? _countNamed(repaired.symbols) >= _countNamed(symbols)
    : _countNamed(repaired.symbols) > _countNamed(symbols);
  const best = better ? repaired.symbols : symbols;
  if (!repaired.broken || !byDeclaration) return best;
  const chunked = _reparseByDeclaration(root);
  return _countNamed(chunked) > _countNamed(best) ? chunked : best;
}

// Still an error after the repairs (see _kotlin_chunks.ts): each top-level
// declaration parsed (and repaired) on its own.
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

// The grammar (1.1.0) loses the rest of a file on constructs that are
// valid Kotlin, and the repairs shift columns but no line, so names
// keep their text and symbols their lines:
// - two class bodies that end a member and the body on one line
//   (`object O { fun f() {} }` twice): a `;` before such a `}` avoids it;
// - an annotation that starts the line after a class's name, before its
//   primary `constructor`: blanking the annotation avoids it;
// - a nested class's primary `constructor(` on the line after its name:
//   moving the line break after the `(` avoids it;
// - the soft keyword `dynamic` used as a name (`val dynamic = 1`): a
//   stand-in of the same length is read as a name, and put back after;
// - a call named like a modifier (`override(w, h)`): likewise (see
//   _kotlin_modifier_calls.ts);
// - top-level annotation lines, which it may read as an expression: blanked,
//   and given back to their declarations after;
// - a class that delegates (`: I by d {`) at the end of the file: a `;` after
//   it ends the text.
// - Kotlin 2.2's `when` guards and context parameters: blanked, or read as an
//   annotation (see _kotlin_2_2.ts).
// What is still an error costs its own top-level declaration only (see
// _reparseByDeclaration).
function _reparseRepaired(
  root: Node,
): { symbols: OutlineSymbol[]; broken: boolean } | undefined {
  const original = root.text;
  const annotations = blankTopLevelAnnotations(
    standInForModifierCalls(standInForDynamic(
      terminateOneLineBodies(
        joinConstructorLines(blankConstructorAnnotations(
          contextAsAnnotation(blankWhenGuards(original)),
        )),
      ),
    )),
  );
  // A `;` on a line of its own after the last declaration closes a class
  // that delegates (`: I by d {`), read otherwise as `d { ... }`, a call.
  const text = `${annotations.text}\n;`;
  const parser = new Parser();
  try {
    parser.setLanguage(root.tree.language);
    const tree = parser.parse(text);
    if (tree === null) return undefined;
    try {
      const symbols = restoreAnnotations(
        restoreModifierCalls(_restoreDynamic(_declarations(tree.rootNode))),
        { text: original, runs: annotations.runs },
      );
      return { symbols, broken: _hasTopLevelError(tree.rootNode) };
    } finally {
      tree.delete();
    }
  } finally {
    parser.delete();
  }
}

// The file ends with a class that delegates an interface and, to the
// grammar, has no body (see _reparseRepaired).
function _endsInDelegation(root: Node): boolean {
  const last = root.lastNamedChild;
  return last?.type === "class_declaration" &&
    !last.namedChildren.some((child) => child.type === "class_body") &&
    / by /.test(last.text);
}

function _hasTopLevelError(root: Node): boolean {
  return root.type === "ERROR" ||
    root.namedChildren.some((child) => child.type === "ERROR");
}

function _count(symbols: OutlineSymbol[]): number {
  let count = symbols.length;
  for (const symbol of symbols) count += _count(symbol.children);
  return count;
}

function _countNamed(symbols: OutlineSymbol[]): number {
  let count = 0;
  for (const symbol of symbols) {
    if (symbol.name.trim() !== "") count += 1 + _countNamed(symbol.children);
  }
  return count;
}

// Annotations (`@JvmOverloads`, `@Inject`, `@ReactModule(name = X)`) that
// start the line after `class Name ...`, up to `[visibility] constructor`.
// Each part matches one way only (whitespace only between annotations), so a
// failed match backtracks in linear time.
const CONSTRUCTOR_ANNOTATIONS =
  /(?<=\bclass[ \t]+[^\n{}=]*\n)[ \t]*(?:@[\w.:]+(?:\((?:[^()]|\([^()]*\))*\))?\s*)+(?=(?:(?:public|private|protected|internal)\s+)?constructor\b)/g;

/**
 * Replaces with spaces (newlines kept) the annotations between a class's
 * name and its primary constructor when they start a line.
 */
export function blankConstructorAnnotations(text: string): string {
  return text.replace(
    CONSTRUCTOR_ANNOTATIONS,
    (annotations) => annotations.replace(/[^\n]/g, " "),
  );
}

// A class head (`private data class Page<T>`, annotations allowed before it)
// ending its line, then the lines up to `[visibility] constructor(`. The head
// must start its line, so `// the class` in a comment above a secondary
// constructor is not joined to it.
const CONSTRUCTOR_ON_NEXT_LINE =
  /^([ \t]*(?:[@\w.]+(?:\([^()\n]*\))?[ \t]+)*class[ \t]+[^\r\n{}=/]*)(\r?\n\s*)((?:(?:public|private|protected|internal)[ \t]+)?constructor[ \t]*\()/gm;

/**
 * Moves the line breaks between a class's head and its primary
 * `constructor(` to just after the `(`: inside a class body the grammar
 * (1.1.0) reads a constructor that starts a line as a member of its own and
 * loses the rest of the body. Lines are kept, so symbols keep their lines.
 */
export function joinConstructorLines(text: string): string {
  if (!text.includes("constructor")) return text;
  return text.replace(
    CONSTRUCTOR_ON_NEXT_LINE,
    (_match, head: string, between: string, constructor: string) =>
      `${head} ${constructor}${between.replace(/[^\r\n]/g, "")}`,
  );
}

// Annotations between (`@Inject internal constructor`) as the repair
// blanks them. Only a nested (indented) class counts: at the top level the
// grammar reads the split head, and the Dagger style (`class Foo` /
// `@Inject constructor(...)`) would cost every such file a second parse.
function _hasConstructorOnNextLine(text: string): boolean {
  if (!text.includes("constructor")) return false;
  for (
    const match of blankConstructorAnnotations(text).matchAll(
      CONSTRUCTOR_ON_NEXT_LINE,
    )
  ) {
    if (match[1].startsWith(" ") || match[1].startsWith("\t")) return true;
  }
  return false;
}

/** `dynamic` with a Cyrillic `і`: a name to the grammar, as long in UTF-16. */
const DYNAMIC_STAND_IN = "dynam\u0456c";

/**
 * Replaces each word `dynamic` (Kotlin/JS's dynamic type, a soft keyword the
 * grammar takes for a keyword everywhere) with a stand-in the grammar reads
 * as a name.
 */
export function standInForDynamic(text: string): string {
  return text.includes("dynamic")
    ? text.replace(/\bdynamic\b/g, DYNAMIC_STAND_IN)
    : text;
}

function _restoreDynamic(symbols: OutlineSymbol[]): OutlineSymbol[] {
  for (const symbol of symbols) {
    symbol.name = symbol.name.replaceAll(DYNAMIC_STAND_IN, "dynamic");
    if (symbol.doc !== undefined) {
      symbol.doc = symbol.doc.replaceAll(DYNAMIC_STAND_IN, "dynamic");
    }
    _restoreDynamic(symbol.children);
  }
  return symbols;
}

// What may end a member right before `}`: a name, a literal, a call or a
// block. Anything else (`{`, `;`, `,`, `->`) is left alone.
const MEMBER_END = /[\p{L}\p{N}_)\]}"'?!`]/u;

/**
 * Inserts `;` before each `}` that closes a block on the line where a member
 * ends, skipping comments, strings and string templates' text.
 */
export function terminateOneLineBodies(text: string): string {
  const inserts: number[] = [];
  // What each open `{` belongs to: code, or the quote of the string whose
  // `${` template it opened (the string resumes after its `}`).
  const braces: string[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "/" && text[i + 1] === "/") i = _indexOrEnd(text, "\n", i);
    else if (ch === "/" && text[i + 1] === "*") i = nestedCommentEnd(text, i);
    else if (ch === "`") {
      // A backticked name (`fun \`reads {a}\`()`) holds no code.
      const close = text.indexOf("`", i + 1);
      i = close !== -1 && !text.slice(i + 1, close).includes("\n")
        ? close + 1
        : i + 1;
    } else if (ch === '"' || ch === "'") {
      const quote = text.startsWith('"""', i) ? '"""' : ch;
      i = stringEnd(text, i + quote.length, quote, braces);
    } else if (ch === "{") {
      braces.push("code");
      i++;
    } else if (ch === "}") {
      const owner = braces.pop();
      if (owner !== undefined && owner !== "code") {
        i = stringEnd(text, i + 1, owner, braces);
        continue;
      }
      if (_endsMemberOnLine(text, i)) inserts.push(i);
      i++;
    } else i++;
  }
  return _insertSemicolons(text, inserts);
}

function _endsMemberOnLine(text: string, index: number): boolean {
  let j = index - 1;
  while (j >= 0 && (text[j] === " " || text[j] === "\t")) j--;
  return j >= 0 && text[j] !== "\n" && MEMBER_END.test(text[j]);
}

function _insertSemicolons(text: string, inserts: number[]): string {
  if (inserts.length === 0) return text;
  const parts: string[] = [];
  let from = 0;
  for (const index of inserts) {
    parts.push(text.slice(from, index), ";");
    from = index;
  }
  parts.push(text.slice(from));
  return parts.join("");
}

function _indexOrEnd(text: string, search: string, from: number): number {
  const index = text.indexOf(search, from);
  return index === -1 ? text.length : index;
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
