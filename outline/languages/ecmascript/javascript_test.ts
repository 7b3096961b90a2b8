// The JavaScript outline: javascript.extract() on snippets and .js/.mjs files
// through outlineSymbols(): CommonJS assignments, IIFE, UMD and bundle
// wrappers, classes in variables, and which comments are docs.
import assert from "node:assert/strict";
import {
  lines,
  outlineFileLines,
  testExtract,
  testOutlineFiles,
} from "../../../tests/support/outline_languages.ts";
import { javascript } from "./javascript.ts";

Deno.test("outlineSymbols() takes no banner of slashes or dashes as a doc summary", async () => {
  const outline = await outlineFileLines(
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
});

// The license header Meta's projects open every file with.
const META_LICENSE = [
  "/**",
  " * Copyright (c) Facebook, Inc. and its affiliates.",
  " *",
  " * This source code is licensed under the MIT license found in the",
  " * LICENSE file in the root directory of this source tree.",
  " */",
];

testOutlineFiles([
  {
    name:
      "outlineSymbols() lists the members of a class assigned to a variable",
    file: "index.js",
    text: lines(
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
    ),
    outline: [
      "var ErrorResponseImpl 1-6",
      "    method constructor 2-4",
      "    method ok 5-5",
      "let AppComponent 7-10",
      "    property title 8-8",
      "    method ngOnInit 9-9",
    ],
  },
  {
    name:
      "outlineSymbols() outlines the body of a var = (function () {})() bundle",
    file: "vue.global.js",
    text: lines(
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
    ),
    outline: ["var Vue 1-12", "    function makeMap 4-6"],
  },
  {
    name: "outlineSymbols() outlines CommonJS assignments and a bundle's IIFE",
    file: "lib.js",
    text: lines(
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
    ),
    outline: [
      "const a 3-3",
      "const b 3-3",
      "function exports.parse 6-6 // Parses it.",
      "class module.exports.Thing 8-12",
      "    method run 10-10 // Runs.",
      "    property size 11-11",
      "var Lib 15-19 // Builds the bundle.",
      "    function inner 16-16",
      "    class K 17-17",
    ],
  },
  {
    name: "outlineSymbols() outlines an IIFE behind a NODE_ENV && guard",
    file: "react.development.js",
    text: lines(
      '"use strict";',
      '"production" !== process.env.NODE_ENV &&',
      "  (function () {",
      "    function findHook(fiber, id) {",
      "      return fiber;",
      "    }",
      "    var ReactSharedInternals = {};",
      '    exports.version = "19.0.0";',
      "  })();",
    ),
    outline: [
      "function findHook 4-6",
      "var ReactSharedInternals 7-7",
    ],
  },
  {
    name: "outlineSymbols() takes no doc from a multi-line @typedef",
    file: "walker.js",
    text: lines(
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
    ),
    outline: [
      "import x 1-1",
      "class WalkerBase 7-7",
      "function create 13-13",
    ],
  },
  {
    name:
      "outlineSymbols() ends a function before a comment opened on its last line",
    file: "rule.js",
    text: lines(
      '"use strict";',
      "function _a(t) { return t; } /**",
      " * @fileoverview Enforce things.",
      " */ // ----",
      "const b = 1;",
    ),
    outline: [
      "function _a 2-2",
      "const b 5-5",
    ],
  },
  {
    name: "outlineSymbols() reads a JSDoc one blank line above its declaration",
    file: "command.js",
    text: lines(
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
    ),
    outline: [
      "const x 1-1",
      "function parse 7-7 // Given a GraphQL source, parses it into a Document.",
      "class Command 9-17",
      "    method createCommand 16-16 // Factory routine to create a new unattached command.",
    ],
  },
  {
    name: "outlineSymbols() outlines the factory of a UMD bundle",
    file: "moment.js",
    text: lines(
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
    ),
    outline: [
      "var hookCallback 7-7",
      "function hooks 9-11",
    ],
    also: [
      {
        file: "react.development.js",
        text: lines(
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
        ),
        outline: [
          "var ReactVersion 7-7",
          "function createElement 9-9",
        ],
      },
    ],
  },
  {
    name: "outlineSymbols() takes no license header as the first symbol's doc",
    file: "index.d.ts",
    text: lines(
      ...META_LICENSE,
      "export default function Navbar(): JSX.Element;",
    ),
    outline: [
      "function Navbar 7-7",
    ],
    also: [
      {
        file: "index.js",
        text: lines(
          ...META_LICENSE,
          'import React from "react";',
        ),
        outline: [
          "import react 7-7",
        ],
      },
    ],
  },
]);

testExtract(javascript, [
  {
    name:
      "javascript.extract() lists functions assigned to exports and prototypes",
    text: lines(
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
    ),
    outline: [
      "var res 1-1",
      "function res.send 6-8 // Send a response.",
      "function exports.parse 11-11 // Parse a cookie header.",
      "function module.exports 13-13",
      "function Router.prototype.handle 15-15",
    ],
  },
  {
    name: "javascript.extract() outlines an IIFE inside a NODE_ENV check",
    text: lines(
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
    ),
    outline: [
      "var ReactVersion 6-6",
      "function createElement 8-10 // Creates an element.",
    ],
  },
  {
    name: "javascript.extract() takes no @param continuation line as a summary",
    text: lines(
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
    ),
    outline: [
      "function commitRoot 6-6",
      "function diff 12-12 // Diff two virtual nodes.",
    ],
  },
  {
    name:
      "javascript.extract() leaves a file's overview JSDoc under 'use strict' to the file",
    text: lines(
      "'use strict';",
      "",
      "/**",
      ' * Responsible for loading / finding Mocha\'s "rc" files.',
      " *",
      " * @private",
      " * @module",
      " */",
      "",
      "const fs = require('fs');",
    ),
    outline: [
      "const fs 10-10",
    ],
  },
]);
