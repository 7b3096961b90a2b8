// Review 15 of file_outline on real code from npm packages, for Markdown (the
// built-in parser), JavaScript, TSX and TypeScript. Corpus: 159 packages
// fetched with `npm pack`: 924 Markdown files (154 .mdx: READMEs,
// CHANGELOGs and docs of typescript-eslint, fastify, pino, npm, markdownlint,
// unified/micromark, eslint plugins, docusaurus...) and 45,381 JS/TS files
// (28,928 .js, 1,141 .mjs, 1,775 .cjs, 8 .jsx, 11,720 .ts of which 10,615
// .d.ts, 445 .tsx: React component sources of docusaurus,
// react-day-picker, react-redux, react-spectrum, emotion; ESM, CommonJS, UMD
// builds and .d.ts files of react, vue, date-fns, rxjs, gatsby, chart.js,
// mui, angular, zod, commander, mongoose, graphql...). All were outlined
// without a crash or an error; headings were checked against markdown-it 14
// (CommonMark), declarations and JSDoc against the TypeScript 5.7 compiler
// API, and samples read by hand. Each fault below is reduced to a small
// snippet with a note naming the real files that showed it; each failed on
// the code of commit 11a236f. All 18 are fixed ("Fixed fault").
import assert from "node:assert/strict";
import { join } from "node:path";
import { outlineLines } from "./support/outline_languages.ts";
import { outlineSymbols } from "../mod.ts";

const lines = (...text: string[]) => text.join("\n") + "\n";

