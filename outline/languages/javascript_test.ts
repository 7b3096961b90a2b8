// The JavaScript outline: javascript.extract() on snippets and .js/.mjs files
// through outlineSymbols(): CommonJS assignments, IIFE, UMD and bundle
// wrappers, classes in variables, and which comments are docs.
import assert from "node:assert/strict";
import {
  extractText,
  outlineFileLines,
  outlineLines,
} from "../../tests/support/outline_languages.ts";
import { javascript } from "./javascript.ts";

const lines = (...text: string[]) => text.join("\n") + "\n";

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

Deno.test("javascript.extract() lists functions assigned to exports and prototypes", async () => {
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
});

Deno.test("javascript.extract() outlines an IIFE inside a NODE_ENV check", async () => {
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
});

Deno.test("outlineSymbols() outlines the factory of a UMD bundle", async () => {
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
  assert.deepEqual(await outlineFileLines("moment.js", moment), [
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
  assert.deepEqual(await outlineFileLines("react.development.js", react), [
    "var ReactVersion 7-7",
    "function createElement 9-9",
  ]);
});

Deno.test("outlineSymbols() outlines an IIFE behind a NODE_ENV && guard", async () => {
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
  assert.deepEqual(await outlineFileLines("react.development.js", text), [
    "function findHook 4-6",
    "var ReactSharedInternals 7-7",
  ]);
});

Deno.test("outlineSymbols() lists the members of a class assigned to a variable", async () => {
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
  const outline = (await outlineFileLines("index.js", text)).map((line) =>
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
});

Deno.test("outlineSymbols() outlines the body of a var = (function () {})() bundle", async () => {
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
  const outline = await outlineFileLines("vue.global.js", text);
  assert.ok(
    outline.some((line) => line.trim() === "function makeMap 4-6"),
    outline.join("\n"),
  );
});

Deno.test("javascript.extract() takes no @param continuation line as a summary", async () => {
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
});

Deno.test("javascript.extract() leaves a file's overview JSDoc under 'use strict' to the file", async () => {
  const text = lines(
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
  );
  assert.deepEqual(outlineLines(await extractText(javascript, text)), [
    "const fs 10-10",
  ]);
});

Deno.test("outlineSymbols() takes no doc from a multi-line @typedef", async () => {
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
});

Deno.test("outlineSymbols() ends a function before a comment opened on its last line", async () => {
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
});

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

Deno.test("outlineSymbols() reads a JSDoc one blank line above its declaration", async () => {
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
  assert.deepEqual(await outlineFileLines("command.js", text), [
    "const x 1-1",
    "function parse 7-7 // Given a GraphQL source, parses it into a Document.",
    "class Command 9-17",
    "    method createCommand 16-16 // Factory routine to create a new unattached command.",
  ]);
});

Deno.test("outlineSymbols() takes no license header as the first symbol's doc", async () => {
  const text = lines(
    "/**",
    " * Copyright (c) Facebook, Inc. and its affiliates.",
    " *",
    " * This source code is licensed under the MIT license found in the",
    " * LICENSE file in the root directory of this source tree.",
    " */",
    "export default function Navbar(): JSX.Element;",
  );
  assert.deepEqual(await outlineFileLines("index.d.ts", text), [
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
  assert.deepEqual(await outlineFileLines("index.js", js), [
    "import react 7-7",
  ]);
});
