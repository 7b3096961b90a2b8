// Review 16 of the TypeScript/TSX/JavaScript outline, differential: each
// file's outline was compared with one computed by the TypeScript 5.9.3
// compiler API (createSourceFile, walking the statements per the
// specification's node-type table: declarations inside `export`, members at
// level two, 1-based line ranges, the first meaningful line of the JSDoc
// above). Corpus: 43,829 files of the npm packages in the review folder
// (.ts, .d.ts, .tsx, .js, .mjs, .cjs) and TypeScript's lib/*.d.ts. On the
// 43,708 files TypeScript parses without a syntax error, 43,517 outlines
// were equal and 547,520 of 547,846 symbols matched. The differences left
// are the faults below or documented decisions: a JSDoc across one blank
// line with nothing but comments or a directive above it is the file's (133
// files, 47 of them three.js shaders whose only doc sits there); accessors
// in interfaces are methods, as in classes; `const x = 1 // note` with its
// `;` alone on the next line (SWC output, 21 files) and Babel's
// `} /** next doc */;` end on the code line; overloads take the first doc
// found. Each fault is a small snippet that failed when found (marked
// `ignore: true` then); all seven are fixed now.
import assert from "node:assert/strict";
import { outlineFileLines } from "./support/outline_languages.ts";

const lines = (...text: string[]) => text.join("\n") + "\n";

// ------------------------------------------------------- verified behaviour

Deno.test("outlineSymbols() outlines a declaration file as tsc reads it", async () => {
  const text = lines(
    'import type { A } from "./a";',
    'export * from "./b";',
    "",
    "/** Overloaded. */",
    "export function f(a: string): void;",
    "export function f(a: number): void;",
    "",
    "export declare class C {",
    "  /** Makes one. */",
    "  constructor(x: number);",
    "  get size(): number;",
    "  set size(v: number);",
    "  static of(): C;",
    "  name: string;",
    "}",
    "",
    "export declare namespace N.Inner {",
    "  /** Inner function. */",
    "  function g(): void;",
    "  interface I {",
    "    a: string;",
    "  }",
    "}",
    "",
    'declare module "m" {',
    "  export const v: number;",
    "}",
    "",
    "declare global {",
    "  interface Window {",
    "    x: number;",
    "  }",
    "}",
    "",
    "export const enum E {",
    "  A,",
    "  B = 2,",
    "}",
    "",
    "export type T = {",
    "  /** The id. */",
    "  id: string;",
    "  run(): void;",
    "};",
    "",
    "export default function (): void;",
  );
  assert.deepEqual(await outlineFileLines("api.d.ts", text), [
    "import ./a 1-1",
    "export ./b 2-2",
    "function f 5-6 // Overloaded.",
    "class C 8-15",
    "    method constructor 10-10 // Makes one.",
    "    method size 11-12",
    "    method of 13-13",
    "    property name 14-14",
    "namespace N.Inner 17-23",
    "    function g 19-19 // Inner function.",
    "    interface I 20-22",
    'namespace "m" 25-27',
    "    const v 26-26",
    "namespace global 29-33",
    "    interface Window 30-32",
    "enum E 35-38",
    "    member A 36-36",
    "    member B 37-37",
    "type T 40-44",
    "    property id 42-42 // The id.",
    "    method run 43-43",
    "function default 46-46",
  ]);
});

Deno.test("outlineSymbols() outlines CommonJS assignments and a bundle's IIFE", async () => {
  const text = lines(
    "'use strict';",
    "",
    "const a = 1, b = 2;",
    "",
    "/** Parses it. */",
    "exports.parse = function parse() {};",
    "",
    "module.exports.Thing = class Thing {",
    "  /** Runs. */",
    "  run() {}",
    "  size = 1;",
    "};",
    "",
    "/** Builds the bundle. */",
    "var Lib = (function (exports) {",
    "  function inner() {}",
    "  class K {}",
    "  return exports;",
    "})({});",
  );
  assert.deepEqual(await outlineFileLines("lib.js", text), [
    "const a 3-3",
    "const b 3-3",
    "function exports.parse 6-6 // Parses it.",
    "class module.exports.Thing 8-12",
    "    method run 10-10 // Runs.",
    "    property size 11-11",
    "var Lib 15-19 // Builds the bundle.",
    "    function inner 16-16",
    "    class K 17-17",
  ]);
});

