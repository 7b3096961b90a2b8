// Review 14 of the outline on real-world code: npm packages (react 18.3.1,
// preact 10.24.2, zod 3.23.8, @types/node 22.7.4, typescript 5.6.2,
// better-sqlite3 11.3.0, @tanstack/react-query 5.59.0), Go 1.19's standard
// library, Python 3.11's standard library, /usr/include (zlib, libstdc++)
// and Swift, Kotlin, Dart and Markdown written the way popular projects
// write them (Alamofire, SwiftUI, Jetpack Compose, Flutter). Each fault is
// reduced to a small snippet; its comment names the real file that showed
// it. 22 of the 23 are fixed (each failed before its fix; zlib's OF() and
// libuv's field-list macros by the C text pass, once pieces were prepared
// one by one); Go's `var` is left out by decision (see its note).
import assert from "node:assert/strict";
import { join } from "node:path";
import { extractText, outlineLines } from "./support/outline_languages.ts";
import { fello } from "./support/fello_cli.ts";
import { c } from "../outline/languages/c_family/c.ts";
import { cpp } from "../outline/languages/c_family/cpp.ts";
import { go } from "../outline/languages/go/go.ts";
import { javascript } from "../outline/languages/ecmascript/javascript.ts";
import { python } from "../outline/languages/python/python.ts";
import { swift } from "../outline/languages/swift/swift.ts";
import { typescript } from "../outline/languages/ecmascript/typescript.ts";
import { outlineSymbols } from "../mod.ts";

const lines = (...text: string[]) => text.join("\n") + "\n";

// ---------------------------------------------------------------- C++

// Fixed fault: a class declared with an export macro between `class` and its name
// (`class V8_EXPORT Isolate {`, `class Q_CORE_EXPORT QObject`, LLVM's
// `class LLVM_ABI`, gtest's `GTEST_API_`, Chromium's `BASE_EXPORT`) is read
// by the grammar as a function definition: the outline says
// `function Isolate` and lists none of its members. Seen in v8-style and Qt
// headers, and in every library that builds as a shared object on Windows.
// Expected: `class Isolate` with its methods, as without the macro (spec:
// class_specifier is a C++ symbol type; members at level two). Suggested fix:
// in cpp's prepare(), blank (replace with spaces, keeping offsets) an
// all-caps identifier that sits between `class`/`struct`/`union` and the
// name when the name is followed by `final`, `:`, `{` or `<`.
// Fixed by cpp's prepare() (outline/languages/_c_macros.ts), as suggested.
Deno.test({
  name: "cpp.extract() reads a class declared with an export macro as a class",
  fn: async () => {
    const text = lines(
      "namespace v8 {",
      "/** An isolated instance of the engine. */",
      "class V8_EXPORT Isolate {",
      " public:",
      "  static Isolate* New();",
      "  void Dispose();",
      "};",
      "}  // namespace v8",
    );
    assert.deepEqual(outlineLines(await extractText(cpp, text)), [
      "namespace v8 1-8",
      "    class Isolate 3-7 // An isolated instance of the engine.",
      "        method New 5-5",
      "        method Dispose 6-6",
    ]);
  },
});

// Fixed fault: a macro invocation inside a class body (`Q_OBJECT`,
// `Q_PROPERTY(...)`, Chromium's `DISALLOW_COPY_AND_ASSIGN(Plain);`, gtest's
// `FRIEND_TEST(...)`) is listed as a method named after the macro, and
// `Q_OBJECT` followed by `Q_PROPERTY(...)` becomes one `method Q_PROPERTY`
// spanning both lines. Seen in Qt widget headers. Expected: no symbol for
// them (they are not members a reader looks for). Suggested fix: a member
// function declaration with no return type whose name is neither the class
// name nor `~Class`/`operator...` is a macro call: skip it.
// Fixed: cpp's prepare() blanks `Q_OBJECT` and `Q_PROPERTY(...)` before a
// declaration (_c_macros.ts); a member declared with no type whose name is
// spelled as a macro and is not the class's is skipped (_c_family.ts).
Deno.test({
  name: "cpp.extract() lists no macro calls as methods of a class",
  fn: async () => {
    const text = lines(
      "class Widget : public QWidget",
      "{",
      "    Q_OBJECT",
      "    Q_PROPERTY(int value READ value WRITE setValue)",
      "public:",
      "    explicit Widget(QWidget *parent = nullptr);",
      "    int value() const;",
      "};",
      "",
      "class Plain {",
      "    DISALLOW_COPY_AND_ASSIGN(Plain);",
      "public:",
      "    void run();",
      "};",
    );
    assert.deepEqual(outlineLines(await extractText(cpp, text)), [
      "class Widget 1-8",
      "    method Widget 6-6",
      "    method value 7-7",
      "class Plain 10-14",
      "    method run 13-13",
    ]);
  },
});