/** Outlines `text` saved as `name` in a fresh folder, as outline lines. */
async function outlineOf(name: string, text: string): Promise<string[]> {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(join(dir, name), text);
    const result = await outlineSymbols(name, { cwd: dir });
    return outlineLines(result.symbols);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

// ---------------------------------------------------------------- TypeScript

// Fixed fault: an import type followed by type arguments or `[]`
// (`import("./x").Name<...>`, `import("./x").Name[]`,
// `(import("./x").A.B | null)[]`) is a syntax error to
// tree-sitter-typescript 0.23.2 (`import("./x").Name`, `typeof
// import("./x").default` and `X<import("./x").Name>` parse). tsc's
// declaration emit writes such types all the time, so .d.ts files lose
// their outline from that point: date-fns@4.1.0 fp/*.d.ts (`export declare
// const startOfMinute: import("./types.js").FPFn1<...>`) list each const on
// line 1 instead of lines 1-4; recharts@2.15.0 types/chart/BarChart.d.ts
// shows `const BarChart (line 1)` for lines 1-163; gatsby@5.14.1
// dist/redux/actions/index.d.ts loses `restrictedActionsAvailableInAPI`;
// @angular-eslint/eslint-plugin@19.0.2 dist/index.d.ts (`declare const
// _default: { ... import("...").RuleModule<...> }`) outlines as "(no
// symbols found)"; next@15.1.3 dist/pages/_document.d.ts loses most members
// of `class Head` and the `class NextScript`, `function Html` and `function
// Main` after it; react-select@5.9.0 dist/declarations/src/Select.d.ts
// loses `class Select`; styled-components@6.1.13 dist/test/utils.d.ts
// loses 7 consts; redis@6.3.1 dist/index.d.ts (2,500 lines) loses everything
// after `declare const modules`, `createClient` and `createCluster` among
// them. The first syntax error of 630 of the 12,165 .ts/.tsx
// files in the corpus (5%) is this one. Expected: every declaration, each
// over its whole range. Suggested fix: a `prepare` text pass for
// TypeScript/TSX that turns each `import("...")` not preceded by a name
// character or `.` into an identifier of the same length (e.g. `_` for
// every character): a type reads as a qualified type name, an expression
// `await import("x")` as a name, and no offset moves.
Deno.test({
  name: "outlineSymbols() reads import(...) types with type arguments or []",
  fn: async () => {
    const text = lines(
      'export declare const startOfMinute: import("./types.js").FPFn1<',
      "  Date,",
      '  import("../fp.js").DateArg<Date>',
      ">;",
      "export declare const restricted: {",
      '  [x: string]: import("redux").ActionCreator<A>;',
      "};",
      "export declare const after: number;",
    );
    assert.deepEqual(await outlineOf("startOfMinute.d.ts", text), [
      "const startOfMinute 1-4",
      "const restricted 5-7",
      "const after 8-8",
    ]);
    const document = lines(
      "export declare class Head extends React.Component<HeadProps> {",
      '    getPreloadDynamicChunks(): (import("react/jsx-runtime").JSX.Element | null)[];',
      "    getCssLinks(files: DocumentFiles): JSX.Element[] | null;",
      "}",
      "export declare function Html(props: HtmlProps): JSX.Element;",
    );
    assert.deepEqual(await outlineOf("_document.d.ts", document), [
      "class Head 1-4",
      "    method getPreloadDynamicChunks 2-2",
      "    method getCssLinks 3-3",
      "function Html 5-5",
    ]);
  },
});

// Fixed fault: the same grammar gap in a class heritage clause: `class BarElement
// extends Element<import("../types/basic.js").AnyObject, ...> {` is an
// error, the class body is not read (its 15 members vanish) and the
// properties of the type alias after it are listed as the class's members.
// Seen in chart.js@4.4.7 dist/elements/element.bar.d.ts (and its sibling
// element.*.d.ts files). Expected: the class with its own members, then the
// type with its property. Suggested fix: as above (the import(...) text
// pass covers both).
Deno.test({
  name: "outlineSymbols() reads a class extending Base<import(...).T>",
  fn: async () => {
    const text = lines(
      'export default class BarElement extends Element<import("./basic.js").AnyObject> {',
      "  static id: string;",
      "  draw(ctx: any): void;",
      "}",
      "export type BarProps = {",
      "  x: number;",
      "};",
    );
    assert.deepEqual(await outlineOf("element.bar.d.ts", text), [
      "class BarElement 1-4",
      "    property id 2-2",
      "    method draw 3-3",
      "type BarProps 5-7",
      "    property x 6-6",
    ]);
  },
});

// Fixed fault: in an interface or object type written without semicolons, a
// generic call signature on its own line (`<S = {}>(...): R<S>`) after a
// member is a syntax error to the grammar, which inserts no separator
// before `<`. react-redux@9.2.0 src/components/connect.tsx declares
// `export interface Connect { (): InferableComponentEnhancer<DispatchProp>
// <TStateProps = {}, ...>(...) ... }`: the outline ends the interface at
// line 274 of 413 and lists nothing of the 540 lines after it (not
// `connect`, the file's main function, nor `hasWarnedAboutDeprecatedPureOption`).
// Semicolon-free TypeScript (Prettier's `semi: false`) is the house style of
// the Redux and MobX projects: @reduxjs/toolkit@2.5.0 src/createSlice.ts
// (`interface AsyncThunkCreator { <Returned, ThunkArg = void>(...): ...
// <Returned, ThunkArg, ...>(...) }`) loses the 26 declarations after line
// 366, `createSlice` and `buildCreateSlice` among them;
// src/listenerMiddleware/types.ts loses 14; mobx@6.13.5 src/api/action.ts
// loses `action`, `runInAction` and 4 more; immer@10.1.1
// src/types/types-external.ts loses `IProduce` and 3 more; react-redux
// src/hooks/useStore.ts loses `useStore`. Smaller files recover sooner but
// still cut the interface short and drop the members after the signature. Expected: the interface over its whole
// body and every declaration after it. Suggested fix: in a TypeScript/TSX
// `prepare` pass, where a line inside a `{ }` type body starts with `<`
// (after indentation) and the previous code line ends without `;`, `,`,
// `{` or `(`, turn the indentation space before `<` into `;` (same length).
Deno.test({
  name:
    "outlineSymbols() reads generic call signatures in a semicolon-free interface",
  fn: async () => {
    const text = lines(
      "export interface Connect {",
      "  (): Enhancer<Props>",
      "",
      "  <S = {}, O = {}>(",
      "    mapState: MapState<S, O>,",
      "  ): Enhancer2<S, O>",
      "",
      "  <D = {}, O = {}>(",
      "    mapState: null | undefined,",
      "    mapDispatch: MapDispatch<D, O>,",
      "  ): Enhancer2<D, O>",
      "}",
      "",
      "let warned = false",
      "",
      "function connect() {}",
    );
    assert.deepEqual(await outlineOf("connect.tsx", text), [
      "interface Connect 1-12",
      "let warned 14-14",
      "function connect 16-16",
    ]);
    const members = lines(
      "interface Selector {",
      "  name: string",
      "  <T>(input: T): T",
      "  size: number",
      "}",
    );
    assert.deepEqual(await outlineOf("selector.ts", members), [
      "interface Selector 1-5",
      "    property name 2-2",
      "    property size 4-4",
    ]);
  },
});

// Fixed fault: an anonymous default function declared without a body, `export
// default function (options: Options): Result;` (how tsc writes a default
// export function into a .d.ts), is a syntax error to the grammar, and the
// package's main export is missing from the outline: @astrojs/react@4.1.2
// dist/index.d.ts (`export default function ({ include, exclude, babel,
// experimentalReactChildren, }?: ReactIntegrationOptions):
// AstroIntegration;`), semantic-release@24.2.0 index.d.ts (inside `declare
// module "semantic-release"`, with its JSDoc), next@15.1.3
// dist/build/babel/plugins/*.d.ts, gatsby@5.14.1 dist/utils/*-loader.d.ts;
// husky@9.1.7 index.d.ts, whose one line is `export default function (dir?:
// string): string;`, outlines as "(no symbols found)".
// Named, the same signature is listed (`function x (line 7)  // Run ...`).
// Expected: `function default` over its line, with its doc, as for `export
// default function () {}` with a body. Suggested fix: in _statement(), read
// an ERROR node (or an export_statement holding one) whose text starts with
// `export default function` up to its `;` as `function default`, taking the
// doc above it.
Deno.test({
  name: "outlineSymbols() lists an export default function signature",
  fn: async () => {
    const astro = lines(
      'import type { AstroIntegration } from "astro";',
      "export default function ({ include, exclude }?: Options): AstroIntegration;",
      "export declare function getContainerRenderer(): ContainerRenderer;",
    );
    assert.deepEqual(await outlineOf("index.d.ts", astro), [
      "import astro 1-1",
      "function default 2-2",
      "function getContainerRenderer 3-3",
    ]);
    const release = lines(
      'declare module "semantic-release" {',
      "  export type Result = false | { ok: true };",
      "  /**",
      "   * Run semantic-release and returns a Promise that resolves to a Result",
      "   * object.",
      "   */",
      "  export default function (options: Options): Promise<Result>;",
      "}",
    );
    assert.deepEqual(await outlineOf("semantic-release.d.ts", release), [
      'namespace "semantic-release" 1-8',
      "    type Result 2-2",
      "    function default 7-7 // Run semantic-release and returns a Promise that resolves to a Result",
    ]);
  },
});

// Fixed fault: a triple-slash directive (`/// <reference types="node" />`,
// `/// <reference lib="..." />`) is read as the doc comment of the
// declaration under it, because it starts with the `///` doc marker: the
// outline says `import rollup (line 2)  // <reference types="node" />`.
// Seen in vite@6.0.5 dist/node/index.d.ts, styled-components@6.1.13
// dist/models/ServerStyleSheet.d.ts, gatsby@5.14.1 dist/utils/*.d.ts,
// typescript@5.7.2 lib/lib.es2020.intl.d.ts (`namespace Intl  //
// <reference lib="es2018.intl" />`), and in JavaScript builds: swr@2.2.5
// dist/core/index.mjs (`const use  // <reference types="react/experimental" />`),
// @angular/core@19.0.5 schematics bundles. A directive is an instruction to
// the compiler, not documentation. Expected: no doc. Suggested fix: in
// _nodes.ts docComment(), drop trailing texts matching
// /^\/\/\/\s*<(?:reference|amd-module|amd-dependency)\b/ as TOOL_DIRECTIVE
// lines are dropped.
Deno.test({
  name: "outlineSymbols() takes no /// <reference> directive as a doc comment",
  fn: async () => {
    assert.deepEqual(
      await outlineOf(
        "index.d.ts",
        lines(
          '/// <reference types="node" />',
          'import { EventEmitter } from "node:events";',
          "",
          '/// <reference lib="es2018.intl" />',
          "declare namespace Intl {}",
        ),
      ),
      ["import node:events 2-2", "namespace Intl 5-5"],
    );
    assert.deepEqual(
      await outlineOf(
        "index.mjs",
        lines(
          '/// <reference types="react/experimental" />',
          "const use = React.use;",
        ),
      ),
      ["const use 2-2"],
    );
  },
});

// Fixed fault: a banner of slashes is read as a `///` doc comment and its slashes
// become the summary. zod@3.24.1 lib/index.mjs and lib/types.js put
// `/////...` banners around `//////////  ZodDiscriminatedUnion  //////////`
// right above `const getDiscriminator`, whose outline line ends
// `// //////////////////////////////////////////////////`; @angular/core@19.0.5
// fesm2022/core.mjs has `/// Parent Injector Utils ////////...` (summary
// keeps the trailing slashes), `//////...\n//// Element\n//////...` above
// `executeContentQueries` (summary `///////////////////////`) and
// schematics/bundles/checker-*.js `//// Types` above `var TypeModifier`
// (summary `/ Types`); eslint-plugin-react@7.37.2 lib/rules/jsx-no-literals.d.ts
// documents `type RawConfig` with `/**\n * -----...\n */` (summary: the
// dashes). Expected: no rule of slashes or dashes in a summary: either no
// doc (a section banner documents no one declaration) or its words
// ("ZodDiscriminatedUnion", "Types"). Suggested fix: in
// firstMeaningfulLine(), strip every leading and trailing `/` of a line
// comment's line (COMMENT_MARK strips at most three) and skip lines left
// empty or made only of `-`, `=`, `/` and `*` (a rule), as blank lines are.
Deno.test({
  name:
    "outlineSymbols() takes no banner of slashes or dashes as a doc summary",
  fn: async () => {
    const outline = await outlineOf(
      "index.mjs",
      lines(
        "const x = 1;",
        "/////////////////////////////////////////////////////",
        "//////////      ZodDiscriminatedUnion      //////////",
        "/////////////////////////////////////////////////////",
        "const getDiscriminator = (type) => type;",
        "",
        "//// Types",
        "var TypeModifier;",
        "/**",
        " * ----------------------------------------------------------------------",
        " */",
        "var RawConfig;",
      ),
    );
    assert.deepEqual(
      outline.map((line) => line.replace(/ \/\/ .*/, "")),
      [
        "const x 1-1",
        "const getDiscriminator 5-5",
        "var TypeModifier 8-8",
        "var RawConfig 12-12",
      ],
    );
    for (const line of outline) {
      const doc = / \/\/ (.*)$/.exec(line)?.[1];
      assert.ok(
        doc === undefined || !/^[-=/]|\/\/|---/.test(doc),
        `a summary of rule characters: ${line}`,
      );
    }
  },
});

// Fixed fault: a JSDoc whose summary sits under the `@summary` or `@description`
// tag (`@desc` for short, as JSDoc allows) gets no doc: a tag line before
// it (`@name addDays`, `@category Day Helpers`) starts a "block tag", and
// nothing after a block tag is read, though these two tags are the
// summary, as Doxygen's `@brief` (already read) is. date-fns@4.1.0 documents
// every one of its ~250 functions so (`@name`, `@category`, `@summary Add
// the specified number of days to the given date.`, `@description ...`),
// in its .js, .cjs and .d.ts files (1,014 files): `function addDays (lines
// 29-36)` has no doc. antd@5.22.7 documents its design tokens with `@desc
// 文字字重` / `@descEN Font weight of text` (es/*/style/token.d.ts, 138
// files). Expected: the tag's text (or the next line when the tag stands
// alone). Suggested fix: in firstMeaningfulLine(), read
// /^[@\\](?:summary|description|desc)(?:\s+|$)/ as BRIEF_TAG is read.
Deno.test({
  name:
    "outlineSymbols() reads a JSDoc @summary or @description as the summary",
  fn: async () => {
    const dateFns = lines(
      "/**",
      " * @name addDays",
      " * @category Day Helpers",
      " * @summary Add the specified number of days to the given date.",
      " *",
      " * @description",
      " * Add the specified number of days to the given date.",
      " *",
      " * @param date - The date to be changed",
      " */",
      "export declare function addDays(date: Date, amount: number): Date;",
      "/**",
      " * @description",
      " * Reads the config.",
      " */",
      "export declare function read(): void;",
      "export interface ComponentToken {",
      "    /**",
      "     * @desc 文字字重",
      "     * @descEN Font weight of text",
      "     */",
      "    fontWeight: number;",
      "}",
    );
    assert.deepEqual(await outlineOf("addDays.d.ts", dateFns), [
      "function addDays 11-11 // Add the specified number of days to the given date.",
      "function read 16-16 // Reads the config.",
      "interface ComponentToken 17-23",
      "    property fontWeight 22-22 // 文字字重",
    ]);
  },
});

// Fixed fault: a JSDoc block separated from its declaration by one blank line is
// not read. Several of the most used packages are written or compiled so:
// commander@12.1.0 lib/command.js puts a blank line under the JSDoc of
// nearly every method (`createCommand`, `createHelp`, `addCommand`... have
// no doc), mongoose@8.9.2 lib/model.js under `Model.find`,
// `Model.findById`..., and graphql@16.10.0's Babel output under every
// exported function (language/parser.js `parse`, `parseValue`, `class
// Parser`...). In a sample of 10,000 JS/TS files, 446 declarations (graphql
// 240, vite 26, three 25, webpack 25, mocha 21, mongoose 13, axios 12,
// express 9...) lose a JSDoc this way, against 14,379 that keep one.
// TypeScript and editors attach a `/**` JSDoc to the declaration after it
// whatever the blank lines (it is what a hover shows); a reader does too.
// Expected: the JSDoc's summary. A file's leading comment (a license or
// file overview, with nothing but comments above it) can stay excluded.
// Suggested fix: in the ECMAScript extractor, when no comment is adjacent,
// accept a `/**` block comment that ends exactly two lines above the
// declaration (one blank line) and is not the file's first statement.
Deno.test({
  name: "outlineSymbols() reads a JSDoc one blank line above its declaration",
  fn: async () => {
    const text = lines(
      "const x = 1;",
      "",
      "/**",
      " * Given a GraphQL source, parses it into a Document.",
      " */",
      "",
      "function parse(source, options) {}",
      "",
      "class Command {",
      "  /**",
      "   * Factory routine to create a new unattached command.",
      "   *",
      "   * @param {string} [name]",
      "   */",
      "",
      "  createCommand(name) {}",
      "}",
    );
    assert.deepEqual(await outlineOf("command.js", text), [
      "const x 1-1",
      "function parse 7-7 // Given a GraphQL source, parses it into a Document.",
      "class Command 9-17",
      "    method createCommand 16-16 // Factory routine to create a new unattached command.",
    ]);
  },
});

// Fixed fault: a license header directly above the first declaration is read as
// its doc comment. Meta's projects start every file with `/**\n *
// Copyright (c) Facebook, Inc. and its affiliates.\n *\n * This source code
// is licensed under the MIT license...\n */`, and their compiled output
// keeps it with no blank line under it: the outline of
// @docusaurus/theme-classic@3.6.3 lib/theme/Navbar/index.d.ts reads
// `function Navbar (line 7)  // Copyright (c) Facebook, Inc. and its
// affiliates.`; 58 symbols in the sample (51 files of
// @docusaurus/theme-classic lib/, @docusaurus/core, react-native-web
// dist/cjs, next dist/build) carry a copyright line as their summary. A
// license header documents the file, not the declaration. Expected: no doc.
// Suggested fix: in docComment(), refuse a comment whose text names a
// license (/\bcopyright\b|@license\b|\blicensed under\b|SPDX-License-Identifier/i),
// as tool directives are refused.
Deno.test({
  name: "outlineSymbols() takes no license header as the first symbol's doc",
  fn: async () => {
    const text = lines(
      "/**",
      " * Copyright (c) Facebook, Inc. and its affiliates.",
      " *",
      " * This source code is licensed under the MIT license found in the",
      " * LICENSE file in the root directory of this source tree.",
      " */",
      "export default function Navbar(): JSX.Element;",
    );
    assert.deepEqual(await outlineOf("index.d.ts", text), [
      "function Navbar 7-7",
    ]);
    const js = lines(
      "/**",
      " * Copyright (c) Facebook, Inc. and its affiliates.",
      " *",
      " * This source code is licensed under the MIT license found in the",
      " * LICENSE file in the root directory of this source tree.",
      " */",
      'import React from "react";',
    );
    assert.deepEqual(await outlineOf("index.js", js), ["import react 7-7"]);
  },
});

// ---------------------------------------------------------------- JavaScript

// Fixed fault: a UMD bundle outlines as "(no symbols found)". Its module body is
// the factory function passed as an argument to the wrapper
// (`(function (global, factory) { ...define/exports dispatch... }(this,
// (function () { 'use strict'; ...the module... })))`), while
// _wrapperBody() outlines the body of the called function (the dispatch,
// which declares nothing). 179 of the 189 UMD files in the corpus outline
// empty (467,000 lines): moment@2.30.1 moment.js (5,688 lines) and its 140
// locale/*.js, react@18.3.1 umd/react.development.js, d3@7.9.0 dist/d3.js
// (20,625 lines), axios@1.7.9 dist/axios.js, rxjs@7.8.1
// dist/bundles/rxjs.umd.js, mocha@11.0.1 mocha.js, mobx@6.13.5
// dist/mobx.umd.development.js, zod@3.24.1 lib/index.umd.js, handlebars,
// marked, commonmark, framer-motion, @testing-library/react. The code's own
// comment says UMD files are meant to be outlined in place. Expected: the
// factory's declarations at the top level, as for a bare IIFE. Suggested
// fix: in _wrapperBody(), when the call's callee is a function whose body
// declares nothing (or always), look at the call's arguments and take the
// last function_expression/arrow_function with a statement_block body (the
// factory), unwrapping parentheses.
Deno.test({
  name: "outlineSymbols() outlines the factory of a UMD bundle",
  fn: async () => {
    const moment = lines(
      ";(function (global, factory) {",
      "    typeof exports === 'object' && typeof module !== 'undefined' ? module.exports = factory() :",
      "    typeof define === 'function' && define.amd ? define(factory) :",
      "    global.moment = factory()",
      "}(this, (function () { 'use strict';",
      "",
      "    var hookCallback;",
      "",
      "    function hooks() {",
      "        return hookCallback.apply(null, arguments);",
      "    }",
      "",
      "    return hooks;",
      "",
      "})));",
    );
    assert.deepEqual(await outlineOf("moment.js", moment), [
      "var hookCallback 7-7",
      "function hooks 9-11",
    ]);
    const react = lines(
      "(function (global, factory) {",
      "  typeof exports === 'object' && typeof module !== 'undefined' ? factory(exports) :",
      "  typeof define === 'function' && define.amd ? define(['exports'], factory) :",
      "  (global = global || self, factory(global.React = {}));",
      "}(this, (function (exports) { 'use strict';",
      "",
      "  var ReactVersion = '18.3.1';",
      "",
      "  function createElement(type, config, children) {}",
      "",
      "  exports.createElement = createElement;",
      "",
      "})));",
    );
    assert.deepEqual(await outlineOf("react.development.js", react), [
      "var ReactVersion 7-7",
      "function createElement 9-9",
    ]);
  },
});

// Fixed fault: React 19's CommonJS development builds guard their IIFE with `&&`
// instead of an `if` block: `"production" !== process.env.NODE_ENV &&
// (function () { ... })();`. The fix for React 18's `if (...) { (function
// () { ... })(); }` (review 14) does not cover it, so react@19.0.0
// cjs/react.development.js (1,521 lines), react-dom@19.0.0
// cjs/react-dom-client.development.js (24,716 lines), scheduler@0.25.0
// cjs/scheduler.development.js and the React copies next@15.1.3 compiles
// in (98 files in the corpus) outline as "(no symbols found)". Expected:
// the IIFE body's declarations, as without the guard. Suggested fix: in
// _wrapperBody(), for a binary_expression whose operator is `&&` (or `||`),
// look into its right operand.
Deno.test({
  name: "outlineSymbols() outlines an IIFE behind a NODE_ENV && guard",
  fn: async () => {
    const text = lines(
      '"use strict";',
      '"production" !== process.env.NODE_ENV &&',
      "  (function () {",
      "    function findHook(fiber, id) {",
      "      return fiber;",
      "    }",
      "    var ReactSharedInternals = {};",
      '    exports.version = "19.0.0";',
      "  })();",
    );
    assert.deepEqual(await outlineOf("react.development.js", text), [
      "function findHook 4-6",
      "var ReactSharedInternals 7-7",
    ]);
  },
});

// Fixed fault: a class assigned to a variable lists none of its members.
// esbuild (tsup, Vite) writes the classes of a bundle as `var X = class {
// ... }`, and tsc writes a decorated class as `let AppComponent = class
// AppComponent { ... }; AppComponent = __decorate([...], AppComponent);`:
// react-router@7.1.0 dist/development/index.js (its main bundle) lists `var
// ErrorResponseImpl (lines 975-987)`, `var RenderErrorBoundary` and `var
// DataWithResponseInit` with no methods; vite@6.0.5 dist/node/chunks,
// prettier@3.4.2 index.mjs (49), pnpm@9.15.1 dist/pnpm.cjs (313),
// tailwindcss@3.4.17 peers/index.js (102) and typescript@5.7.2
// lib/typescript.js (45) likewise: 898 such classes in the corpus. The
// extractor already lists the members of `module.exports = class { ... }`.
// Expected: the class's methods and fields as the symbol's members (the
// test takes the label `var`/`let` or `class`). Suggested fix: in
// _variables(), when the only declarator's value is a `class` node, give
// the symbol _classMembers(value) as children (and perhaps the `class`
// label).
Deno.test({
  name: "outlineSymbols() lists the members of a class assigned to a variable",
  fn: async () => {
    const text = lines(
      "var ErrorResponseImpl = class {",
      "  constructor(status, statusText) {",
      "    this.status = status;",
      "  }",
      "  get ok() { return false; }",
      "};",
      "let AppComponent = class AppComponent {",
      '  title = "app";',
      "  ngOnInit() {}",
      "};",
      "AppComponent = __decorate([Component({})], AppComponent);",
    );
    const outline = (await outlineOf("index.js", text)).map((line) =>
      line.replace(/^(\s*)(?:var|let|class) /, "$1")
    );
    assert.deepEqual(outline, [
      "ErrorResponseImpl 1-6",
      "    method constructor 2-4",
      "    method ok 5-5",
      "AppComponent 7-10",
      "    property title 8-8",
      "    method ngOnInit 9-9",
    ]);
  },
});

// Fixed fault: Rollup's `iife` output format assigns the module to a global,
// `var Vue = (function (exports) { 'use strict'; ... return exports;
// })({});`, and the outline lists only `var Vue (lines 6-18096)` for
// vue@3.5.13 dist/vue.global.js (18,096 lines; also vue.runtime.global.js).
// The same IIFE as an expression statement is outlined in place. Expected:
// the IIFE body's declarations are listed (in place, or as members of
// `var Vue`); the test accepts either. Suggested fix: in _variables(), when
// a file's only declarator's value is an IIFE (unwrapping parentheses and
// the call as _wrapperBody() does), list the body's statements as the
// variable's children or after it.
Deno.test({
  name:
    "outlineSymbols() outlines the body of a var = (function () {})() bundle",
  fn: async () => {
    const text = lines(
      "var Vue = (function (exports) {",
      "  'use strict';",
      "",
      "  function makeMap(str) {",
      "    return str;",
      "  }",
      "",
      "  exports.makeMap = makeMap;",
      "",
      "  return exports;",
      "",
      "})({});",
    );
    const outline = await outlineOf("vue.global.js", text);
    assert.ok(
      outline.some((line) => line.trim() === "function makeMap 4-6"),
      outline.join("\n"),
    );
  },
});

// ---------------------------------------------------------------- Markdown

// Fixed fault: a heading's code span is read as Markdown: the HTML tags and link
// syntax inside backticks are removed as if they were markup, so the
// outline shows an empty code span. eslint-plugin-jsx-a11y@6.10.2
// docs/rules/alt-text.md `## \`<img>\`` is listed as "``",
// docs/rules/no-noninteractive-tabindex.md `### Case: I am using an \`<a>\`
// tag...` as "Case: I am using an `` tag..."; chalk@5.3.0 readme.md
// `### chalk.\`<style>[.<style>...](string, [string...])\`` loses the
// `[...](...)` as a "link"; the unified ecosystem writes optional
// parameters in API headings as `[, x]`, read as reference links:
// micromark@4.0.1 readme.md `### \`micromark(value[, encoding][, options])\``
// is listed as "`micromark(value, encoding)`" (likewise unified@11.0.5,
// remark-rehype@11.1.1 and mdast-util-from-markdown@2.0.2 readme.md). A code
// span is literal text (CommonMark 6.1).
// Expected: the code span as written (the parser keeps backticks, by
// decision). Suggested fix: in _plainText(), cut the text at code spans
// (runs of backticks and their matching closing run) and apply LINK, IMAGE
// and HTML_TAG only to the pieces outside them.
Deno.test({
  name: "outlineSymbols() keeps HTML tags and brackets inside a code span",
  fn: async () => {
    const text = lines(
      "# Rules",
      "",
      "## `<img>`",
      "",
      "## Case: I am using an `<a>` tag",
      "",
      "### chalk.`<style>[.<style>...](string, [string...])`",
      "",
      "### `micromark(value[, encoding][, options])`",
    );
    assert.deepEqual(await outlineOf("alt-text.md", text), [
      "heading Rules 1-9",
      "    heading `<img>` 3-4",
      "    heading Case: I am using an `<a>` tag 5-9",
      "        heading chalk.`<style>[.<style>...](string, [string...])` 7-8",
      "        heading `micromark(value[, encoding][, options])` 9-9",
    ]);
  },
});

// Fixed fault: an HTML comment in a heading stays in its name. "Markdown All in
// One" (VS Code) marks headings to leave out of its table of contents with
// `<!-- omit in toc -->`, and READMEs keep it: markdown-it@14.1.0 README.md
// `# markdown-it <!-- omit in toc -->`, highlight.js@11.11.0 README.md (7
// headings: "Common JS <!-- omit in toc -->", ...). A comment is not shown
// to a reader. Expected: "markdown-it", "Install". Suggested fix: in
// _plainText(), remove /<!--[\s\S]*?-->/g along with HTML_TAG.
Deno.test({
  name: "outlineSymbols() leaves an HTML comment out of a heading's name",
  fn: async () => {
    const text = lines(
      "# markdown-it <!-- omit in toc -->",
      "",
      "## Install <!-- omit in toc -->",
    );
    assert.deepEqual(await outlineOf("README.md", text), [
      "heading markdown-it 1-3",
      "    heading Install 3-3",
    ]);
  },
});

// Fixed fault: a heading that is only an HTML <img> is named by the raw tag. The
// parser's rule (an image or HTML tag shows nothing unless nothing else is
// left, then the images' alt text) falls back to Markdown images only, so
// ava@6.2.0 readme.md `# <img src="media/header.png" title="AVA" alt="AVA
// logo" width="530">` is listed as `heading <img src="media/header.png"
// title="AVA" alt="AVA logo" width="530">`. Expected: its alt text, "AVA
// logo", as for `# ![AVA logo](media/header.png)`. Suggested fix: in
// _plainText()'s fallback, also replace `<img ...>` by its alt attribute
// (/<img\b[^>]*\balt="([^"]*)"[^>]*>/), then remove the other tags.
Deno.test({
  name: "outlineSymbols() names a heading of one HTML <img> by its alt text",
  fn: async () => {
    const text = lines(
      '# <img src="media/header.png" title="AVA" alt="AVA logo" width="530">',
      "",
      "AVA is a test runner.",
    );
    assert.deepEqual(await outlineOf("readme.md", text), [
      "heading AVA logo 1-3",
    ]);
  },
});

// Fixed fault: an ATX heading inside a block quote or on a list item's first line
// is not listed. fastify@5.2.0 writes its notices as `> ## Note` and `> ##
// ⚠ Security Notice` (README.md, docs/Guides/Getting-Started.md,
// docs/Reference/Routes.md x2, Validation-and-Serialization.md,
// ContentTypeParser.md, LTS.md), pino@9.5.0 docs/api.md and docs/lts.md
// likewise; fastify docs/Reference/Reply.md has `- ### set-cookie` and
// react-router@7.1.0 CHANGELOG.md `- ### Typesafety improvements (#12019)`.
// CommonMark (and GitHub, which anchors and lists them) reads all of these
// as headings; of the 14,549 headings markdown-it finds in the corpus, the
// outline misses 13, all of this kind (vite@6.0.5 LICENSE.md quotes two
// licenses whose titles are `> # ...` and `> MIT License\n> -----`). Expected: the four headings below. Suggested
// fix: in _headings(), strip a block-quote prefix (/^ {0,3}>[ \t]?/,
// repeatedly) and a list marker (/^ {0,3}(?:[-*+]|\d{1,9}[.)])[ \t]+/) from
// a line before the ATX test (the quoted or listed text is the line's
// content); fences opened inside a quote would need the same prefix.
Deno.test({
  name: "outlineSymbols() lists headings in block quotes and list items",
  fn: async () => {
    const text = lines(
      "# Fastify",
      "",
      "> ## Note",
      "> `.listen` binds to the local host.",
      "",
      "## Reply",
      "",
      "- ### set-cookie",
      "  text",
    );
    assert.deepEqual(await outlineOf("README.md", text), [
      "heading Fastify 1-9",
      "    heading Note 3-5",
      "    heading Reply 6-9",
      "        heading set-cookie 8-9",
    ]);
  },
});

// Fixed fault: a shortcut reference link in a heading keeps its brackets. "Keep a
// Changelog" titles each release `## [2.31.0] - 2024-10-03` and defines
// `[2.31.0]: https://...compare/v2.30.0...v2.31.0` at the end: the outline
// lists "[2.31.0] - 2024-10-03" while a reader (and markdown-it) sees the
// link text "2.31.0 - 2024-10-03", as the parser already shows for inline
// and full reference links. The most frequent naming difference in the
// corpus: 443 headings in eslint-plugin-import@2.31.0, date-fns@4.1.0,
// tailwindcss@3.4.17 and other CHANGELOG.md files. A bracketed word with no
// definition (`[YANKED]`) is no link and stays. Expected: the two names
// below. Suggested fix: collect the link reference definitions
// (/^ {0,3}\[([^\]]+)\]:\s/, case-insensitive labels) while scanning lines,
// and in _plainText() replace `[label]` (not followed by `(` or `[`) by its
// text when the label is defined.
Deno.test({
  name: "outlineSymbols() shows a shortcut reference link by its text",
  fn: async () => {
    const text = lines(
      "# Changelog",
      "",
      "## [2.31.0] - 2024-10-03",
      "",
      "## [2.4.0] - 2017-06-02 [YANKED]",
      "",
      "[2.31.0]: https://github.com/x/y/compare/v2.30.0...v2.31.0",
      "[2.4.0]: https://github.com/x/y/compare/v2.3.0...v2.4.0",
    );
    assert.deepEqual(await outlineOf("CHANGELOG.md", text), [
      "heading Changelog 1-8",
      "    heading 2.31.0 - 2024-10-03 3-4",
      "    heading 2.4.0 - 2017-06-02 [YANKED] 5-8",
    ]);
  },
});