// ------------------------------------------------------------------ faults

// Fixed fault: a generic call signature in a semicolon-free type body is still a syntax error when a comment stands between it and the member above, or when its `<` is alone on its line; the interface is cut short and every declaration after it is lost (expected: the whole interface, its members, and what follows). 6 corpus files, the very ones review 15's fix named: react-redux 9.2.0 src/hooks/useStore.ts and src/components/connect.tsx, @reduxjs/toolkit 2.5.0 src/createSlice.ts and src/listenerMiddleware/types.ts, mobx 6.13.5 src/api/action.ts, immer 10.1.1 src/types/types-external.ts (52 top-level symbols lost, 2 interfaces cut short).
Deno.test({
  name:
    "outlineSymbols() reads a generic call signature under a comment or with a lone '<'",
  fn: async () => {
    const commented = lines(
      "export interface Produce {",
      "  /** Curried producer. */",
      "  <C>(recipe: C): C",
      "",
      "  /** Plain producer. */",
      "  <B>(base: B): B",
      "  name: string",
      "}",
      "",
      "export function produce(): void {}",
    );
    assert.deepEqual(await outlineFileLines("produce.ts", commented), [
      "interface Produce 1-8",
      "    property name 7-7",
      "function produce 10-10",
    ]);
    const lone = lines(
      "export interface UseStore<S> {",
      "  (): S",
      "",
      "  <",
      "    T extends S = S,",
      "  >(): T",
      "  withTypes: () => S",
      "}",
      "",
      "export const useStore = 1",
    );
    assert.deepEqual(await outlineFileLines("use_store.ts", lone), [
      "interface UseStore 1-8",
      "    property withTypes 7-7",
      "const useStore 10-10",
    ]);
  },
});

// Fixed fault: a parameter named `using` (legal TypeScript) is a syntax error to the grammar: a function declaring one is lost with every declaration after it ("no symbols found" for the snippet below), and an interface method declaring one turns into bogus properties (`property findProviders`, `property provider`); expected: the method and the function listed as such. 1 corpus file: @angular/core 19.0.5 index.d.ts (PublicTestability.findProviders, twice).
Deno.test({
  name: "outlineSymbols() keeps a TypeScript parameter named 'using'",
  fn: async () => {
    const text = lines(
      "export interface Testability {",
      "  isStable(): boolean;",
      "  findProviders(using: any, provider: string): any[];",
      "}",
      "",
      "export function find(using: string): void {}",
      "",
      "export const after = 1;",
    );
    assert.deepEqual(await outlineFileLines("testability.ts", text), [
      "interface Testability 1-4",
      "    method isStable 2-2",
      "    method findProviders 3-3",
      "function find 6-6",
      "const after 8-8",
    ]);
  },
});

// Fixed fault: a property named `abstract` in an interface or object type is named after its type (`property string`), or lost with its neighbours while its nested type's members leak up a level (`property before`); expected: `property abstract`. 2 corpus files: next 15.1.3 dist/lib/metadata/types/metadata-interface.d.ts, @stylistic/eslint-plugin 2.12.1 dist/dts/rule-options.d.ts (67 nested keys listed as members of KeywordSpacingSchema0).
Deno.test({
  name: "outlineSymbols() names a property called 'abstract'",
  fn: async () => {
    const text = lines(
      "export interface Metadata {",
      "  abstract?: null | string;",
      "  keywords: string[];",
      "}",
      "export type Options = { abstract?: { before?: boolean }; as?: boolean };",
    );
    assert.deepEqual(await outlineFileLines("metadata.ts", text), [
      "interface Metadata 1-4",
      "    property abstract 2-2",
      "    property keywords 3-3",
      "type Options 5-5",
      "    property abstract 5-5",
      "    property as 5-5",
    ]);
  },
});

