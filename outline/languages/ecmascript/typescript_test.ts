// The TypeScript and TSX outline: typescript.extract() on snippets and .ts,
// .d.ts and .tsx files through outlineSymbols(): declarations as tsc reads
// them, import types, call signatures, namespaces and JSDoc summaries.
import assert from "node:assert/strict";
import {
  lines,
  outlineFileLines,
  testExtract,
  testOutlineFiles,
} from "../../../tests/support/outline_languages.ts";
import { typescript } from "./typescript.ts";

Deno.test("outlineSymbols() outlines a TSX file that starts with a blank line and indented JSX", async () => {
  assert.deepEqual(
    await outlineFileLines(
      "fragment.tsx",
      lines("", "  <div>hi</div>", "", "export const after = 1;"),
      { parseBudgetMs: 2_000 },
    ),
    ["const after 4-4"],
  );
});

Deno.test("outlineSymbols() takes no /// <reference> directive as a doc comment", async () => {
  assert.deepEqual(
    await outlineFileLines(
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
    await outlineFileLines(
      "index.mjs",
      lines(
        '/// <reference types="react/experimental" />',
        "const use = React.use;",
      ),
    ),
    ["const use 2-2"],
  );
});

testOutlineFiles([
  {
    name: "outlineSymbols() outlines a declaration file as tsc reads it",
    file: "api.d.ts",
    text: lines(
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
    ),
    outline: [
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
      "        property a 21-21",
      'namespace "m" 25-27',
      "    const v 26-26",
      "namespace global 29-33",
      "    interface Window 30-32",
      "        property x 31-31",
      "enum E 35-38",
      "    member A 36-36",
      "    member B 37-37",
      "type T 40-44",
      "    property id 42-42 // The id.",
      "    method run 43-43",
      "function default 46-46",
    ],
  },
  {
    name: "outlineSymbols() names a namespace `A .B` with its whole name",
    file: "a.ts",
    text: "namespace A .B {\n  export const x = 1;\n}\n" +
      "declare module F .G {\n}\n" +
      "namespace C\r\n  .D.E {\r\n}\r\n",
    outline: [
      "namespace A .B 1-3",
      "    const x 2-2",
      "namespace F .G 4-5",
      "namespace C .D.E 6-8",
    ],
  },
  {
    name: "outlineSymbols() names a namespace `A .B` after any white space",
    file: "a.ts",
    text: "namespace A \u00a0.B {\n}\nnamespace C \f.D {\n}\n" +
      "namespace E\t\v.F {}\nnamespace G \u2028.H {}\n",
    outline: [
      "namespace A .B 1-2",
      "namespace C .D 3-4",
      "namespace E .F 5-5",
      "namespace G .H 6-6",
    ],
  },
  {
    name: "outlineSymbols() keeps a TypeScript parameter named 'using'",
    file: "testability.ts",
    text: lines(
      "export interface Testability {",
      "  isStable(): boolean;",
      "  findProviders(using: any, provider: string): any[];",
      "}",
      "",
      "export function find(using: string): void {}",
      "",
      "export const after = 1;",
    ),
    outline: [
      "interface Testability 1-4",
      "    method isStable 2-2",
      "    method findProviders 3-3",
      "function find 6-6",
      "const after 8-8",
    ],
  },
  {
    name: "outlineSymbols() names a property called 'abstract'",
    file: "metadata.ts",
    text: lines(
      "export interface Metadata {",
      "  abstract?: null | string;",
      "  keywords: string[];",
      "}",
      "export type Options = { abstract?: { before?: boolean }; as?: boolean };",
    ),
    outline: [
      "interface Metadata 1-4",
      "    property abstract 2-2",
      "    property keywords 3-3",
      "type Options 5-5",
      "    property abstract 5-5",
      "    property as 5-5",
    ],
  },
  {
    name: "outlineSymbols() keeps a doc line that is only an inline {@link}",
    file: "options.ts",
    text: lines(
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
    ),
    outline: [
      "interface Options 1-11",
      "    property ttl 5-5 // {@link Base.ttl}",
      "    property item 10-10 // {@link https://example.com/spec Item}",
    ],
  },
  {
    name: "outlineSymbols() leaves an adjacent @module JSDoc to the file",
    file: "index.d.ts",
    text: lines(
      "/**",
      " * @module TypeDoc API",
      " *",
      " * In addition to the members documented here, more.",
      " */",
      'export { Application } from "./lib/application.js";',
      'export { Event } from "./lib/events.js";',
    ),
    outline: [
      "export { Application } from ./lib/application.js 6-6",
      "export { Event } from ./lib/events.js 7-7",
    ],
  },
  {
    name: "outlineSymbols() reads a class extending Base<import(...).T>",
    file: "element.bar.d.ts",
    text: lines(
      'export default class BarElement extends Element<import("./basic.js").AnyObject> {',
      "  static id: string;",
      "  draw(ctx: any): void;",
      "}",
      "export type BarProps = {",
      "  x: number;",
      "};",
    ),
    outline: [
      "class BarElement 1-4",
      "    property id 2-2",
      "    method draw 3-3",
      "type BarProps 5-7",
      "    property x 6-6",
    ],
  },
  {
    name:
      "outlineSymbols() reads a generic call signature under a comment or with a lone '<'",
    file: "produce.ts",
    text: lines(
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
    ),
    outline: [
      "interface Produce 1-8",
      "    property name 7-7",
      "function produce 10-10",
    ],
    also: [
      {
        file: "use_store.ts",
        text: lines(
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
        ),
        outline: [
          "interface UseStore 1-8",
          "    property withTypes 7-7",
          "const useStore 10-10",
        ],
      },
    ],
  },
  {
    name: "outlineSymbols() reads import(...) types with type arguments or []",
    file: "startOfMinute.d.ts",
    text: lines(
      'export declare const startOfMinute: import("./types.js").FPFn1<',
      "  Date,",
      '  import("../fp.js").DateArg<Date>',
      ">;",
      "export declare const restricted: {",
      '  [x: string]: import("redux").ActionCreator<A>;',
      "};",
      "export declare const after: number;",
    ),
    outline: [
      "const startOfMinute 1-4",
      "const restricted 5-7",
      "const after 8-8",
    ],
    also: [
      {
        file: "_document.d.ts",
        text: lines(
          "export declare class Head extends React.Component<HeadProps> {",
          '    getPreloadDynamicChunks(): (import("react/jsx-runtime").JSX.Element | null)[];',
          "    getCssLinks(files: DocumentFiles): JSX.Element[] | null;",
          "}",
          "export declare function Html(props: HtmlProps): JSX.Element;",
        ),
        outline: [
          "class Head 1-4",
          "    method getPreloadDynamicChunks 2-2",
          "    method getCssLinks 3-3",
          "function Html 5-5",
        ],
      },
    ],
  },
  {
    name:
      "outlineSymbols() reads generic call signatures in a semicolon-free interface",
    file: "connect.tsx",
    text: lines(
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
    ),
    outline: [
      "interface Connect 1-12",
      "let warned 14-14",
      "function connect 16-16",
    ],
    also: [
      {
        file: "selector.ts",
        text: lines(
          "interface Selector {",
          "  name: string",
          "  <T>(input: T): T",
          "  size: number",
          "}",
        ),
        outline: [
          "interface Selector 1-5",
          "    property name 2-2",
          "    property size 4-4",
        ],
      },
    ],
  },
  {
    name: "outlineSymbols() lists an export default function signature",
    file: "index.d.ts",
    text: lines(
      'import type { AstroIntegration } from "astro";',
      "export default function ({ include, exclude }?: Options): AstroIntegration;",
      "export declare function getContainerRenderer(): ContainerRenderer;",
    ),
    outline: [
      "import astro 1-1",
      "function default 2-2",
      "function getContainerRenderer 3-3",
    ],
    also: [
      {
        file: "semantic-release.d.ts",
        text: lines(
          'declare module "semantic-release" {',
          "  export type Result = false | { ok: true };",
          "  /**",
          "   * Run semantic-release and returns a Promise that resolves to a Result",
          "   * object.",
          "   */",
          "  export default function (options: Options): Promise<Result>;",
          "}",
        ),
        outline: [
          'namespace "semantic-release" 1-8',
          "    type Result 2-2",
          "        property ok 2-2",
          "    function default 7-7 // Run semantic-release and returns a Promise that resolves to a Result",
        ],
      },
    ],
  },
  {
    name:
      "outlineSymbols() reads a JSDoc @summary or @description as the summary",
    file: "addDays.d.ts",
    text: lines(
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
    ),
    outline: [
      "function addDays 11-11 // Add the specified number of days to the given date.",
      "function read 16-16 // Reads the config.",
      "interface ComponentToken 17-23",
      "    property fontWeight 22-22 // 文字字重",
    ],
  },
]);

testExtract(typescript, [
  {
    name:
      "typescript.extract() starts a decorated method at its decorator, with its doc",
    text: lines(
      "export class UsersController {",
      "  /** The service. */",
      "  @Inject()",
      "  private readonly users!: UsersService;",
      "  /** Handles it. */",
      '  @Get(":id")',
      "  @HttpCode(200)",
      '  async find(@Param("id") id: string) {}',
      "}",
    ),
    outline: [
      "class UsersController 1-9",
      "    property users 3-4 // The service.",
      "    method find 6-8 // Handles it.",
    ],
  },
  {
    name: "typescript.extract() lists a declare global block",
    text: lines(
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
    ),
    outline: [
      "namespace global 2-7",
      "    interface Window 3-5",
      "        property myGlobal 4-4",
      "    var __APP_VERSION__ 6-6",
      'namespace "express" 8-10',
      "    interface Request 9-9",
      "        property user 9-9",
    ],
  },
  {
    name:
      "typescript.extract() lists namespaces and their members at any depth",
    text: lines(
      "declare namespace ts {",
      "  namespace server {",
      "    namespace protocol {",
      "      /** A message. */",
      "      interface Message {",
      "        seq: number;",
      "      }",
      "      enum Kind { A }",
      "    }",
      "    class Session { close(): void; }",
      "  }",
      "}",
    ),
    outline: [
      "namespace ts 1-12",
      "    namespace server 2-11",
      "        namespace protocol 3-9",
      "            interface Message 5-7 // A message.",
      "                property seq 6-6",
      "            enum Kind 8-8",
      "                member A 8-8",
      "        class Session 10-10",
      "            method close 10-10",
    ],
  },
  {
    name:
      "typescript.extract() lists the members of a variable's type and of each object type an alias joins",
    text: lines(
      "declare var NodeFilter: {",
      "  readonly FILTER_ACCEPT: 1;",
      "  new(): NodeFilter;",
      "};",
      'type BoxDivProps = { as?: "div" } & (A | { b: 1 });',
      "let z: number = 1;",
    ),
    outline: [
      "var NodeFilter 1-4",
      "    property FILTER_ACCEPT 2-2",
      "type BoxDivProps 5-5",
      "    property as 5-5",
      "    property b 5-5",
      "let z 6-6",
    ],
  },
  {
    name: "typescript.extract() names what a re-export passes on",
    text: lines(
      'export { createTools } from "./x.ts";',
      'export type { A, B as C } from "./a";',
      'export * as fs from "node:fs";',
      'export * from "./y";',
      "export {",
      "  a,",
      "  b,",
      '} from "./z";',
    ),
    outline: [
      "export { createTools } from ./x.ts 1-1",
      "export { A, B as C } from ./a 2-2",
      "export * as fs from node:fs 3-3",
      "export ./y 4-4",
      "export { a, b } from ./z 5-8",
    ],
  },
  {
    name: "typescript.extract() names an import-require by its module",
    text: lines(
      'import fs = require("fs");',
      'import type { A } from "./a";',
    ),
    outline: [
      "import fs 1-1",
      "import ./a 2-2",
    ],
  },
  {
    name:
      'typescript.extract() keeps import("...") in a doc comment as written',
    text: lines(
      '/** Loads the page with import("./page.js"). */',
      "export function loadPage(): Promise<unknown>;",
    ),
    outline: [
      'function loadPage 2-2 // Loads the page with import("./page.js").',
    ],
  },
  {
    name:
      "typescript.extract() keeps a doc that starts with the word Copyright",
    text: lines(
      "export interface FooterConfig {",
      "  /** Copyright line shown in the site footer. */",
      "  copyright?: string;",
      "}",
    ),
    outline: [
      "interface FooterConfig 1-4",
      "    property copyright 3-3 // Copyright line shown in the site footer.",
    ],
  },
  {
    name:
      "typescript.extract() keeps line numbers after an import( spread over lines",
    text: lines(
      "export const Page = lazy(() =>",
      "  import(",
      '    "./pages/SomeVeryLongPageName"',
      "  )",
      ");",
      "",
      "export function after() {}",
    ),
    outline: [
      "const Page 1-5",
      "function after 7-7",
    ],
  },
  {
    name:
      "typescript.extract() leaves a file's overview JSDoc under #! or 'use client' to the file",
    text: lines(
      "#!/usr/bin/env node",
      "/**",
      " * The command line entry point of the tool.",
      " */",
      "",
      'import { run } from "./run.ts";',
    ),
    outline: [
      "import ./run.ts 6-6",
    ],
    also: [
      {
        text: lines(
          '"use client";',
          "",
          "/** The settings page: a form over the user's preferences. */",
          "",
          'import { useState } from "react";',
        ),
        outline: [
          "import react 5-5",
        ],
      },
    ],
  },
]);