// Fixed fault: an out-of-class definition of a class template's member is named
// with the whole qualified scope, template arguments included, and the name
// is then cut at 80 characters from its end: in libstdc++'s hashtable.h
// every `_Hashtable<_Key, _Value, _Alloc, ... _Traits>::_M_rehash` reads
// `function _Hashtable<_Key, _Value, ..., _T…`, so which member it defines
// is lost (also pstl, stl_tree.h: `_Rb_tree<...>:: _M_get_insert_hint...`
// keeps the line break as a space after `::`). Expected: the member's name
// survives, e.g. `_Hashtable::_M_rehash` or `_Hashtable<…>::_M_rehash`.
// Suggested fix: drop template argument lists from the scope (or shorten
// them to `<…>`), remove whitespace around `::`, and clip from the middle.
// Fixed in _c_family.ts's _oneLine() as suggested: no spaces around `::`; a
// name over 100 characters shortens its scope's template arguments to `<…>`,
// then clips its middle.
Deno.test({
  name: "cpp.extract() keeps the member name of a long qualified definition",
  fn: async () => {
    const text = lines(
      "template<typename _Key, typename _Value, typename _Alloc,",
      "         typename _ExtractKey, typename _Equal, typename _Hash,",
      "         typename _RangeHash, typename _Unused, typename _RehashPolicy>",
      "  void",
      "  _Hashtable<_Key, _Value, _Alloc, _ExtractKey, _Equal,",
      "             _Hash, _RangeHash, _Unused, _RehashPolicy>::",
      "  _M_rehash(size_type __bkt_count, const __rehash_state& __state)",
      "  {",
      "  }",
    );
    const [symbol] = await extractText(cpp, text);
    assert.equal(symbol.kind, "function");
    assert.deepEqual([symbol.startLine, symbol.endLine], [1, 9]);
    assert.match(symbol.name, /^_Hashtable\b.*::_M_rehash$/);
  },
});

// ---------------------------------------------------------------- C

// Fixed fault: zlib's prototypes wrap their parameter lists in the `OF((...))`
// macro and carry `ZEXTERN`/`ZEXPORT` macros: of /usr/include/zlib.h's 87
// functions (zlib1g-dev 1.2.13, the zlib vendored by countless projects) the
// outline lists none, plus two junk `function OF` symbols. libpng's
// `PNGARG((...))` and libjpeg's `JPP((...))` are the same shape. Expected:
// `function zlibVersion`, `function deflate`, ... (the C outline lists
// prototypes elsewhere, e.g. stdlib.h's `function atof`). Suggested fix:
// when a declaration's declarator is a call `NAME((...))` with an all-caps
// NAME after an identifier, take that identifier as the function's name (or
// blank `OF`-style wrappers and ZEXTERN/ZEXPORT-like macros in prepare()).
Deno.test({
  name: "c.extract() lists zlib's OF((...)) prototypes under their own names",
  fn: async () => {
    const text = lines(
      "ZEXTERN const char * ZEXPORT zlibVersion OF((void));",
      "/* The application can compare zlibVersion and ZLIB_VERSION. */",
      "",
      "ZEXTERN int ZEXPORT deflate OF((z_streamp strm, int flush));",
      "",
      "ZEXTERN int ZEXPORT inflateBackInit_ OF((z_streamp strm, int windowBits,",
      "                                         const char *version));",
    );
    const names = (await extractText(c, text)).map((s) =>
      `${s.kind} ${s.name}`
    );
    assert.deepEqual(names, [
      "function zlibVersion",
      "function deflate",
      "function inflateBackInit_",
    ]);
  },
});

// ---------------------------------------------------------------- Swift

// Fixed fault: a type body holding `#if os(iOS)`, `#if canImport(Combine)` or
// `#if swift(>=5.5)` (a condition with parentheses) right after a member is
// an ERROR for the Swift grammar: the type itself is dropped and its members
// are listed at the top level. `#if DEBUG` works. Such blocks are everywhere
// in cross-platform Swift (Alamofire's Session/Request:
// `#if canImport(Combine)`, `#if !(os(Linux) || os(Windows))`). Expected:
// `class S` with both methods as members. Suggested fix: in a Swift
// prepare(), blank the `#if`/`#elseif`/`#else`/`#endif` lines (spaces, same
// length) so both branches parse as plain members; the outline wants both.
// Fixed as suggested: swift.prepare() blanks those lines (and a condition
// going on over more lines), so every branch parses as plain members.
Deno.test({
  name: "swift.extract() keeps a type whose body has #if canImport(...)",
  fn: async () => {
    const text = lines(
      "class S {",
      "    func a() {}",
      "    #if canImport(Combine)",
      "    func p() {}",
      "    #endif",
      "}",
    );
    assert.deepEqual(outlineLines(await extractText(swift, text)), [
      "class S 1-6",
      "    func a 2-2",
      "    func p 4-4",
    ]);
  },
});