// Fixed fault: a JSDoc `@typedef` whose type runs over several lines gives the declaration under it a line of that type as its doc (`// skip: () => void;`, `// {`): firstMeaningfulLine() counts `@typedef` among Doxygen's structural tags, after which a summary may follow; expected: no doc (the comment defines another type). 6 corpus files, 9 declarations: vite 6.0.5 dist/node/chunks/dep-BZMjGe_U.js (4), eslint-plugin-jsdoc 50.6.1 src/ and dist/ alignTransform and iterateJsdoc, eslint-plugin-unicorn 56.0.1 rules/ast/call-or-new-expression.js.
Deno.test({
  name: "outlineSymbols() takes no doc from a multi-line @typedef",
  fn: async () => {
    const text = lines(
      'import x from "x";',
      "",
      "/** @typedef {{",
      "\tskip: () => void;",
      "}} WalkerContext */",
      "",
      "export class WalkerBase {}",
      "/**",
      "@typedef {",
      "\t{ name?: string } | string",
      "} CallOptions",
      "*/",
      "export function create() {}",
    );
    assert.deepEqual(await outlineFileLines("walker.js", text), [
      "import x 1-1",
      "class WalkerBase 7-7",
      "function create 13-13",
    ]);
  },
});

// Fixed fault: a doc line holding only an inline `{@link ...}` tag is skipped as if it were a Dart directive (`{@template x}`): a doc that is only a link gets no doc, and one that opens with a link gets its second line, a sentence fragment (`// as specified by W3C.`); expected: the link line as written. 2 corpus files: vitepress 1.5.0 dist/node/chunk-DMuPggCS.js (15 LRUCache options documented `{@link LRUCache.OptionsBase.ttl}`), next 15.1.3 dist/compiled/@edge-runtime/cookies/index.d.ts (CookieListItem).
Deno.test({
  name: "outlineSymbols() keeps a doc line that is only an inline {@link}",
  fn: async () => {
    const text = lines(
      "export interface Options {",
      "  /**",
      "   * {@link Base.ttl}",
      "   */",
      "  ttl?: number;",
      "  /**",
      "   * {@link https://example.com/spec Item}",
      "   * as specified by W3C.",
      "   */",
      "  item?: string;",
      "}",
    );
    assert.deepEqual(await outlineFileLines("options.ts", text), [
      "interface Options 1-11",
      "    property ttl 5-5 // {@link Base.ttl}",
      "    property item 10-10 // {@link https://example.com/spec Item}",
    ]);
  },
});

// Fixed fault: a file overview JSDoc tagged `@module` right above the first statement (no blank line between) is shown as that statement's doc (its second paragraph, since the `@module` line is skipped); across a blank line the same comment is rightly left to the file (review 15's fix covers only that case); expected: no doc. 2 corpus files: typedoc 0.27.5 dist/index.d.ts and dist/index.js.
Deno.test({
  name: "outlineSymbols() leaves an adjacent @module JSDoc to the file",
  fn: async () => {
    const text = lines(
      "/**",
      " * @module TypeDoc API",
      " *",
      " * In addition to the members documented here, more.",
      " */",
      'export { Application } from "./lib/application.js";',
      'export { Event } from "./lib/events.js";',
    );
    assert.deepEqual(await outlineFileLines("index.d.ts", text), [
      "export ./lib/application.js 6-6",
      "export ./lib/events.js 7-7",
    ]);
  },
});

// Fixed fault: a function whose closing line ends with the start of a block comment (`} /**` then the comment's lines, as Babel prints a file overview after its helpers) ends at the comment's last line: the grammar's automatic semicolon is placed after the comment; expected: the function ends on its own last line. 2 corpus files: eslint-plugin-jsx-a11y 6.10.2 lib/rules/mouse-events-have-key-events.js and no-noninteractive-tabindex.js (`_toPrimitive` 14-19 instead of 14-14).
Deno.test({
  name:
    "outlineSymbols() ends a function before a comment opened on its last line",
  fn: async () => {
    const text = lines(
      '"use strict";',
      "function _a(t) { return t; } /**",
      " * @fileoverview Enforce things.",
      " */ // ----",
      "const b = 1;",
    );
    assert.deepEqual(await outlineFileLines("rule.js", text), [
      "function _a 2-2",
      "const b 5-5",
    ]);
  },
});