// Fixed fault: the same Swift text outlines differently depending on what the
// worker parsed before. `class S { let a = 1; #if os(iOS) ... }` is an ERROR
// (class dropped, members at the top level) on the first parse in a fresh
// process, and a proper class_declaration on later parses once the WASM heap
// has been used: `deno run -A mod.ts outline File.swift` on one file shows
// the broken outline, the same file outlined after another shows the right
// one (found outlining a SwiftUI-style file alone, then with others; a raw
// `parser.parse()` of the text gives the two trees, so the grammar build
// reads memory it never set). Expected: the class with its members, every
// time. Suggested fix: the blanking of directive lines above avoids the
// input; beyond it, rebuild the Swift grammar from tree-sitter-swift's
// src/ (FACTS.md: Debian's emscripten builds grammars) instead of
// @repomix/tree-sitter-wasms' build, and add a test that parses a file in a
// fresh process.
// Fixed at the root: the scanner (every tree-sitter-swift release, every
// build) allocates its state with calloc(0, 4) and reads it from stale heap;
// grammars/_zeroed_calloc.ts gives it a zeroed calloc, so every parse starts
// from state 0, and the blanking above keeps the class.
Deno.test({
  name:
    "outline CLI gives a fresh process the same Swift outline as a warm one",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(
        join(dir, "S.swift"),
        lines(
          "class S {",
          "    let a = 1",
          "    #if os(iOS)",
          "    func p() {}",
          "    #endif",
          "}",
        ),
      );
      const { code, stdout, stderr } = await fello(["outline", "S.swift"], {
        cwd: dir,
      });
      assert.equal(code, 0, stderr);
      assert.deepEqual(stdout.trim().split("\n").slice(4), [
        "class S (lines 1-6)",
        "    let a (line 2)",
        "    func p (line 4)",
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

// ---------------------------------------------------------------- TypeScript

// Fixed fault: a decorated class method (`@Get(":id") async find() {}`,
// Angular's `@HostListener(...)`, `@Input() set value(...)`, MobX's
// `@action`) starts at the method line, not at its decorator, and loses its
// JSDoc: the grammar makes the decorators siblings of the method_definition
// inside class_body, so the doc comment is not right before the method node.
// A decorated property (decorator inside public_field_definition) gets both
// right, so one class mixes the two. Common in NestJS controllers and
// Angular components. Expected: `method find 6-8 // Handles it.` (spec: the
// doc comment right before the symbol; the issue: a symbol's range covers
// its whole declaration). Suggested fix: in _members(), when a member is
// preceded by `decorator` siblings, start its range at the first of them and
// look for the doc comment above that one.
Deno.test({
  name:
    "typescript.extract() starts a decorated method at its decorator, with its doc",
  fn: async () => {
    const text = lines(
      "export class UsersController {",
      "  /** The service. */",
      "  @Inject()",
      "  private readonly users!: UsersService;",
      "  /** Handles it. */",
      '  @Get(":id")',
      "  @HttpCode(200)",
      '  async find(@Param("id") id: string) {}',
      "}",
    );
    assert.deepEqual(outlineLines(await extractText(typescript, text)), [
      "class UsersController 1-9",
      "    property users 3-4 // The service.",
      "    method find 6-8 // Handles it.",
    ]);
  },
});

// Fixed fault: `declare global { ... }` is left out with everything inside it: the
// ambient_declaration holds a `global` keyword and a statement_block, which
// _unwrap() does not look into. It is how libraries and apps add to Window,
// NodeJS.ProcessEnv or Array (@types/node's globals.d.ts, most React apps'
// env.d.ts). `declare module "x" { }` in the same file is listed. Expected:
// `namespace global` with its declarations at level two, like a module
// declaration. Suggested fix: in _unwrap()/_statement(), read an
// ambient_declaration whose first child is `global` as a namespace named
// `global` over its statement_block.
Deno.test({
  name: "typescript.extract() lists a declare global block",
  fn: async () => {
    const text = lines(
      "export {};",
      "declare global {",
      "  interface Window {",
      "    myGlobal: string;",
      "  }",
      "  var __APP_VERSION__: string;",
      "}",
      'declare module "express" {',
      "  interface Request { user?: string }",
      "}",
    );
    assert.deepEqual(outlineLines(await extractText(typescript, text)), [
      "namespace global 2-7",
      "    interface Window 3-5",
      "    var __APP_VERSION__ 6-6",
      'namespace "express" 8-10',
      "    interface Request 9-9",
    ]);
  },
});

// Fixed fault: a JSDoc whose text is only block tags gives as its summary the
// wrapped second line of a tag's description: preact's src/diff/index.js
// `commitRoot` reads "// which have callbacks to invoke in commitRoot", the
// tail of `@param {Array<Component>} commitQueue List of components`. In
// JSDoc (and Javadoc/KDoc) every line after a block tag belongs to that tag
// up to the next tag. Expected: no doc for it (spec: the first meaningful
// line of the doc comment; a piece of a parameter's description is not a
// summary), while a summary written before the tags still counts. Suggested
// fix: in firstMeaningfulLine(), stop at the first `@tag` line that is not
// `@brief` (the summary always comes first); its current unit test
// ("@param x\n * Reads it." -> "Reads it.") encodes the same mistake.
Deno.test({
  name: "javascript.extract() takes no @param continuation line as a summary",
  fn: async () => {
    const text = lines(
      "/**",
      " * @param {Array<Component>} commitQueue List of components",
      " * which have callbacks to invoke in commitRoot",
      " * @param {VNode} root",
      " */",
      "export function commitRoot(commitQueue, root) {}",
      "",
      "/**",
      " * Diff two virtual nodes.",
      " * @param {VNode} newVNode The new virtual node",
      " */",
      "export function diff(newVNode) {}",
    );
    assert.deepEqual(outlineLines(await extractText(javascript, text)), [
      "function commitRoot 6-6",
      "function diff 12-12 // Diff two virtual nodes.",
    ]);
  },
});

// ---------------------------------------------------------------- JavaScript

// Fixed fault: React's CommonJS builds wrap the whole module in an IIFE inside an
// environment check, `if (process.env.NODE_ENV !== "production") {
// (function() { ... })(); }`: react/cjs/react.development.js (2740 lines),
// react-dom.development.js and scheduler's builds outline as "(no symbols
// found)". _wrapperBody() unwraps a top-level IIFE but not one inside a
// top-level `if` block. Expected: the functions and variables of the IIFE
// body, as for a bare IIFE. Suggested fix: in _statements() at the top
// level, also look into an if_statement's consequence block for the
// expression statements _wrapperBody() recognizes.
Deno.test({
  name: "javascript.extract() outlines an IIFE inside a NODE_ENV check",
  fn: async () => {
    const text = lines(
      "'use strict';",
      "",
      'if (process.env.NODE_ENV !== "production") {',
      "  (function() {",
      "'use strict';",
      "var ReactVersion = '18.3.1';",
      "/** Creates an element. */",
      "function createElement(type) {",
      "  return type;",
      "}",
      "exports.createElement = createElement;",
      "  })();",
      "}",
    );
    assert.deepEqual(outlineLines(await extractText(javascript, text)), [
      "var ReactVersion 6-6",
      "function createElement 8-10 // Creates an element.",
    ]);
  },
});

// ---------------------------------------------------------------- Python

// Fixed fault: methods defined inside an `if`/`else` or `try`/`except` in a class
// body are missing: Python 3.11's subprocess.py `class Popen` lists its
// methods up to `_close_pipe_fds` and then none of the ~850 lines of
// `if _mswindows: ... else: ...` (`_get_handles`, `_execute_child`,
// `_internal_poll`, `_wait`, `_communicate`, `send_signal`, `terminate`,
// `kill`). The module level already looks into `if`/`try` (defs under
// `if __name__ == "__main__":` and imports under `try:` are listed).
// Expected: the methods of both branches as members. Suggested fix: let the
// class-body reader descend into if/elif/else and try/except/else/finally
// blocks as the module-level reader does.
Deno.test({
  name: "python.extract() lists methods defined under if/else in a class body",
  fn: async () => {
    const text = lines(
      "class Popen:",
      "    def poll(self):",
      "        pass",
      "",
      "    if _mswindows:",
      "        def terminate(self):",
      '            """Terminates the process."""',
      "    else:",
      "        def kill(self):",
      "            pass",
    );
    assert.deepEqual(outlineLines(await extractText(python, text)), [
      "class Popen 1-10",
      "    method poll 2-3",
      "    method terminate 6-7 // Terminates the process.",
      "    method kill 9-10",
    ]);
  },
});

// ---------------------------------------------------------------- Go

// Left by decision: the specification's Go node types (package_clause,
// function_declaration, method_declaration, type_spec, field_declaration,
// const_spec, import_declaration) and issue 4's Go labels leave var out, and
// an exact outline of a Go file is part of the contract. The fault as found:
// FAULT: top-level `var` declarations are not listed, while `const` specs
// are: io.go's `var EOF = errors.New("EOF")` (io.EOF, the most used symbol
// of the package) and every `var ErrX = errors.New(...)` sentinel error are
// missing. The spec's Go node list names const_spec and not var_spec, but
// the TypeScript outline already lists `var` beyond its table's
// lexical_declaration, and a model asking "what does this package export"
// needs its sentinel errors. Expected: `var EOF` with its doc, grouped specs
// one by one as for const. Suggested fix: handle var_declaration/var_spec as
// const_declaration/const_spec are, labelled `var`.
Deno.test({
  name: "go.extract() lists top-level var declarations like consts",
  ignore: true,
  fn: async () => {
    const text = lines(
      "package io",
      "",
      "// EOF is the error returned by Read when no more input is available.",
      'var EOF = errors.New("EOF")',
      "",
      "var (",
      "\t// ErrShortWrite means that a write accepted fewer bytes than requested.",
      '\tErrShortWrite = errors.New("short write")',
      ")",
    );
    assert.deepEqual(outlineLines(await extractText(go, text)), [
      "package io 1-1",
      "var EOF 4-4 // EOF is the error returned by Read when no more input is available.",
      "var ErrShortWrite 8-8 // ErrShortWrite means that a write accepted fewer bytes than requested.",
    ]);
  },
});

// ---------------------------------------------------------------- Markdown

// Fixed fault: a `#` line inside an HTML `<pre>` (or `<script>`, `<style>`,
// `<textarea>`) block is listed as a heading: READMEs show shell sessions in
// `<pre>` blocks (`# install` comments), and the rest of the document then
// nests under that fake h1. CommonMark's HTML block kind 1 runs from `<pre`
// to the line holding `</pre>` and holds no headings; the parser already
// skips `<!-- -->` comments the same way. Expected: `# A` and `## B` only.
// Suggested fix: in _markdown.ts, skip from a line starting (up to 3
// spaces) with `<pre`, `<script`, `<style` or `<textarea` to the line
// containing the matching close tag.
Deno.test({
  name: "outlineSymbols() reads no heading inside an HTML <pre> block",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(
        join(dir, "README.md"),
        lines(
          "# A",
          "",
          "<pre>",
          "# install it",
          "npm i a",
          "</pre>",
          "",
          "## B",
        ),
      );
      const result = await outlineSymbols("README.md", { cwd: dir });
      assert.deepEqual(outlineLines(result.symbols), [
        "heading A 1-8",
        "    heading B 8-8",
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

// Fixed fault: an `#ifdef`/`#ifndef` block inside a function body that opens with
// the `else if` of an `if` above it (sqlite3.c's `exprAnalyze`,
// `parseModifier`, `unixOpen`, ... 21 places) ends the function's range
// early (line 7 of 13 below, 25049 of 25303 for parseModifier) and adds a
// junk `function if` for the `else if (...) { }` branch. The grammar reads the `else` inside
// preproc_ifdef as an error; the descent into preprocessor blocks that finds
// sqlite3.c's functions then takes the branch for a function definition.
// Expected: one `function exprAnalyze 2-13` (a symbol's range covers its
// whole body) and no `if`. Suggested fix: never name a function `if`,
// `while`, `for`, `switch` (keywords are not names), and extend a function
// whose body is cut by a preprocessor line to the brace that balances its
// opening one (the rough brace scan of _nesting.ts already knows it).
// Fixed in _c_family.ts: a function named by a statement keyword (`if`,
// `while`, ...) is no function, so the one around it keeps its range.
Deno.test({
  name: "c.extract() keeps a function whole around an #ifndef'd else-if branch",
  fn: async () => {
    const text = lines(
      "/* Analyze. */",
      "static void exprAnalyze(int x){",
      "  if( x==1 ){",
      "    a();",
      "  }",
      "#ifndef SQLITE_OMIT_BETWEEN_OPTIMIZATION",
      "  /* A BETWEEN term. */",
      "  else if( x==2 ){",
      "    b();",
      "  }",
      "#endif",
      "  c();",
      "}",
      "",
      "int after(void){",
      "  return 0;",
      "}",
    );
    assert.deepEqual(outlineLines(await extractText(c, text)), [
      "function exprAnalyze 2-13 // Analyze.",
      "function after 15-17",
    ]);
  },
});

// Fixed fault: an export macro before a typedef'd (or `double`) return type hides
// the function: `SQLITE_API sqlite3_int64 sqlite3_memory_used(void);`,
// `SQLITE_API double sqlite3_value_double(sqlite3_value*);` and
// `SQLITE_API sqlite3_mutex *sqlite3_mutex_alloc(int);` are missing from
// sqlite3.h's outline (11 of its 349 SQLITE_API prototypes), and in
// sqlite3.c the definitions `SQLITE_API sqlite3_int64
// sqlite3_memory_used(void){` and `SQLITE_PRIVATE void
// (*sqlite3OsDlSym(...))(void){` are listed as `function void`. The grammar
// reads `SQLITE_API sqlite3_int64` as a declaration missing its `;`, then
// the rest as a call or a parenthesized declarator. `SQLITE_API int f(...)`
// works. OpenSSL's headers show the function-pointer shape on two lines
// (`OSSL_DEPRECATEDIN_3_0` then `int (*EVP_MD_meth_get_init(...))(...);`):
// 93 `function int` symbols across /usr/include/node/openssl. Expected:
// each listed under its own name. Suggested fix: blank in
// C's prepare() an all-caps identifier at the start of a declaration when
// two more identifiers (or `*`) follow before the `(` (the shape
// `MACRO type name(`), as Objective-C headers already blank Apple's macros;
// and never take `void` (a keyword) as a function name.
// Fixed in _c_family.ts, from the tree (C has no prepare(): it would stop
// large C files being parsed in pieces): a declaration cut short by a macro
// (`SQLITE_API sqlite3_int64`, no `;`) joins what follows on its line, a
// prototype read as a call or a macro type is named by its callee, and a
// keyword read as a name gives way to the name in its parameter list.
Deno.test({
  name: "c.extract() lists SQLITE_API functions returning a typedef'd type",
  fn: async () => {
    const text = lines(
      "SQLITE_API sqlite3_int64 sqlite3_last_insert_rowid(sqlite3*);",
      "SQLITE_API double sqlite3_value_double(sqlite3_value*);",
      "SQLITE_API sqlite3_mutex *sqlite3_mutex_alloc(int);",
      "SQLITE_API sqlite3_int64 sqlite3_memory_used(void){",
      "  return 0;",
      "}",
      "SQLITE_PRIVATE void (*sqlite3OsDlSym(sqlite3_vfs *pVfs))(void){",
      "  return 0;",
      "}",
    );
    assert.deepEqual(outlineLines(await extractText(c, text)), [
      "function sqlite3_last_insert_rowid 1-1",
      "function sqlite3_value_double 2-2",
      "function sqlite3_mutex_alloc 3-3",
      "function sqlite3_memory_used 4-6",
      "function sqlite3OsDlSym 7-9",
    ]);
  },
});

// Fixed fault: a namespace-opening macro line (fmt's `FMT_BEGIN_NAMESPACE`,
// nlohmann/json's `NLOHMANN_JSON_NAMESPACE_BEGIN`, abseil's
// `ABSL_NAMESPACE_BEGIN`, ICU's `U_NAMESPACE_BEGIN`, libstdc++'s
// `_GLIBCXX_BEGIN_NAMESPACE_VERSION`) has no `;`, so the grammar reads it as
// the type of the declaration that follows: fmt-style headers outline as
// nothing at all, and nlohmann-style ones as `function detail` (the
// namespace after the macro, read as a function); libstdc++'s
// bits/stl_vector.h lists `function _GLIBCXX_BEGIN_NAMESPACE_CONTAINER
// (lines 80-304)` in place of `struct _Vector_base` and `class vector`.
// Expected: the declarations as without the macro line. Suggested fix: in
// cpp's prepare(), blank a line that holds only an all-caps identifier (or
// one with an empty argument list), as the Objective-C outline already does
// for `..._BEGIN`/`..._END` mode macros.
// Fixed by cpp's prepare() (_c_macros.ts): a capitalised macro word where a
// declaration starts is blanked when a declaration (or the end of a body)
// follows it.
Deno.test({
  name: "cpp.extract() reads past a namespace-opening macro line",
  fn: async () => {
    const fmt = lines(
      "FMT_BEGIN_NAMESPACE",
      "",
      "/** A string view. */",
      "template <typename Char> class basic_string_view {",
      " public:",
      "  size_t size() const { return size_; }",
      "};",
      "",
      "FMT_END_NAMESPACE",
    );
    assert.deepEqual(outlineLines(await extractText(cpp, fmt)), [
      "class basic_string_view 4-7 // A string view.",
      "    method size 6-6",
    ]);
    const json = lines(
      "NLOHMANN_JSON_NAMESPACE_BEGIN",
      "namespace detail",
      "{",
      "class parse_error {",
      "  int id;",
      "};",
      "}  // namespace detail",
      "NLOHMANN_JSON_NAMESPACE_END",
    );
    assert.deepEqual(outlineLines(await extractText(cpp, json)), [
      "namespace detail 2-7",
      "    class parse_error 4-6",
      "        field id 5-5",
    ]);
  },
});

// Fixed fault: a struct whose body uses field-list macros with no `;` (libuv's
// `UV_REQ_FIELDS` ... `UV_SHUTDOWN_PRIVATE_FIELDS`, the same shape as
// CPython's `PyObject_HEAD`) throws the grammar off for the rest of the
// file: /usr/include/node/uv.h (libuv, shipped with Node's headers) lists 60
// of its 305 `UV_EXTERN` functions, and this snippet outlines as nothing at
// all. With one leading macro only, the macro takes the next field's type
// (`field size_t` for `size_t write_queue_size;`). Expected: the struct
// with its real fields and both functions. Suggested fix: the same blanking
// as for namespace-opening macro lines (a line holding only an all-caps
// identifier, no `;`, inside a struct body or at the top level) in C's and
// C++'s prepare().
Deno.test({
  name: "c.extract() reads past field-list macros in a struct body",
  fn: async () => {
    const text = lines(
      "struct uv_shutdown_s {",
      "  UV_REQ_FIELDS",
      "  uv_stream_t* handle;",
      "  uv_shutdown_cb cb;",
      "  UV_SHUTDOWN_PRIVATE_FIELDS",
      "};",
      "",
      "UV_EXTERN void uv_walk(uv_loop_t* loop, uv_walk_cb walk_cb, void* arg);",
      "UV_EXTERN void uv_close(uv_handle_t* handle, uv_close_cb close_cb);",
    );
    assert.deepEqual(outlineLines(await extractText(c, text)), [
      "struct uv_shutdown_s 1-6",
      "    field handle 3-3",
      "    field cb 4-4",
      "function uv_walk 8-8",
      "function uv_close 9-9",
    ]);
  },
});

// Fixed fault: a line holding an inline code span written with triple backticks
// (```` ```InflatedDataHandler``` ````) is taken for an opening code fence,
// so the headings after it vanish until some later ``` "closes" it, and the
// fences after that are read inverted: @tokenizer/inflate 0.4.1's README.md
// loses `## Types` and `### InflateFileFilter`. CommonMark: the info string
// of a backtick fence may not contain a backtick, so such a line is a
// paragraph. Expected: both headings, and the fenced `#` line still not a
// heading. Suggested fix: in _markdown.ts, refuse a backtick FENCE whose rest
// of line contains a backtick.
Deno.test({
  name: "outlineSymbols() reads no code fence in a line of ```inline code```",
  fn: async () => {
    const dir = await Deno.makeTempDir();
    try {
      await Deno.writeTextFile(
        join(dir, "README.md"),
        lines(
          "## API",
          "",
          "```InflatedDataHandler``` ",
          "",
          "## Types",
          "",
          "### `InflateFileFilter`",
          "```ts",
          "# not a heading",
          "```",
        ),
      );
      const result = await outlineSymbols("README.md", { cwd: dir });
      assert.deepEqual(outlineLines(result.symbols), [
        "heading API 1-4",
        "heading Types 5-10",
        "    heading `InflateFileFilter` 7-10",
      ]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  },
});

// Fixed fault: functions assigned at the top level of a CommonJS module are not
// listed: express 4.21.0's lib/response.js defines its 21 methods as
// `res.send = function send(body) {...}` (each with a JSDoc) and outlines
// as 24 `var x = require(...)` lines plus 2 helpers; `exports.parse =
// function parse()`, `module.exports = function serve()` and
// `Foo.prototype.bar = function () {}` (cookie, serve-static, older
// libraries) are missing the same way. The specification's table lists
// declarations only, but for CommonJS these assignments are the module's
// API, and the outline already looks inside IIFE wrappers for the same
// reason. Expected: one `function` per assignment of a function, class or
// arrow, named by its target as written, with its doc comment. Suggested
// fix: in _statement(), read a top-level expression_statement holding an
// assignment_expression whose right side is a function_expression,
// arrow_function or class as a function (class) named by the left side.
Deno.test({
  name:
    "javascript.extract() lists functions assigned to exports and prototypes",
  fn: async () => {
    const text = lines(
      "var res = Object.create(http.ServerResponse.prototype);",
      "",
      "/**",
      " * Send a response.",
      " */",
      "res.send = function send(body) {",
      "  return this;",
      "};",
      "",
      "/** Parse a cookie header. */",
      "exports.parse = function parse(str) {};",
      "",
      "module.exports = function serveStatic(root) {};",
      "",
      "Router.prototype.handle = function (req, res) {};",
    );
    assert.deepEqual(outlineLines(await extractText(javascript, text)), [
      "var res 1-1",
      "function res.send 6-8 // Send a response.",
      "function exports.parse 11-11 // Parse a cookie header.",
      "function module.exports 13-13",
      "function Router.prototype.handle 15-15",
    ]);
  },
});

// Fixed fault: attribute-like macros before a member function break a class body:
// a deprecation macro with a string argument (`V8_DEPRECATED("Use Get")`,
// abseil's `ABSL_DEPRECATED("...")`, Qt's `Q_DECL_DEPRECATED_X("...")`)
// makes the whole class vanish from the outline, and a macro before a
// templated return type (`V8_INLINE static Local<T> New(...)`,
// `V8_WARN_UNUSED_RESULT MaybeLocal<String> ToString() const;`, 436 such
// macro uses across /usr/include/node/v8*.h) adds a junk `field Local<T>` /
// `field MaybeLocal<String>` beside the method: v8-local-handle.h's
// MaybeLocal lists `field Local<T>` and `method val_`. Expected: the class
// with one method per declaration and no field named after a type.
// Suggested fix: in cpp's prepare(), blank an all-caps identifier (with its
// balanced argument list, if any) that starts a member declaration and is
// followed by another identifier or keyword (`static`, `bool`, a type);
// and never name a field after a type (a field_declaration whose
// "declarator" is a template_type is a misparse).
// Fixed by cpp's prepare() (_c_macros.ts): the same rule, arguments and all.
Deno.test({
  name: "cpp.extract() reads members behind attribute-like macros",
  fn: async () => {
    const deprecated = lines(
      "class Local {",
      " public:",
      '  V8_DEPRECATED("Use Get") Local<Value> Old();',
      "  int x;",
      "};",
    );
    assert.deepEqual(outlineLines(await extractText(cpp, deprecated)), [
      "class Local 1-5",
      "    method Old 3-3",
      "    field x 4-4",
    ]);
    const templated = lines(
      "class Local {",
      " public:",
      "  V8_INLINE static Local<T> New(Isolate* isolate) {",
      "    return Local<T>();",
      "  }",
      "  V8_WARN_UNUSED_RESULT MaybeLocal<String> ToString() const;",
      "};",
    );
    assert.deepEqual(outlineLines(await extractText(cpp, templated)), [
      "class Local 1-7",
      "    method New 3-5",
      "    method ToString 6-6",
    ]);
  },
});

// Fixed fault: a function taking `(void)` with an annotation between its return
// type and its name is named `void`: every Linux kernel module's
// `static int __init my_init(void)` and `static void __exit my_exit(void)`,
// and `static inline u32 __must_check h(void)`. The grammar takes the
// annotation for the declarator's name and `my_init(void)` for a
// parenthesized declarator holding `void`. With a named parameter
// (`__init my_init(int x)`) the name is right. Expected: `function my_init`,
// `function my_exit`, `function h`. Suggested fix: a function whose
// declarator text ends in `name(void)` is named `name`; more generally,
// never take a primitive type (a keyword) as a function's name.
// Fixed in _c_family.ts: a definition whose declarator is in parentheses
// (`my_init(void)` read as type and declarator) is named by that type.
Deno.test({
  name:
    "c.extract() names a (void) function with an annotation before its name",
  fn: async () => {
    const text = lines(
      "static int __init my_init(void)",
      "{",
      "  return 0;",
      "}",
      "",
      "static void __exit my_exit(void)",
      "{",
      "}",
      "",
      "static inline u32 __must_check h(void)",
      "{",
      "  return 0;",
      "}",
    );
    assert.deepEqual(outlineLines(await extractText(c, text)), [
      "function my_init 1-4",
      "function my_exit 6-8",
      "function h 10-13",
    ]);
  },
});

// Fixed fault: every googletest case is named after its macro: `TEST(FactorialTest,
// HandlesZeroInput) { ... }` and `TEST_F(QueueTest, IsEmptyInitially)` are
// listed as `function TEST` and `function TEST_F`, so a test file of fifty
// cases outlines as fifty identical names and the outline cannot say which
// test sits where (the same for Catch2's `TEST_CASE("...")` and benchmark's
// `BENCHMARK(...)`). Expected: the macro with its arguments as the name,
// `TEST(FactorialTest, HandlesZeroInput)`. Suggested fix: for a function
// definition whose declarator is an all-caps name whose parameters have no
// types (bare identifiers or string literals), use the declarator's text,
// clipped like other names.
// Fixed in _c_family.ts as suggested (a definition with no return type, a
// name spelled as a macro and bare-name parameters).
Deno.test({
  name: "cpp.extract() names googletest cases by their suite and test",
  fn: async () => {
    const text = lines(
      "namespace {",
      "",
      "// Tests factorial of 0.",
      "TEST(FactorialTest, HandlesZeroInput) {",
      "  EXPECT_EQ(Factorial(0), 1);",
      "}",
      "",
      "TEST_F(QueueTest, IsEmptyInitially) {",
      "  EXPECT_EQ(q0_.size(), 0);",
      "}",
      "",
      "}  // namespace",
    );
    assert.deepEqual(outlineLines(await extractText(cpp, text)), [
      "namespace (anonymous) 1-12",
      "    function TEST(FactorialTest, HandlesZeroInput) 4-6 // Tests factorial of 0.",
      "    function TEST_F(QueueTest, IsEmptyInitially) 8-10",
    ]);
  },
});

// Fixed fault: a TypeScript `import fs = require("fs");` is listed with the whole
// statement as its name, `import import fs = require("fs");`, while every
// other import is named by its module (`import ./a`). The module string sits
// in the import_require_clause's `source` field, not the statement's, so
// _importName() falls back to the statement text. Common in TypeScript
// written for CommonJS (older Node and Azure SDK code, `export =` modules).
// Expected: `import fs 1-1`. Suggested fix: in _importName(), read `source`
// from an import_require_clause child when the statement has none.
Deno.test({
  name: "typescript.extract() names an import-require by its module",
  fn: async () => {
    const text = lines(
      'import fs = require("fs");',
      'import type { A } from "./a";',
    );
    assert.deepEqual(outlineLines(await extractText(typescript, text)), [
      "import fs 1-1",
      "import ./a 2-2",
    ]);
  },
});
